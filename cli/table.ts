/** Plain-text tables for a terminal, padded by display width: a CJK character takes two columns. */

// East Asian Wide and Fullwidth ranges (Unicode UAX #11), enough for Chinese text and symbols.
const WIDE: Array<[number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];
const ZERO: Array<[number, number]> = [
  [0x0300, 0x036f],
  [0x200b, 0x200f],
  [0xfe00, 0xfe0f],
];
const within = (cp: number, ranges: Array<[number, number]>) => ranges.some(([a, b]) => cp >= a && cp <= b);

export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (within(cp, ZERO)) continue;
    width += within(cp, WIDE) ? 2 : 1;
  }
  return width;
}

/** Control characters (newlines, escape sequences) in data would break the layout or the terminal. */
export function clean(text: string): string {
  return terminalText(text).replace(/\n/g, ' ');
}

/** For all terminal output, newlines kept: text from a file could carry escape sequences that act on the terminal. */
export function terminalText(text: string): string {
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, ' ');
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

interface TableOptions {
  right?: number[];
}

/** A header row, a rule, and the rows; two spaces between columns, no trailing spaces. */
export function renderTable(headers: string[], rows: Array<Array<string | number>>, opts: TableOptions = {}): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => clean(String(c))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => displayWidth(r[i] ?? ''))));
  const line = (r: string[]) =>
    r
      .map((c, i) => pad(c ?? '', widths[i], opts.right?.includes(i) ? 'right' : 'left'))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n') + '\n';
}

/** Label and value pairs, the labels padded to one width. */
export function renderPairs(pairs: Array<[string, string | number]>): string {
  const width = Math.max(...pairs.map(([k]) => displayWidth(k)));
  return pairs.map(([k, v]) => `${pad(k, width, 'left')}  ${clean(String(v))}`).join('\n') + '\n';
}
