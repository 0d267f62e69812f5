import {
  loadConfig,
  migrateLatest,
  openDatabase,
  securitySettings,
  systemActor,
  type RemitConfig,
  type ServiceContext,
} from '../core/index.js';

/** What a command needs from its surroundings; tests pass their own. */
export interface CliIO {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export interface GlobalOptions {
  db?: string;
}

export function configFrom(io: CliIO, opts: GlobalOptions & { port?: string; host?: string }): RemitConfig {
  return loadConfig(io.env, { db: opts.db, port: opts.port, host: opts.host });
}

/**
 * Opens and migrates the database and runs `fn` as the machine's operator (whoever can run
 * the CLI on the server already holds the database), closing the database afterwards.
 */
export async function withOperator<T>(io: CliIO, opts: GlobalOptions, fn: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  const config = configFrom(io, opts);
  const db = openDatabase(config.db);
  try {
    await migrateLatest(db);
    return await fn({ db, security: securitySettings(config), actor: systemActor('cli'), ip: null });
  } finally {
    await db.destroy();
  }
}

export function describeDb(config: RemitConfig): string {
  return config.db.client === 'sqlite' ? config.db.filename : config.db.connectionString.replace(/:\/\/([^:@/]+):[^@/]*@/, '://$1:***@');
}
