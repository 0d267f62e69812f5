/**
 * Reads an .xlsx zip entry by entry without loading it (Node only), with zipGuard.ts's zip-bomb limits
 * applied to the stream itself: entry count, declared size, workbook total, ratio so far.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { MAX_RATIO, MAX_ZIP_ENTRIES, readCentralRecord } from './zipGuard.js';

/** Streamed, this costs time only: 1 048 576 rows of our export inflate to about 350 MB, long notes to more. */
const MAX_STREAM_UNZIPPED_BYTES = 4 * 1024 * 1024 * 1024;
const RATIO_FLOOR = 1024 * 1024;

export class ZipReadError extends Error {
  constructor(
    readonly kind: 'bomb' | 'corrupt',
    detail: string,
  ) {
    super(`${kind}: ${detail}`);
  }
}

export interface ZipEntry {
  name: string;
  method: number;
  compressed: number;
  size: number;
  localOffset: number;
}

const corrupt = (detail: string) => new ZipReadError('corrupt', detail);
const bomb = (detail: string) => new ZipReadError('bomb', detail);

export async function readZipDirectory(path: string): Promise<Map<string, ZipEntry>> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const tailLength = Math.min(size, 22 + 0xffff + 20);
    const tail = Buffer.alloc(tailLength);
    await fh.read(tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw corrupt('no end of central directory');
    let count = tail.readUInt16LE(eocd + 10);
    let cdSize = tail.readUInt32LE(eocd + 12);
    let cdOffset = tail.readUInt32LE(eocd + 16);
    if (count === 0xffff || cdOffset === 0xffffffff || cdSize === 0xffffffff) {
      const loc = eocd - 20;
      if (loc < 0 || tail.readUInt32LE(loc) !== 0x07064b50) throw corrupt('zip64 locator');
      const recAt = Number(tail.readBigUInt64LE(loc + 8));
      const rec = Buffer.alloc(56);
      await fh.read(rec, 0, 56, recAt);
      if (rec.readUInt32LE(0) !== 0x06064b50) throw corrupt('zip64 record');
      count = Number(rec.readBigUInt64LE(32));
      cdSize = Number(rec.readBigUInt64LE(40));
      cdOffset = Number(rec.readBigUInt64LE(48));
    }
    if (count > MAX_ZIP_ENTRIES) throw bomb(`${count} entries`);
    if (cdOffset + cdSize > size || cdSize > count * (46 + 3 * 0xffff)) throw corrupt('central directory bounds');
    const cd = Buffer.alloc(cdSize);
    await fh.read(cd, 0, cdSize, cdOffset);
    const entries = new Map<string, ZipEntry>();
    let p = 0;
    for (let k = 0; k < count; k++) {
      const r = readCentralRecord(cd, p);
      if (!r) throw corrupt('central directory entry');
      const { method, compressed, size: usize, localOffset } = r;
      const name = cd.toString('utf8', r.nameStart, r.nameStart + r.nameLength);
      p = r.next;
      if (method !== 0 && method !== 8) throw corrupt(`method ${method}`);
      if (method === 0 && compressed !== usize) throw corrupt('stored sizes differ');
      if (localOffset + 30 + compressed > size) throw corrupt('entry bounds');
      if (usize > RATIO_FLOOR && usize > compressed * MAX_RATIO)
        throw bomb(`${name} declares ratio ${Math.round(usize / Math.max(1, compressed))}`);
      entries.set(name.replace(/^\/+/, ''), { name, method, compressed, size: usize, localOffset });
    }
    return entries;
  } finally {
    await fh.close();
  }
}

/** Shared by every entry read from one file. */
export interface InflateBudget {
  left: number;
}

export const inflateBudget = (bytes = MAX_STREAM_UNZIPPED_BYTES): InflateBudget => ({ left: bytes });

/** One entry's bytes as they inflate; throws 'bomb' the moment it passes its declared size, the budget or the ratio. */
export async function* readZipEntry(path: string, entry: ZipEntry, budget: InflateBudget): AsyncGenerator<Buffer> {
  const fh = await open(path, 'r');
  const head = Buffer.alloc(30);
  try {
    await fh.read(head, 0, 30, entry.localOffset);
  } finally {
    await fh.close();
  }
  if (head.readUInt32LE(0) !== 0x04034b50) throw corrupt('local header');
  const start = entry.localOffset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
  if (entry.compressed === 0) {
    if (entry.size !== 0) throw corrupt('empty entry declares bytes');
    return;
  }
  const source = createReadStream(path, { start, end: start + entry.compressed - 1, highWaterMark: 256 * 1024 });
  let read = 0;
  let out = 0;
  const count = (chunk: Buffer) => {
    out += chunk.length;
    budget.left -= chunk.length;
    if (out > entry.size) throw bomb(`${entry.name} inflates past its declared ${entry.size} bytes`);
    if (budget.left < 0) throw bomb('workbook inflates past the limit');
    if (out > RATIO_FLOOR && out > read * MAX_RATIO) throw bomb(`${entry.name} ratio`);
  };
  if (entry.method === 0) {
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        read += chunk.length;
        count(chunk);
        yield chunk;
      }
    } finally {
      source.destroy();
    }
    if (out !== entry.size) throw corrupt('stored entry short');
    return;
  }
  const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
  source.on('data', (c: string | Buffer) => (read += c.length));
  source.on('error', (err) => inflate.destroy(err));
  source.pipe(inflate);
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      count(chunk);
      yield chunk;
    }
  } catch (err) {
    if (err instanceof ZipReadError) throw err;
    throw corrupt(`inflate: ${(err as Error).message}`);
  } finally {
    source.unpipe(inflate);
    source.destroy();
    inflate.destroy();
  }
  if (out !== entry.size) throw corrupt(`${entry.name} inflated to ${out}, declared ${entry.size}`);
}
