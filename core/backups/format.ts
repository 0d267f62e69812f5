// One backup format for both databases and every edge: gzip of a two-line header (magic and version, then
// JSON: when, from which database, the schema's migrations, the counts, the payload's length and SHA-256)
// followed by the payload, a SQLite database file. `gunzip -c x.backup.gz | tail -n +3 > x.sqlite` opens it.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip, constants as zlib } from 'node:zlib';
import { ValidationError } from '../errors.js';
import { refusal } from './refusals.js';
import { requireFreeSpace } from './folder.js';
import { dirname } from 'node:path';

const BACKUP_MAGIC = 'remit-backup';
const BACKUP_FORMAT = 1;
/** the header's JSON line at most: a longer one is not ours */
const MAX_HEADER_BYTES = 64 * 1024;
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export interface BackupCounts {
  payments: number;
  stores: number;
  users: number;
  audit_log: number;
}

export interface BackupHeader {
  format: number;
  /** ISO instant */
  taken_at: string;
  database: 'sqlite' | 'postgres';
  migrations: string[];
  counts: BackupCounts;
  payload_bytes: number;
  payload_sha256: string;
}

async function sha256Of(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Writes `payload` with its header into `target`, a new file (0600 from its first byte), synced to disk. */
export async function writeWrapped(
  payload: string,
  about: Pick<BackupHeader, 'taken_at' | 'database' | 'migrations' | 'counts'>,
  target: string,
): Promise<BackupHeader> {
  const { sha256, bytes } = await sha256Of(payload);
  const header: BackupHeader = { format: BACKUP_FORMAT, ...about, payload_bytes: bytes, payload_sha256: sha256 };
  await pipeline(
    async function* () {
      yield Buffer.from(`${BACKUP_MAGIC} ${BACKUP_FORMAT}\n${JSON.stringify(header)}\n`, 'utf8');
      yield* createReadStream(payload) as AsyncIterable<Buffer>;
    },
    // fast: the pre-import backup sits in front of every import
    createGzip({ level: zlib.Z_BEST_SPEED }),
    createWriteStream(target, { flags: 'wx', mode: 0o600 }),
  );
  // on the disk before anyone counts on it
  const handle = await open(target, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  return header;
}

/** What a file is by its first bytes. */
export function sniff(file: string): 'wrapped' | 'sqlite' | 'other' {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    if (n >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'wrapped';
    return n === 16 && head.equals(SQLITE_MAGIC) ? 'sqlite' : 'other';
  } finally {
    closeSync(fd);
  }
}

const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function parseHeader(first: string, second: string, shownAs: string): BackupHeader {
  const m = /^remit-backup (\d{1,6})$/.exec(first);
  if (!m) throw refusal('backup_not_backup', { path: shownAs });
  if (Number(m[1]) > BACKUP_FORMAT) throw refusal('backup_format_newer', { version: Number(m[1]) });
  let h: Partial<BackupHeader>;
  try {
    h = JSON.parse(second) as Partial<BackupHeader>;
  } catch {
    throw refusal('backup_header_invalid');
  }
  const c = h?.counts as Partial<BackupCounts> | undefined;
  const ok =
    h &&
    typeof h.taken_at === 'string' &&
    !Number.isNaN(Date.parse(h.taken_at)) &&
    (h.database === 'sqlite' || h.database === 'postgres') &&
    Array.isArray(h.migrations) &&
    h.migrations.length <= 10_000 &&
    h.migrations.every((x) => typeof x === 'string' && x.length <= 255) &&
    c &&
    isCount(c.payments) &&
    isCount(c.stores) &&
    isCount(c.users) &&
    isCount(c.audit_log) &&
    isCount(h.payload_bytes) &&
    typeof h.payload_sha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(h.payload_sha256);
  if (!ok) throw refusal('backup_header_invalid');
  return h as BackupHeader;
}

/** zlib's own complaints, said as a person reads them: cut short, or not a whole gzip stream. */
function unzipRefusal(err: unknown): unknown {
  if (err instanceof ValidationError) return err;
  const code = (err as { code?: string })?.code;
  if (code === 'Z_BUF_ERROR') return refusal('backup_truncated');
  if (typeof code === 'string' && code.startsWith('Z_')) return refusal('backup_damaged');
  return err;
}

/**
 * Unwraps `file` into `payloadOut` (a new file): refuses a header that is not ours or newer, a payload over
 * `maxPayloadBytes` or over what the header declares (stopped as it is reached), a truncated or damaged
 * stream, a checksum that does not match, and too little disk for the payload (checked before writing).
 */
export async function unwrap(
  file: string,
  payloadOut: string,
  opts: { shownAs: string; maxPayloadBytes: number; keepFree?: number },
): Promise<BackupHeader> {
  let header: BackupHeader | null = null;
  let head = Buffer.alloc(0);
  let written = 0;
  const hash = createHash('sha256');
  const out = await open(payloadOut, 'wx', 0o600);
  const take = async (chunk: Buffer) => {
    if (header) {
      written += chunk.length;
      if (written > header.payload_bytes) throw refusal('backup_tampered');
      hash.update(chunk);
      await out.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const first = head.indexOf(10);
    const second = first < 0 ? -1 : head.indexOf(10, first + 1);
    if (second < 0) {
      if (head.length > MAX_HEADER_BYTES) {
        const line = head.subarray(0, Math.max(0, first)).toString('latin1');
        if (/^remit-backup /.test(line)) throw refusal('backup_header_invalid');
        throw refusal('backup_not_backup', { path: opts.shownAs });
      }
      return;
    }
    header = parseHeader(
      head.subarray(0, first).toString('utf8'),
      head.subarray(first + 1, second).toString('utf8'),
      opts.shownAs,
    );
    if (header.payload_bytes > opts.maxPayloadBytes)
      throw refusal('backup_too_large', { limit_mb: Math.floor(opts.maxPayloadBytes / (1024 * 1024)) });
    await requireFreeSpace(dirname(payloadOut), header.payload_bytes, opts.keepFree);
    const rest = head.subarray(second + 1);
    head = Buffer.alloc(0);
    if (rest.length) await take(rest);
  };
  // what stopped the reading: the stream then ends with an AbortError of its own
  let stopped: unknown = null;
  try {
    await pipeline(createReadStream(file), createGunzip(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source)
        await take(chunk).catch((err) => {
          stopped = err;
          throw err;
        });
    });
  } catch (err) {
    throw stopped ?? unzipRefusal(err);
  } finally {
    await out.close();
  }
  const h = header as BackupHeader | null;
  if (!h && head.length) throw refusal('backup_truncated');
  if (!h) throw refusal('backup_not_backup', { path: opts.shownAs });
  if (written < h.payload_bytes) throw refusal('backup_truncated');
  if (hash.digest('hex') !== h.payload_sha256) throw refusal('backup_checksum');
  return h;
}
