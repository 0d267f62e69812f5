// The one reader of the environment: edges call `loadConfig` and pass the result down.
import { dirname, join, resolve } from 'node:path';
import type { DbConfig } from './db/connect.js';
import { DEFAULT_HASHING, type HashingSettings } from './users/hashPool.js';
import { DEFAULT_MATCHING, type MatchingSettings } from './reconcile/matchPool.js';
import { DEFAULT_PUBLIC_LIMITS } from './links/rules.js';
import type { BackupSettings, PublicLimits } from './context.js';

export interface RemitConfig {
  db: DbConfig;
  port: number;
  host: string;
  /** absent: a secret is generated and kept beside the SQLite file */
  jwtSecret?: string;
  tokenTtlSeconds: number;
  bcryptCost: number;
  hashing: HashingSettings;
  matching: MatchingSettings;
  /** the first admin's, on a database with no users */
  adminPassword?: string;
  /** take the client address from X-Forwarded-For */
  trustProxy: boolean;
  /** how many X-Forwarded-For entries, from the right, the proxies in front add */
  proxyHops: number;
  title: string;
  /** the address customers reach, for store links; absent, the one `remit serve` listens on */
  publicUrl?: string;
  publicLimits: PublicLimits;
  backups: BackupSettings;
  /** REMIT_LOG=json: one JSON line per request on stdout; absent, only failures are written, as text */
  log: 'text' | 'json';
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const MIN_JWT_SECRET_LENGTH = 32;
/** 32 × `a` is long enough, and one guess. */
const MIN_JWT_SECRET_DISTINCT = 10;

/** Why a signing secret is guessable, or null: whoever guesses it can sign a token for any account. */
export function jwtSecretProblem(secret: string, source: string, fix: string): string | null {
  const chars = [...secret];
  if (chars.length < MIN_JWT_SECRET_LENGTH)
    return `${source} 的簽章密鑰只有 ${chars.length} 個字元（至少需要 ${MIN_JWT_SECRET_LENGTH} 個）：${fix}`;
  const distinct = new Set(chars).size;
  let block = 0;
  for (let size = 1; size <= chars.length / 2 && !block; size++) {
    const piece = chars.slice(0, size).join('');
    if (piece.repeat(Math.ceil(chars.length / size)).slice(0, secret.length) === secret) block = size;
  }
  if (distinct < MIN_JWT_SECRET_DISTINCT || block) {
    const what =
      distinct < MIN_JWT_SECRET_DISTINCT
        ? `只用了 ${distinct} 種不同的字元（至少需要 ${MIN_JWT_SECRET_DISTINCT} 種）`
        : `只是一段 ${block} 個字元重複而成`;
    return `${source} 的簽章密鑰變化太少：${what}，容易被猜中，猜中的人就能偽造任何帳戶的登入。${fix}`;
  }
  return null;
}

export const JWT_SECRET_ENV_FIX = '請設定一個隨機值，例如 REMIT_JWT_SECRET=$(openssl rand -base64 48)';

export const DEFAULTS = {
  dbFile: './data/remit.sqlite',
  port: 3000,
  host: '127.0.0.1',
  tokenTtlSeconds: 12 * 60 * 60,
  bcryptCost: 12,
  title: '煙具專賣店 匯款回報系統',
} as const;

type Env = Record<string, string | undefined>;

function intSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} 必須是 ${min} 到 ${max} 之間的整數（目前是「${raw}」）`);
  return n;
}

/** The address a server listening on host:port is reached at, as `remit serve` says it (0.0.0.0 reads localhost). */
export function listenUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

/** REMIT_PUBLIC_URL: an http(s) address with no path beyond `/`, written without its trailing slash. */
function publicUrlOf(raw: string | undefined): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    /* said below */
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(
      `REMIT_PUBLIC_URL 必須是顧客連得到的網址，例如 https://remit.example.tw（目前是「${text}」）`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** REMIT_BACKUP_DIR, else a `backups` folder in the data folder (beside the SQLite file, or ./data/backups). */
function backupSettings(env: Env, db: DbConfig, dirFlag?: string): BackupSettings {
  const given = dirFlag?.trim() || env.REMIT_BACKUP_DIR?.trim();
  const keep = env.REMIT_BACKUP_KEEP_DAYS?.trim();
  return {
    dir: resolve(given || join(dataDirOf(db), 'backups')),
    keepDays: keep ? intSetting(env, 'REMIT_BACKUP_KEEP_DAYS', 14, 1, 3650) : undefined,
  };
}

/** REMIT_LOG: unset for the plain text of old, `json` for a line a log collector reads. */
function logFormatOf(raw: string | undefined): 'text' | 'json' {
  const text = raw?.trim().toLowerCase();
  if (!text) return 'text';
  if (text === 'json') return 'json';
  throw new ConfigError(`REMIT_LOG 只能是 json 或不設定（目前是「${raw}」）`);
}

/** Where the server keeps its files: the SQLite file's folder, or ./data beside PostgreSQL (its disk is watched). */
export function dataDirOf(db: DbConfig): string {
  return db.client === 'sqlite' ? dirname(db.filename) : dirname(DEFAULTS.dbFile);
}

/** Reads the configuration; command-line flags win over the environment. */
export function loadConfig(
  env: Env,
  flags: { db?: string; port?: string | number; host?: string; backupDir?: string } = {},
): RemitConfig {
  const url = env.DATABASE_URL?.trim();
  let db: DbConfig;
  if (flags.db) db = { client: 'sqlite', filename: flags.db };
  else if (url) {
    if (!/^postgres(ql)?:\/\//i.test(url)) throw new ConfigError('DATABASE_URL 必須以 postgres:// 開頭');
    db = { client: 'pg', connectionString: url };
  } else db = { client: 'sqlite', filename: env.REMIT_DB?.trim() || DEFAULTS.dbFile };

  const port =
    flags.port !== undefined
      ? intSetting({ '--port': String(flags.port) }, '--port', DEFAULTS.port, 0, 65535)
      : intSetting(env, 'PORT', DEFAULTS.port, 0, 65535);
  const secret = env.REMIT_JWT_SECRET;
  if (secret !== undefined && secret !== '') {
    const problem = jwtSecretProblem(secret, 'REMIT_JWT_SECRET', JWT_SECRET_ENV_FIX);
    if (problem) throw new ConfigError(problem);
  }

  return {
    db,
    port,
    host: flags.host || env.HOST || (db.client === 'pg' ? '0.0.0.0' : DEFAULTS.host),
    jwtSecret: secret || undefined,
    tokenTtlSeconds: intSetting(env, 'REMIT_TOKEN_TTL', DEFAULTS.tokenTtlSeconds, 60, 30 * 24 * 3600),
    bcryptCost: intSetting(env, 'REMIT_BCRYPT_COST', DEFAULTS.bcryptCost, 10, 15),
    hashing: {
      threads: intSetting(env, 'REMIT_HASH_THREADS', DEFAULT_HASHING.threads, 1, 16),
      queue: intSetting(env, 'REMIT_HASH_QUEUE', DEFAULT_HASHING.queue, 0, 10_000),
    },
    matching: {
      threads: intSetting(env, 'REMIT_MATCH_THREADS', DEFAULT_MATCHING.threads, 1, 8),
      queue: intSetting(env, 'REMIT_MATCH_QUEUE', DEFAULT_MATCHING.queue, 0, 100),
    },
    adminPassword: env.REMIT_ADMIN_PASSWORD || undefined,
    trustProxy: /^(1|true|yes)$/i.test(env.REMIT_TRUST_PROXY ?? ''),
    proxyHops: intSetting(env, 'REMIT_PROXY_HOPS', 1, 1, 10),
    title: env.REMIT_TITLE?.trim() || DEFAULTS.title,
    publicUrl: publicUrlOf(env.REMIT_PUBLIC_URL),
    publicLimits: {
      perAddressMinute: intSetting(env, 'REMIT_PUBLIC_PER_MINUTE', DEFAULT_PUBLIC_LIMITS.perAddressMinute, 1, 10_000),
      perAddressDay: intSetting(env, 'REMIT_PUBLIC_PER_DAY', DEFAULT_PUBLIC_LIMITS.perAddressDay, 1, 1_000_000),
      perLinkDay: intSetting(env, 'REMIT_PUBLIC_LINK_PER_DAY', DEFAULT_PUBLIC_LIMITS.perLinkDay, 1, 1_000_000),
    },
    backups: backupSettings(env, db, flags.backupDir),
    log: logFormatOf(env.REMIT_LOG),
  };
}
