/** Starts the back end (`remit serve` wraps it): opens and migrates the database, ensures a first admin, listens. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import {
  DEFAULT_MATCHING,
  ensureFirstRun,
  listenUrl,
  warmSignIn,
  migrateLatest,
  openDatabase,
  openReadPool,
  scheduleNightlyBackups,
  securitySettings,
  type RemitConfig,
  type User,
} from '../core/index.js';
import { dataDirOf } from '../core/config.js';
import { createApp } from './app.js';
import { jsonLog } from './middleware/requestTrace.js';
import { firstScreenFor } from './firstScreen.js';
import { defaultStaticDir, spa } from './static.js';

interface RunningServer {
  server: Server;
  db: Knex;
  url: string;
  /** set when this start created the first admin */
  firstAdmin?: { user: User; password: string; generated: boolean };
  /** stops accepting connections, lets requests in flight finish, then closes the database */
  close(): Promise<void>;
}

export async function startServer(
  config: RemitConfig,
  opts: { log?: (msg: string, err: unknown, requestId?: string) => void; staticDir?: string } = {},
): Promise<RunningServer> {
  const db = openDatabase(config.db);
  try {
    await migrateLatest(db);
    const security = securitySettings(config);
    const first = await ensureFirstRun({ db, security }, { adminPassword: config.adminPassword });
    await warmSignIn(security);
    const read = openReadPool(config.db);
    const firstScreen = firstScreenFor(
      { db, read, security, matching: config.matching ?? DEFAULT_MATCHING },
      config.title,
    );
    const app = createApp({
      db,
      read,
      security,
      matching: config.matching,
      backups: config.backups,
      trustProxy: config.trustProxy,
      proxyHops: config.proxyHops,
      // REMIT_LOG=json: every request a line, failures too; else failures alone, as the caller writes them
      log: config.log === 'json' ? jsonLog.error : opts.log,
      requestLog: config.log === 'json' ? jsonLog.request : undefined,
      health: { dataDir: dataDirOf(config.db) },
      after: [spa({ root: opts.staticDir ?? defaultStaticDir(), title: config.title, firstScreen })],
    });
    const server = app.listen(config.port, config.host);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    server.keepAliveTimeout = 65_000;
    const { port } = server.address() as AddressInfo;
    const url = listenUrl(config.host, port);
    // store links are written with REMIT_PUBLIC_URL, else with the address this server listens on
    if (security.publicLinks && !security.publicLinks.url) security.publicLinks.url = url;
    const report = opts.log ?? ((m: string, e: unknown) => console.error(m, e));
    const stopNightly = scheduleNightlyBackups({ db, security, backups: config.backups }, (e) =>
      report('nightly backup failed', e),
    );
    let closing: Promise<void> | undefined;
    return {
      server,
      db,
      url,
      firstAdmin: first.admin,
      close() {
        closing ??= (async () => {
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
          });
          await stopNightly();
          await read?.destroy();
          await db.destroy();
        })();
        return closing;
      },
    };
  } catch (err) {
    await db.destroy();
    throw err;
  }
}
