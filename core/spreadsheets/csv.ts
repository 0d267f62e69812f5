/**
 * The one CSV grammar of remit's readers, whole or streamed: RFC 4180 plus the `="0001234"` cells banks
 * write, which are ONE cell even with separators inside (`="01,234"`), where an RFC 4180 parser splits.
 */

/** Against hostile files: characters in one cell, cells in one row. */
const MAX_CSV_CELL = 1_000_000;
const MAX_CSV_CELLS = 10_000;

export class CsvTooLong extends Error {
  constructor() {
    super('csv: a cell or row too long');
  }
}

const PLAIN = 0;
const QUOTED = 1;
/** a quote seen inside a quoted cell: either its end or the first of a doubled quote */
const QUOTE_SEEN = 2;
const FORMULA = 3;
const FORMULA_QUOTE_SEEN = 4;

/** A tab when tabs outnumber commas at the start, else a comma. */
export function guessSeparator(head: string): ',' | '\t' {
  const sample = head.length > 4000 ? head.slice(0, 4000) : head;
  let tabs = 0;
  let commas = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 9) tabs++;
    else if (c === 44) commas++;
  }
  return tabs > commas ? '\t' : ',';
}

/** Rows of CSV text fed in pieces of any size; the state carries over between pieces, so memory stays flat. */
export class CsvRows {
  private row: string[] = [];
  private cell = '';
  private state = PLAIN;
  private cr = false;
  private out: string[][] = [];
  private readonly sep: number;
  private readonly limits: boolean;

  /** `limits`: refuse (CsvTooLong) a cell or a row past the limits */
  constructor(sep: string = ',', opts: { limits?: boolean } = {}) {
    this.sep = sep.charCodeAt(0);
    this.limits = opts.limits ?? true;
  }

  push(text: string): string[][] {
    const sep = this.sep;
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (this.cr) {
        this.cr = false;
        if (text.charCodeAt(i) === 10) {
          i++;
          continue;
        }
      }
      const st = this.state;
      if (st === QUOTED || st === FORMULA) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          this.cell += text.slice(i);
          break;
        }
        if (q > i) this.cell += text.slice(i, q);
        i = q + 1;
        this.state = st === QUOTED ? QUOTE_SEEN : FORMULA_QUOTE_SEEN;
        continue;
      }
      if (st === QUOTE_SEEN || st === FORMULA_QUOTE_SEEN) {
        if (text.charCodeAt(i) === 34) {
          this.cell += '"';
          this.state = st === QUOTE_SEEN ? QUOTED : FORMULA;
          i++;
          continue;
        }
        if (st === FORMULA_QUOTE_SEEN) this.cell += '"';
        this.state = PLAIN;
        // the character after a closing quote is read as unquoted
      }
      let j = i;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === sep || c === 10 || c === 13 || c === 34) break;
        j++;
      }
      if (j > i) this.cell += text.slice(i, j);
      if (j >= n) break;
      const c = text.charCodeAt(j);
      i = j + 1;
      if (c === 34) {
        const before = this.cell.trim();
        if (before === '') {
          this.state = QUOTED;
          this.cell = '';
        } else if (before === '=') {
          // ="0001234": one cell, its marks kept for formulaText
          this.state = FORMULA;
          this.cell = '="';
        } else this.cell += '"';
      } else if (c === sep) {
        this.row.push(this.cell);
        this.cell = '';
      } else {
        this.cr = c === 13;
        this.endRow();
      }
    }
    if (this.limits && (this.cell.length > MAX_CSV_CELL || this.row.length > MAX_CSV_CELLS)) throw new CsvTooLong();
    const rows = this.out;
    this.out = [];
    return rows;
  }

  /** The last row, when the text does not end with a newline. */
  end(): string[][] {
    if (this.state === FORMULA_QUOTE_SEEN) this.cell += '"';
    this.state = PLAIN;
    if (this.cell !== '' || this.row.length) this.endRow();
    const rows = this.out;
    this.out = [];
    return rows;
  }

  private endRow() {
    this.row.push(this.cell);
    this.cell = '';
    this.out.push(this.row);
    this.row = [];
  }
}

export function parseCsv(text: string): string[][] {
  const parser = new CsvRows(guessSeparator(text), { limits: false });
  return [...parser.push(text), ...parser.end()];
}

const FORMULA_TEXT = /^="(.*)"$/s;
/** The text a `="…"` cell shows (`="01,234"` → `01,234`); other text unchanged. */
export function formulaText(cell: string): string {
  if (cell.length < 3 || !cell.includes('="')) return cell;
  const m = FORMULA_TEXT.exec(cell.trim());
  return m ? m[1] : cell;
}
