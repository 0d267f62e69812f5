/**
 * A zip written as it goes (Node only), so an .xlsx of a million rows costs time, not memory: each entry
 * deflated as it arrives, sizes in a data descriptor after it. No ZIP64: an entry must stay under 4 GiB.
 */
import { constants, crc32, createDeflateRaw } from 'node:zlib';

type ZipSource = string | Uint8Array | AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

const LIMIT = 0xffffffff;
/** 1980-01-01, the zip epoch: a fixed date keeps the bytes of a file repeatable. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
/** bit 3: sizes and CRC in a data descriptor; bit 11: names in UTF-8 */
const FLAGS = 0x0008 | 0x0800;

function localHeader(name: Buffer): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(FLAGS, 6);
  h.writeUInt16LE(8, 8);
  h.writeUInt16LE(DOS_TIME, 10);
  h.writeUInt16LE(DOS_DATE, 12);
  // CRC and sizes (14..25) stay 0: they follow in the descriptor
  h.writeUInt16LE(name.length, 26);
  h.writeUInt16LE(0, 28);
  return Buffer.concat([h, name]);
}

function descriptor(w: Written): Buffer {
  const d = Buffer.alloc(16);
  d.writeUInt32LE(0x08074b50, 0);
  d.writeUInt32LE(w.crc >>> 0, 4);
  d.writeUInt32LE(w.compressed, 8);
  d.writeUInt32LE(w.size, 12);
  return d;
}

function centralDirectory(entries: Written[], start: number): Buffer {
  const parts: Buffer[] = [];
  let length = 0;
  for (const w of entries) {
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(20, 6);
    h.writeUInt16LE(FLAGS, 8);
    h.writeUInt16LE(8, 10);
    h.writeUInt16LE(DOS_TIME, 12);
    h.writeUInt16LE(DOS_DATE, 14);
    h.writeUInt32LE(w.crc >>> 0, 16);
    h.writeUInt32LE(w.compressed, 20);
    h.writeUInt32LE(w.size, 24);
    h.writeUInt16LE(w.name.length, 28);
    h.writeUInt32LE(w.offset, 42);
    parts.push(h, w.name);
    length += h.length + w.name.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(length, 12);
  end.writeUInt32LE(start, 16);
  parts.push(end);
  return Buffer.concat(parts);
}

function isIterable(s: ZipSource): s is Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array> {
  return typeof s !== 'string' && !(s instanceof Uint8Array);
}

async function* deflateEntry(source: ZipSource, w: Written): AsyncGenerator<Buffer> {
  // level 3, not the default 6: nearly as small and much faster, so the XML writer need not wait for it
  const deflate = createDeflateRaw({ level: 3, memLevel: 9, strategy: constants.Z_DEFAULT_STRATEGY });
  const out: Buffer[] = [];
  let failed: Error | null = null;
  let ended = false;
  let wake: (() => void) | null = null;
  const signal = () => {
    const w2 = wake;
    wake = null;
    w2?.();
  };
  deflate.on('data', (b: Buffer) => {
    out.push(b);
    signal();
  });
  deflate.on('error', (e: Error) => {
    failed = e;
    signal();
  });
  deflate.on('end', () => {
    ended = true;
    signal();
  });
  const drain = function* () {
    while (out.length) {
      const b = out.shift()!;
      w.compressed += b.length;
      yield b;
    }
  };
  const feed = async (chunk: string | Uint8Array) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (buf.length === 0) return;
    w.crc = crc32(buf, w.crc);
    w.size += buf.length;
    if (w.size > LIMIT) throw new Error('zip entry over 4 GiB');
    if (!deflate.write(buf)) await new Promise<void>((resolve) => deflate.once('drain', resolve));
  };
  try {
    if (isIterable(source)) {
      for await (const chunk of source) {
        await feed(chunk);
        if (failed) throw failed;
        yield* drain();
      }
    } else await feed(source);
    deflate.end();
    while (!ended) {
      if (failed) throw failed;
      yield* drain();
      if (!ended) await new Promise<void>((resolve) => (wake = resolve));
    }
    if (failed) throw failed;
    yield* drain();
  } finally {
    if (!ended) deflate.destroy();
  }
}

export async function* zipStream(entries: Iterable<{ name: string; data: ZipSource }>): AsyncGenerator<Buffer> {
  const written: Written[] = [];
  let offset = 0;
  for (const e of entries) {
    const w: Written = { name: Buffer.from(e.name, 'utf8'), crc: 0, compressed: 0, size: 0, offset };
    const head = localHeader(w.name);
    offset += head.length;
    yield head;
    for await (const b of deflateEntry(e.data, w)) yield b;
    offset += w.compressed;
    const d = descriptor(w);
    offset += d.length;
    yield d;
    if (offset > LIMIT) throw new Error('zip over 4 GiB');
    written.push(w);
  }
  yield centralDirectory(written, offset);
}
