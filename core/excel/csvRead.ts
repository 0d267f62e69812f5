/**
 * CSV read as it arrives (Node only): the text decoded chunk by chunk (UTF-8 with or without a
 * BOM; Big5 when the start of the file is not UTF-8, as Taiwanese offices save it), then cut into
 * rows by an RFC 4180 machine that keeps its state between chunks (quotes, doubled quotes,
 * newlines inside quotes). A cell written `="01234"` keeps its marks for csvDigitsValue.
 */
import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';

/** Characters in one cell, and cells in one row, that a CSV to import may hold. */
const MAX_CELL = 1_000_000;
const MAX_CELLS = 10_000;

export class CsvRows {
  private row: string[] = [];
  private cell = '';
  private quoted = false;
  /** a quote seen inside a quoted cell: either its end or the first of a doubled quote */
  private quoteSeen = false;
  private cr = false;
  private out: string[][] = [];

  constructor(private readonly sep = ',') {}

  push(text: string): string[][] {
    const sep = this.sep;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (this.cr) {
        this.cr = false;
        if (ch === '\n') continue;
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (ch === '"') {
            this.cell += '"';
            continue;
          }
          this.quoted = false;
          // fall through: the character after a closing quote is read as unquoted
        } else {
          if (ch === '"') this.quoteSeen = true;
          else this.cell += ch;
          continue;
        }
      }
      if (ch === '"' && this.cell.trim() === '') {
        this.quoted = true;
        this.cell = '';
      } else if (ch === sep) {
        this.row.push(this.cell);
        this.cell = '';
      } else if (ch === '\n' || ch === '\r') {
        this.cr = ch === '\r';
        this.endRow();
      } else this.cell += ch;
    }
    // a cell or a row this long is no payment list: stop before it fills memory
    if (this.cell.length > MAX_CELL || this.row.length > MAX_CELLS) throw new Error('csv: a cell or row too long');
    const rows = this.out;
    this.out = [];
    return rows;
  }

  end(): string[][] {
    if (this.quoted) this.quoted = false;
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

/** Big5 or UTF-8, judged on the first chunk: a BOM, or bytes that are valid UTF-8. */
function encodingOf(first: Buffer): { encoding: 'utf-8' | 'big5'; skip: number } {
  if (first.length >= 3 && first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(first, { stream: true });
    return { encoding: 'utf-8', skip: 0 };
  } catch {
    return { encoding: 'big5', skip: 0 };
  }
}

/** The rows of a CSV file, in batches as the file is read. */
export async function* readCsvRows(path: string): AsyncGenerator<string[][]> {
  let decoder: TextDecoder | null = null;
  let parser: CsvRows | null = null;
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    let bytes = chunk;
    if (!decoder) {
      const { encoding, skip } = encodingOf(chunk);
      decoder = new TextDecoder(encoding);
      bytes = chunk.subarray(skip);
    }
    const text = decoder.decode(bytes, { stream: true });
    if (!parser) {
      const head = text.slice(0, 4000);
      parser = new CsvRows((head.match(/\t/g)?.length ?? 0) > (head.match(/,/g)?.length ?? 0) ? '\t' : ',');
    }
    const rows = parser.push(text);
    if (rows.length) yield rows;
  }
  if (decoder && parser) {
    const rows = [...parser.push(decoder.decode()), ...parser.end()];
    if (rows.length) yield rows;
  }
}
