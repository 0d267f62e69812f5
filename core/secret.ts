import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, JWT_SECRET_ENV_FIX, jwtSecretProblem, type RemitConfig } from './config.js';

/** Where the generated signing secret of a SQLite database is kept: beside the file. */
export function secretFileFor(dbFile: string): string {
  return `${dbFile}.jwt-secret`;
}

/** One rule for every source (config.ts): an empty key, or 32 × `a`, would let anyone forge a token. */
function checked(secret: string, source: string): string {
  const fix =
    source === 'REMIT_JWT_SECRET'
      ? JWT_SECRET_ENV_FIX
      : '請刪除該檔案讓系統重新產生（所有人需要重新登入），或設定 REMIT_JWT_SECRET';
  const problem = jwtSecretProblem(secret, source, fix);
  if (problem) throw new ConfigError(problem);
  return secret;
}

/**
 * REMIT_JWT_SECRET (required on PostgreSQL, whose instances share one), else one kept beside the SQLite file,
 * written whole under a temporary name and then linked into place, so a full disk leaves no short secret.
 */
export function resolveJwtSecret(config: RemitConfig): string {
  if (config.jwtSecret) return checked(config.jwtSecret, 'REMIT_JWT_SECRET');
  if (config.db.client === 'pg')
    throw new ConfigError('使用 PostgreSQL 時必須設定 REMIT_JWT_SECRET（所有伺服器共用同一個值）');
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
    // link, unlike rename, fails when the name exists: a second process starting at once keeps the first's.
    linkSync(tmp, file);
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return checked(readSecret(file) ?? '', file);
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Whoever reads it signs for any account: refused if others may read it or another user owns it (and could swap). */
export function readSecret(file: string, uid: number | undefined = process.getuid?.()): string | null {
  let st;
  try {
    st = statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (uid !== undefined && st.uid !== uid) {
    throw new ConfigError(
      `簽章密鑰檔 ${file} 的擁有者不是執行 remit 的使用者（檔案屬於 uid ${st.uid}，remit 以 uid ${uid} 執行），別人可以讀取或換掉它：請以執行 remit 的使用者執行 chown "$(id -un)" ${file} 與 chmod 600 ${file}，或刪除它讓系統重新產生（所有人需要重新登入）`,
    );
  }
  if ((st.mode & 0o077) !== 0) {
    const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
    throw new ConfigError(
      `簽章密鑰檔 ${file} 的權限是 ${mode}，同一台機器的其他使用者可以讀取（讀到它就能偽造任何帳戶的登入）：請執行 chmod 600 ${file}；若檔案可能已被別人讀過，刪除它讓系統重新產生（所有人需要重新登入）`,
    );
  }
  return readFileSync(file, 'utf8').trim();
}
