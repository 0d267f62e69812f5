import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, MIN_JWT_SECRET_LENGTH, type RemitConfig } from './config.js';

/** Where the generated signing secret of a SQLite database is kept: beside the file. */
export function secretFileFor(dbFile: string): string {
  return `${dbFile}.jwt-secret`;
}

/** A secret from any source is refused when short: an empty key would let anyone forge a token. */
function checked(secret: string, source: string): string {
  if (secret.length < MIN_JWT_SECRET_LENGTH) {
    throw new ConfigError(`${source} 的簽章密鑰只有 ${secret.length} 個字元（至少需要 ${MIN_JWT_SECRET_LENGTH} 個）：請刪除該檔案讓系統重新產生，或設定 REMIT_JWT_SECRET`);
  }
  return secret;
}

/**
 * The token signing secret: REMIT_JWT_SECRET when set; otherwise, for SQLite, one generated on
 * first use and kept beside the database with mode 0600. Several PostgreSQL instances must
 * share one secret, so there it has to be configured. The file is written whole under a
 * temporary name and then linked into place, so a full disk can leave no short or empty secret
 * behind; one found short anyway (written by hand, or by an older version) is refused.
 */
export function resolveJwtSecret(config: RemitConfig): string {
  if (config.jwtSecret) return checked(config.jwtSecret, 'REMIT_JWT_SECRET');
  if (config.db.client === 'pg') throw new ConfigError('使用 PostgreSQL 時必須設定 REMIT_JWT_SECRET（所有伺服器共用同一個值）');
  if (config.db.filename === ':memory:') return randomBytes(48).toString('base64url');
  const file = secretFileFor(config.db.filename);
  const existing = readSecret(file);
  if (existing !== null) return checked(existing, file);
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, `${secret}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // link, unlike rename, fails when the name exists: a second process starting at the same
    // moment keeps the first one's secret.
    linkSync(tmp, file);
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return checked(readSecret(file) ?? '', file);
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}

function readSecret(file: string): string | null {
  try {
    const text = readFileSync(file, 'utf8').trim();
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
