/** What a file is from its first bytes (.xlsx, .xls or CSV); every reader asks here, so they agree. */

/** A local or end-of-directory signature (an .xlsx, or an empty zip). */
export function isZip(b: Uint8Array): boolean {
  return (
    b.length >= 4 &&
    b[0] === 0x50 &&
    b[1] === 0x4b &&
    (b[2] === 0x03 || b[2] === 0x05) &&
    (b[3] === 0x04 || b[3] === 0x06)
  );
}

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
export function isOle(b: Uint8Array): boolean {
  return b.length >= 8 && OLE.every((x, i) => b[i] === x);
}

type FileKind = 'xlsx' | 'xls' | 'text' | 'binary';

/** A spreadsheet by its signature whatever its name; text when named so or when its start holds no NUL byte. */
export function sniffKind(head: Uint8Array, name = ''): FileKind {
  if (isZip(head)) return 'xlsx';
  if (isOle(head)) return 'xls';
  if (isTextName(name)) return 'text';
  return head.subarray(0, 512).includes(0) ? 'binary' : 'text';
}

/** `.csv`, or `.txt` as some banks name their exports. */
export const isTextName = (name: string) => /\.(csv|txt)$/i.test(name);
