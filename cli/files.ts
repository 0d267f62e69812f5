import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fchmodSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConflictError, MAX_IMPORT_BYTES, ValidationError } from '../core/index.js';
import { problem } from '../core/errors.js';
import { DataError } from './errors.js';
import { FILES } from './messages.js';

/** A file the system refused to write, as one sentence naming the path and why (exit 1); other errors pass as is. */
export function fileWriteError(path: string, err: unknown): unknown {
  const e = err as { code?: string; syscall?: string };
  if (!e?.syscall || !e.code) return err;
  // `-o out/` names a folder to write into
  const dir = /[\\/]$/.test(path) ? resolve(path) : dirname(resolve(path));
  let code = e.code === 'ENOENT' && existsSync(dir) ? 'ENOENT_IN_DIR' : e.code;
  let named = dir;
  if (code === 'ENOTDIR') {
    // the part of the path that is a file; none: the path itself names a folder (`-o out/`)
    const file = ancestors(dir).find((d) => existsSync(d) && !statSync(d).isDirectory());
    if (file) named = file;
    else code = 'EISDIR';
  }
  const reason = FILES.writeReasons[code]?.(named) ?? FILES.otherReason(e.code);
  return new DataError(FILES.cannotWrite(path, reason));
}

/** A folder and the folders above it, root last. */
function ancestors(dir: string): string[] {
  const out = [dir];
  while (dirname(out[out.length - 1]) !== out[out.length - 1]) out.push(dirname(out[out.length - 1]));
  return out;
}

const tmpBeside = (path: string) => `${path}.${randomBytes(4).toString('hex')}.tmp`;

/** Writes a file whole or not at all (a temporary file, then renamed): a job killed halfway leaves no half file. */
export function writeFileAtomic(path: string, data: Uint8Array | string, mode = 0o644): void {
  try {
    writeFileAtomicRaw(path, data, mode);
  } catch (err) {
    throw fileWriteError(path, err);
  }
}

function writeFileAtomicRaw(path: string, data: Uint8Array | string, mode: number): void {
  const tmp = tmpBeside(path);
  const fd = openSync(tmp, 'wx', mode);
  try {
    fchmodSync(fd, mode);
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, path);
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
      /* already closed */
    }
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * The same for a stream (a large export). The owner's only (0600) by default: an export holds every payment it selects.
 * The mode is set whatever the umask, and the rename replaces an existing file (and its mode).
 */
export async function writeStreamAtomic(
  path: string,
  body: AsyncIterable<Uint8Array | string>,
  mode = 0o600,
): Promise<void> {
  const tmp = tmpBeside(path);
  const fh = await open(tmp, 'wx', mode).catch((err) => {
    throw fileWriteError(path, err);
  });
  try {
    await fh.chmod(mode);
    let pending: Buffer[] = [];
    let size = 0;
    const flush = async () => {
      if (size) await fh.write(pending.length === 1 ? pending[0] : Buffer.concat(pending, size));
      pending = [];
      size = 0;
    };
    for await (const chunk of body) {
      const b =
        typeof chunk === 'string'
          ? Buffer.from(chunk, 'utf8')
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      pending.push(b);
      size += b.length;
      if (size >= 1 << 20) await flush();
    }
    await flush();
    await fh.sync();
    await fh.close();
    await rename(tmp, path);
  } catch (err) {
    await fh.close().catch(() => {});
    await rm(tmp, { force: true });
    throw fileWriteError(path, err);
  }
}

/** Refuses to replace an existing file unless --force was given, with the words and exit code of `remit backup`. */
export function refuseOverwrite(path: string, force: boolean | undefined): void {
  if (!force && existsSync(path)) throw new ConflictError(problem('file_exists', { path }));
}

/** The size of the file at `path`; a missing path or one that is not a file is bad data (exit 1). */
export function assertReadableFile(path: string): number {
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new DataError(FILES.notAFile(path));
    return st.size;
  } catch (err) {
    if (err instanceof DataError) throw err;
    throw new DataError(FILES.notFound(path));
  }
}

/** Reads a file whole (a bank statement), refusing a missing or oversized one before loading it. */
export async function readImportFile(path: string): Promise<Uint8Array> {
  const size = assertReadableFile(path);
  if (size > MAX_IMPORT_BYTES)
    throw ValidationError.single('file', 'import_file_too_large', { limit_mb: MAX_IMPORT_BYTES / 1024 / 1024 });
  try {
    return new Uint8Array(await readFile(path));
  } catch {
    throw ValidationError.single('file', 'import_read_failed');
  }
}
