/**
 * The payments an export writes, in keyset pages each aggregated by the database into one text, since
 * building row objects cost the SQLite driver more than formatting the whole file. A page is one line per
 * payment, fields joined by `,` (none may hold a comma or line end); the note goes last as a JSON string.
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
  // an aggregate's order is unspecified unless stated in it
  const agg = pg
    ? "string_agg(r, E'\\n' order by paid_at desc, uuid desc)"
    : 'group_concat(r, char(10) order by paid_at desc, uuid desc)';
  return db.from(inner.as('page')).select(db.raw(`${agg} as text, count(*) as n`));
}

/** An integer from `text[from, to)`, read without making a substring. */
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

/** A page's text as payments: one object reused from line to line, since a million rows of garbage cost as much as formatting them. */
export class PaymentPage implements Iterable<PagedPayment> {
  constructor(
    readonly text: string,
    /** the lines (payments) from `from` to `to` */
    readonly length: number,
    private readonly full: boolean,
    private readonly from = 0,
    private readonly to = text.length,
  ) {}

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
          // most notes hold nothing JSON escapes: skip the parse
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

/** Reads a line's fields before the note, compiled from pageFields (a loop cost half again); answers where the note begins. */
function lineReader(full: boolean): { read: LineReader; note: string } {
  const fields = pageFields(full);
  const body = fields.slice(0, -1).map((f) => {
    const prop = `p[${JSON.stringify(f.name)}]`;
    const field = f.type === 'text' || f.type === 'optional text' ? 'text.slice(at, e)' : 'wholeNumber(text, at, e)';
    const read = `e = text.indexOf(',', at); ${prop} = ${field}; at = e + 1;`;
    // an optional integer is empty or digits
    return f.type === 'optional integer'
      ? `if (text.charCodeAt(at) === 44) { ${prop} = null; at++; } else { ${read} }`
      : read;
  });
  const read = new Function('text', 'at', 'p', 'wholeNumber', `let e; ${body.join('\n')} return at;`) as LineReader;
  return { read, note: fields[fields.length - 1].name };
}

/** A filter's payments, newest first, in keyset pages; the next is read while this one is written (two in memory at most). */
export async function* paymentPages(
  ctx: ServiceContext,
  filter: Record<string, unknown>,
  full: boolean,
): AsyncGenerator<PaymentPage> {
  const page = async (after: { paid_at: number; uuid: string } | null): Promise<PaymentPage> => {
    const { query } = filteredPaymentsQuery(ctx, filter);
    query.clearOrder();
    // a row value, not the OR form, which SQLite reads as a range on paid_at alone, walking ever more entries
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
      // in parts with a turn of the event loop between: the SQLite driver needs the main thread once
      // before reading the next page on its own thread, else the read waits for the whole page's formatting
      for (const [i, part] of current.parts(PART).entries()) {
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        yield part;
      }
    }
  } finally {
    // stopped early (a download cancelled): the page already asked for is not left dangling
    await next?.catch(() => undefined);
  }
}
