/**
 * The one CSV grammar of remit's readers (bank statements and payment imports), whole or
 * streamed: RFC 4180 (quotes, doubled quotes, separators and newlines inside quotes, CRLF or LF),
 * a comma or a tab as the separator, and the cells spreadsheet programs and banks write as
 * `="0001234"` so a number keeps its zeros: such a cell is ONE cell, separators inside included
 * (`="01,234"`), and keeps its marks until `formulaText` reads it.
 */

/** Characters in one cell, and cells in one row, that a CSV to import may hold (the streamed reader's guard). */
const MAX_CSV_CELL = 1_000_000;
const MAX_CSV_CELLS = 10_000;

/** A cell or a row longer than the limits: no spreadsheet a person made, so the file is refused. */
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

/** The separator a CSV uses, judged on its start: a tab when tabs outnumber commas, else a comma. */
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

/**
 * Rows of CSV text fed in pieces of any size: the machine keeps its state between pieces (inside
 * quotes, a quote just seen, a CR waiting for its LF), so a file is read line by line in flat memory.
 */
export class CsvRows {
  private row: string[] = [];
  private cell = '';
  private state = PLAIN;
  private cr = false;
  private out: string[][] = [];
  private readonly sep: number;
  private readonly limits: boolean;

  /** `limits`: refuse (CsvTooLong) a cell or a row past MAX_CSV_CELL / MAX_CSV_CELLS */
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
          // a doubled quote is one quote of the text
          this.cell += '"';
          this.state = st === QUOTE_SEEN ? QUOTED : FORMULA;
          i++;
          continue;
        }
        if (st === FORMULA_QUOTE_SEEN) this.cell += '"';
        this.state = PLAIN;
        // the character after a closing quote is read as unquoted
      }
      // unquoted: take everything up to the next separator, line end or quote at once
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

  /** The last row, when the text does not end with a newline; an open quote is closed. */
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

/** The rows of a whole CSV text (separator guessed from its start). */
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
