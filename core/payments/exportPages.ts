/**
 * The payments an export writes, read from the database as fast as the database can give them:
 * in keyset pages, each page one text made by the database, so the driver
 * hands over one string a page instead of ten thousand row objects. The SQLite driver builds a
 * row object property by property, and that, with the garbage it leaves, cost more than all the
 * formatting of the file.
 *
 * A page is one line per payment, `\n` between lines, fields joined by `,`, in the order and
 * the shape their types give (core/payments/columns.ts, `pageFields`): every field is digits, a
 * uuid, a status, a method, an e-payment's sub-type (which may hold no comma: core/payments/validate.ts)
 * or empty, none holding a comma or a line end, and the note goes last as a JSON
 * string (json_quote / to_json), so whatever it holds (commas, line ends, quotes) it stays on its line.
 */
import type { Knex } from 'knex';
import { isPostgres } from '../db/connect.js';
import { pageFields, type PagedPayment, type PaymentField } from './columns.js';
import type { ServiceContext } from '../context.js';
import { filteredPaymentsQuery } from './list.js';

/** payments per page: a page is one text of about 0.5 to 1 MB */
export const EXPORT_BATCH = 10_000;
/** payments handed to the file writer at once */
const PART = 2_000;

/** A field as the page query selects it, by its type. */
function fieldSql(f: PaymentField, pg: boolean): string {
  if (f.type === 'optional text') return `coalesce(${f.name}, '')`;
  if (f.type === 'flag') return `(case when ${f.name} then 1 else 0 end)`;
  if (f.type === 'optional integer') return `coalesce(${pg ? `${f.name}::text` : f.name}, '')`;
  if (f.type === 'json text')
    return pg ? `to_json(coalesce(${f.name}, ''))::text` : `json_quote(coalesce(${f.name}, ''))`;
  return f.name;
}

function pageQuery(db: Knex, inner: Knex.QueryBuilder, full: boolean): Knex.QueryBuilder {
  const pg = isPostgres(db);
  const fields = pageFields(full).map((f) => fieldSql(f, pg));
  inner.clearSelect().select('paid_at', 'uuid', db.raw(`${fields.join(" || ',' || ")} as r`));
  // The aggregate keeps the page's order by saying it: an aggregate's order is otherwise unspecified.
  const agg = pg
    ? "string_agg(r, E'\\n' order by paid_at desc, uuid desc)"
    : 'group_concat(r, char(10) order by paid_at desc, uuid desc)';
  return db.from(inner.as('page')).select(db.raw(`${agg} as text, count(*) as n`));
}

/** A whole number written in decimal digits (maybe with a minus) from `text[from, to)`, read without a substring. */
function wholeNumber(text: string, from: number, to: number): number {
  let negative = false;
  if (text.charCodeAt(from) === 45) {
    negative = true;
    from++;
  }
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    // anything but digits (a real stored by hand, say): read as JavaScript reads it
    if (d < 0 || d > 9) return Number(text.slice(negative ? from - 1 : from, to));
    n = n * 10 + d;
  }
  return negative ? -n : n;
}

/**
 * A page's text, iterated as payments: one object, reused from line to line, numbers read
 * from the text without a substring, since a million rows of garbage cost as much as formatting them.
 */
export class PaymentPage implements Iterable<PagedPayment> {
  constructor(
    readonly text: string,
    /** the lines (payments) from `from` to `to` */
    readonly length: number,
    private readonly full: boolean,
    private readonly from = 0,
    private readonly to = text.length,
  ) {}

  /** The page cut in parts of `rows` lines (the last maybe fewer), sharing its text. */
  parts(rows: number): PaymentPage[] {
    const out: PaymentPage[] = [];
    let start = this.from;
    for (let left = this.length; left > 0; left -= rows) {
      let end = start;
      const n = Math.min(rows, left);
      for (let i = 0; i < n && end < this.to; i++) {
        end = this.text.indexOf('\n', end);
        if (end < 0 || end >= this.to) end = this.to;
        end++;
      }
      out.push(new PaymentPage(this.text, n, this.full, start, Math.min(end, this.to)));
      start = end;
    }
    return out;
  }

  /** paid_at and uuid of the last line: where the next page starts */
  last(): { paid_at: number; uuid: string } {
    const start = this.text.lastIndexOf('\n') + 1;
    const a = this.text.indexOf(',', start);
    return { paid_at: Number(this.text.slice(start, a)), uuid: this.text.slice(a + 1, this.text.indexOf(',', a + 1)) };
  }

  [Symbol.iterator](): Iterator<PagedPayment> {
    const { text, to } = this;
    const { read, note } = lineReader(this.full);
    const p: PagedPayment = {
      paid_at: 0,
      uuid: '',
      last_five: '',
      amount: 0,
      store_id: 0,
      status: '未確認',
      note: '',
      noteJson: '""',
      created_by: null,
      created_at: 0,
      updated_at: 0,
    };
    const fill = p as unknown as Record<string, unknown>;
    for (const f of pageFields(this.full)) if (!(f.name in p)) fill[f.name] = '';
    const result: IteratorResult<PagedPayment> = { done: false, value: p };
    let at = this.from;
    return {
      next() {
        if (at >= to) return { done: true, value: undefined };
        at = read(text, at, p, wholeNumber);
        let end = text.indexOf('\n', at);
        if (end < 0 || end > to) end = to;
        if (end - at === 2) {
          fill[note] = '';
          p.noteJson = '""';
        } else {
          const q = text.slice(at, end);
          p.noteJson = q;
          // Most notes hold nothing JSON escapes: the text between the quotes is the note.
          fill[note] = q.indexOf('\\') < 0 ? q.slice(1, -1) : (JSON.parse(q) as string);
        }
        at = end + 1;
        return result;
      },
    };
  }
}

type LineReader = (
  text: string,
  at: number,
  p: PagedPayment,
  wholeNumber: (text: string, from: number, to: number) => number,
) => number;

/**
 * The reader of a line's fields before the note, compiled from pageFields: each field read as its
 * type says, straight into its property, as a reader written out by hand would (a loop over the
 * fields, storing by name, cost half as much again). It answers where the note begins.
 */
function lineReader(full: boolean): { read: LineReader; note: string } {
  const fields = pageFields(full);
  const body = fields.slice(0, -1).map((f) => {
    const prop = `p[${JSON.stringify(f.name)}]`;
    const field = f.type === 'text' || f.type === 'optional text' ? 'text.slice(at, e)' : 'wholeNumber(text, at, e)';
    const read = `e = text.indexOf(',', at); ${prop} = ${field}; at = e + 1;`;
    // an optional field is empty (`,` at once) or digits
    return f.type === 'optional integer'
      ? `if (text.charCodeAt(at) === 44) { ${prop} = null; at++; } else { ${read} }`
      : read;
  });
  const read = new Function('text', 'at', 'p', 'wholeNumber', `let e; ${body.join('\n')} return at;`) as LineReader;
  return { read, note: fields[fields.length - 1].name };
}

/**
 * The payments a filter selects, newest first, page by page: each page starts after the last
 * (paid_at, uuid) of the one before, so every page is an index range read, on SQLite and
 * PostgreSQL alike. The next page is asked for before this one is written, so the database reads
 * while the file is formatted: two pages in memory at most. `full` adds created_by, created_at
 * and updated_at (the JSON export).
 */
export async function* paymentPages(
  ctx: ServiceContext,
  filter: Record<string, unknown>,
  full: boolean,
): AsyncGenerator<PaymentPage> {
  const page = async (after: { paid_at: number; uuid: string } | null): Promise<PaymentPage> => {
    const { query } = filteredPaymentsQuery(ctx, filter);
    query.clearOrder();
    // A row value, not `paid_at < ? or (paid_at = ? and …)`: SQLite reads the OR form as a range on
    // paid_at alone and walks ever more index entries a page (5.3 s against 1.6 s at 1 000 000 rows).
    if (after) query.whereRaw('(paid_at, uuid) < (?, ?)', [after.paid_at, after.uuid]);
    query.orderBy('paid_at', 'desc').orderBy('uuid', 'desc').limit(EXPORT_BATCH);
    const got = (await pageQuery(ctx.db, query, full).first()) as
      | { text: string | null; n: number | string }
      | undefined;
    return new PaymentPage(got?.text ?? '', Number(got?.n ?? 0), full);
  };
  let next: Promise<PaymentPage> | null = page(null);
  try {
    while (next) {
      const current: PaymentPage = await next;
      next = null;
      if (current.length === 0) return;
      if (current.length === EXPORT_BATCH) next = page(current.last());
      // The page goes out in parts, with a turn of the event loop between them: the SQLite driver
      // needs the main thread once (the statement prepared) before it reads the next page on its
      // own thread, and a page formatted in one go would make the read wait for it, then add up.
      for (const [i, part] of current.parts(PART).entries()) {
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        yield part;
      }
    }
  } finally {
    // Stopped early (a download cancelled): the page already asked for is awaited, not left dangling.
    await next?.catch(() => undefined);
  }
}
