import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, type RemitConfig } from './config.js';

/** Where the generated signing secret of a SQLite database is kept: beside the file. */
export function secretFileFor(dbFile: string): string {
  return `${dbFile}.jwt-secret`;
}

/**
 * The token signing secret: REMIT_JWT_SECRET when set; otherwise, for SQLite, one generated on
 * first use and kept beside the database with mode 0600. Several PostgreSQL instances must
 * share one secret, so there it has to be configured.
 */
export function resolveJwtSecret(config: RemitConfig): string {
  if (config.jwtSecret) return config.jwtSecret;
  if (config.db.client === 'pg') throw new ConfigError('使用 PostgreSQL 時必須設定 REMIT_JWT_SECRET（所有伺服器共用同一個值）');
  if (config.db.filename === ':memory:') return randomBytes(48).toString('base64url');
  const file = secretFileFor(config.db.filename);
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    if (existing.length >= 32) return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    // Another process wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
}
