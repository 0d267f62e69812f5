/**
 * Hand-written zip containers for hostile-spreadsheet tests: a real .xlsx layout whose sheet is
 * a deflate stream expanding far beyond what the file's size suggests, with honest or lying sizes.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** the raw deflate stream (method 8) */
  deflated: Buffer;
  /** the real uncompressed size */
  size: number;
  crc: number;
  /** the size written in the headers, when it should lie (default: the real size) */
  declaredSize?: number;
  /** sizes 0 in the local header and a data descriptor after the data (flag 8), as streaming writers do */
  descriptor?: boolean;
}

export function entry(name: string, text: string | Buffer): ZipEntry {
  const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return { name, deflated: deflateRawSync(data), size: data.length, crc: crc32(data) };
}

/**
 * A sheet whose XML is `prefix + middle × times + suffix`, deflated without ever holding it:
 * each part is compressed on its own with a full flush (no final block), so the compressed middle
 * can simply be repeated, and an empty final block ends the stream.
 */
export function repeatedEntry(name: string, prefix: string, middle: string, times: number, suffix: string): ZipEntry {
  const part = (s: string) => deflateRawSync(Buffer.from(s, 'utf8'), { finishFlush: constants.Z_FULL_FLUSH, level: 9 });
  // 1 MB of the middle per compressed block keeps the ratio near deflate's best (about 1000:1).
  const per = Math.max(1, Math.floor((1 << 20) / Buffer.byteLength(middle)));
  const block = part(middle.repeat(per));
  const blocks = Math.floor(times / per);
  const rest = times - blocks * per;
  const chunks = [
    part(prefix),
    ...Array.from({ length: blocks }, () => block),
    ...(rest ? [part(middle.repeat(rest))] : []),
    part(suffix),
    deflateRawSync(Buffer.alloc(0)),
  ];
  const size = Buffer.byteLength(prefix) + Buffer.byteLength(middle) * times + Buffer.byteLength(suffix);
  return { name, deflated: Buffer.concat(chunks), size, crc: 0 };
}

function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const declared = e.declaredSize ?? e.size;
    const flags = e.descriptor ? 0x0808 : 0x0800;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(e.descriptor ? 0 : e.crc >>> 0, 14);
    local.writeUInt32LE(e.descriptor ? 0 : e.deflated.length, 18);
    local.writeUInt32LE(e.descriptor ? 0 : Math.min(declared, 0xffffffff), 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const parts = [local, name, e.deflated];
    if (e.descriptor) {
      const dd = Buffer.alloc(16);
      dd.writeUInt32LE(0x08074b50, 0);
      dd.writeUInt32LE(e.crc >>> 0, 4);
      dd.writeUInt32LE(e.deflated.length, 8);
      dd.writeUInt32LE(Math.min(declared, 0xffffffff), 12);
      parts.push(dd);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.deflated.length, 20);
    central.writeUInt32LE(Math.min(declared, 0xffffffff), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    const all = Buffer.concat(parts);
    locals.push(all);
    offset += all.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const CT = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WB = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="匯款記錄" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WB_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;
export const SHEET_PREFIX = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
export const SHEET_SUFFIX = `</sheetData></worksheet>`;

/** A minimal .xlsx around the given sheet entry (named xl/worksheets/sheet1.xml). */
export function xlsxWith(sheet: ZipEntry): Buffer {
  return zip([
    entry('[Content_Types].xml', CT),
    entry('_rels/.rels', RELS),
    entry('xl/workbook.xml', WB),
    entry('xl/_rels/workbook.xml.rels', WB_RELS),
    sheet,
  ]);
}
