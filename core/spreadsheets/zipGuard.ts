/**
 * Checks an .xlsx before SheetJS inflates it: SheetJS inflates every entry whole, so a zip bomb would
 * exhaust memory before any row limit applies. Where Node's zlib is at hand, real inflated sizes are
 * measured too, with a cap, so sizes that lie are caught. Runs in the browser as well.
 */

/** In total, over one workbook's entries. */
const MAX_UNZIPPED_BYTES = 200 * 1024 * 1024;
/** A real workbook has a few dozen. */
export const MAX_ZIP_ENTRIES = 10_000;
/** Real sheets compress 5 to 30 times; beyond this, a big entry is taken for a bomb. */
export const MAX_RATIO = 100;
const RATIO_FLOOR = 1024 * 1024;

type ZipVerdict = 'ok' | 'corrupt' | 'bomb';

interface ZlibLike {
  inflateRawSync(buf: Uint8Array, opts: { maxOutputLength: number }): Uint8Array;
}

function nodeZlib(): ZlibLike | null {
  try {
    const p = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    return (p?.getBuiltinModule?.('node:zlib') as ZlibLike | undefined) ?? null;
  } catch {
    return null;
  }
}

/** Its 64-bit sizes taken from the ZIP64 extra field where marked. */
interface CentralRecord {
  method: number;
  compressed: number;
  size: number;
  localOffset: number;
  nameStart: number;
  nameLength: number;
  next: number;
}

/** The central-directory record at `p`, or null when none or its ZIP64 field is missing; zipRead.ts uses it too. */
export function readCentralRecord(bytes: Uint8Array, p: number): CentralRecord | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (o: number) => view.getUint16(o, true);
  const u32 = (o: number) => view.getUint32(o, true);
  if (p + 46 > bytes.length || u32(p) !== 0x02014b50) return null;
  const method = u16(p + 10);
  let compressed = u32(p + 20);
  let size = u32(p + 24);
  const nameLength = u16(p + 28);
  const extraLength = u16(p + 30);
  const commentLength = u16(p + 32);
  let localOffset = u32(p + 42);
  // ZIP64 extra field: the 64-bit values, in this order, for those marked 0xFFFFFFFF
  if (size === 0xffffffff || compressed === 0xffffffff || localOffset === 0xffffffff) {
    let e = p + 46 + nameLength;
    const end = Math.min(e + extraLength, bytes.length);
    let found = false;
    while (e + 4 <= end) {
      const id = u16(e);
      const len = u16(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        const stop = Math.min(e + 4 + len, bytes.length);
        const next = () => {
          if (q + 8 > stop) return -1;
          const v = Number(view.getBigUint64(q, true));
          q += 8;
          return v;
        };
        if (size === 0xffffffff) size = next();
        if (compressed === 0xffffffff) compressed = next();
        if (localOffset === 0xffffffff) localOffset = next();
        found = true;
        break;
      }
      e += 4 + len;
    }
    if (!found || size < 0 || compressed < 0 || localOffset < 0) return null;
  }
  return {
    method,
    compressed,
    size,
    localOffset,
    nameStart: p + 46,
    nameLength,
    next: p + 46 + nameLength + extraLength + commentLength,
  };
}

/**
 * Where a streaming writer left sizes 0 in a local header, writes the declared sizes there (in place), so
 * SheetJS inflates into a buffer of that size rather than growing one without end.
 */
export function guardZip(bytes: Uint8Array, limits: { maxBytes?: number } = {}): ZipVerdict {
  const maxTotal = limits.maxBytes ?? MAX_UNZIPPED_BYTES;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (o: number) => view.getUint16(o, true);
  const u32 = (o: number) => view.getUint32(o, true);

  // end of central directory: 22 bytes plus a comment of at most 65 535
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (u32(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return 'corrupt';
  let count = u16(eocd + 10);
  let cdOffset = u32(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) {
    // ZIP64: the locator sits just before the end record
    const loc = eocd - 20;
    if (loc < 0 || u32(loc) !== 0x07064b50) return 'corrupt';
    const rec = Number(view.getBigUint64(loc + 8, true));
    if (rec + 56 > bytes.length || u32(rec) !== 0x06064b50) return 'corrupt';
    const n = Number(view.getBigUint64(rec + 32, true));
    if (n > MAX_ZIP_ENTRIES) return 'bomb';
    count = n;
    cdOffset = Number(view.getBigUint64(rec + 48, true));
  }
  if (count > MAX_ZIP_ENTRIES) return 'bomb';

  const zlib = nodeZlib();
  let total = 0;
  let p = cdOffset;
  for (let k = 0; k < count; k++) {
    const record = p;
    const r = readCentralRecord(bytes, record);
    if (!r) return 'corrupt';
    const { method, compressed: csz, size: usz, localOffset: local } = r;
    p = r.next;

    if (method !== 0 && method !== 8) return 'corrupt';
    if (usz > maxTotal) return 'bomb';
    total += usz;
    if (total > maxTotal) return 'bomb';
    if (usz > RATIO_FLOOR && usz > csz * MAX_RATIO) return 'bomb';

    if (local + 30 > bytes.length || u32(local) !== 0x04034b50) return 'corrupt';
    const data = local + 30 + u16(local + 26) + u16(local + 28);
    if (data + csz > bytes.length) return 'corrupt';
    if (method === 0) {
      if (csz !== usz) return 'corrupt';
      continue;
    }
    if (zlib) {
      // inflated with a cap just above the declared size: a stream that lies is stopped at the cap
      let real: number;
      try {
        real = zlib.inflateRawSync(bytes.subarray(data, data + csz), { maxOutputLength: Math.max(1, usz + 1) }).length;
      } catch (err) {
        return (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'bomb' : 'corrupt';
      }
      if (real !== usz) return real > usz ? 'bomb' : 'corrupt';
    }
    const flags = u16(local + 6);
    if (flags & 0x08 && u32(local + 18) === 0 && u32(local + 22) === 0 && u16(local + 28) === 0 && usz < 0xffffffff) {
      view.setUint16(local + 6, flags & ~0x08, true);
      view.setUint32(local + 14, u32(record + 16), true);
      view.setUint32(local + 18, csz, true);
      view.setUint32(local + 22, usz, true);
    }
  }
  return 'ok';
}
