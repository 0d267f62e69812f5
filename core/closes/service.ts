/**
 * Cash out and the daily close (日結): loads entries, takes locks, writes rows and audit; figures come
 * from ./rules.ts. Every write touching a store's day of cash takes that day's lock (lockDay), so a cash
 * entry written during a close is either in it or sees it and is refused or marked: never silently outside.
 */
import { ConflictError, ValidationError, problem } from '../errors.js';
import { scopedStoreIds } from '../permissions.js';
import { requireAnyPermission, requirePermission, valid } from '../guard.js';
import { isPostgres, isUniqueViolation } from '../db/connect.js';
import { readContext, type ServiceContext, type Db } from '../context.js';
import { recordAudit } from '../audit/service.js';
import { lockDay } from '../payments/closedDay.js';
import { actorUserId } from '../actor.js';
import { isPlainObject } from '../validation.js';
import { storeLabel } from '../labels.js';
import { DAY_MS, addDays, formatTaipei, taipeiDate, taipeiDayNumber, taipeiDayStart, toIso } from '../time.js';
import { filterIds } from '../listQuery.js';
import { paymentSums } from '../db/paymentSums.js';
import {
  CASH_METHOD,
  DAYBOOK_MAX_DAYS,
  cashDifference,
  carriedOpening,
  datesBetween,
  dayCash,
  emptyByMethod,
  expectedCash,
  isTaiwanDate,
  runningCash,
  validateClose,
  type ByMethod,
  type CloseRef,
  type CloseState,
  type DayCash,
  type DayStatus,
  type Denominations,
} from './rules.js';
import type { CashOutRow } from './cashOut.js';
import { requireStoreInScope, storeById, type StoreRef } from './scope.js';

export type { StoreRef } from './scope.js';

export interface DayClose {
  id: number;
  store_id: number;
  store_code: string;
  store_name: string;
  date: string;
  state: CloseState;
  opening: number;
  /** stated (a store's first close), not carried from the previous close */
  opening_stated: boolean;
  cash_in: number;
  cash_out: number;
  expected: number;
  counted: number;
  difference: number;
  by_method: ByMethod;
  denominations: Denominations | null;
  note: string;
  closed_by: string;
  closed_at: string;
  reopened_by: string | null;
  reopened_at: string | null;
  /** cash entries changed after the close (manage_payments), each in the audit */
  late_changes: number;
}

interface CloseRow {
  id: number;
  store_id: number;
  date: string;
  state: CloseState;
  opening: number | string;
  opening_stated: boolean | number;
  cash_in: number | string;
  cash_out: number | string;
  expected: number | string;
  counted: number | string;
  difference: number | string;
  by_method: string;
  denominations: string | null;
  note: string;
  closed_by: number | null;
  closed_by_username: string;
  closed_at: number | string;
  reopened_by: number | null;
  reopened_by_username: string | null;
  reopened_at: number | string | null;
  late_changes: number | string;
}

function toClose(r: CloseRow, store: StoreRef): DayClose {
  return {
    id: Number(r.id),
    store_id: Number(r.store_id),
    store_code: store.code,
    store_name: store.name,
    date: r.date,
    state: r.state,
    opening: Number(r.opening),
    opening_stated: Boolean(r.opening_stated),
    cash_in: Number(r.cash_in),
    cash_out: Number(r.cash_out),
    expected: Number(r.expected),
    counted: Number(r.counted),
    difference: Number(r.difference),
    by_method: { ...emptyByMethod(), ...(JSON.parse(r.by_method) as ByMethod) },
    denominations: r.denominations ? (JSON.parse(r.denominations) as Denominations) : null,
    note: r.note ?? '',
    closed_by: r.closed_by_username,
    closed_at: toIso(Number(r.closed_at)),
    reopened_by: r.reopened_by_username ?? null,
    reopened_at: r.reopened_at === null || r.reopened_at === undefined ? null : toIso(Number(r.reopened_at)),
    late_changes: Number(r.late_changes ?? 0),
  };
}

function requireDate(v: unknown, field = 'date'): string {
  if (v === undefined || v === null || v === '') throw ValidationError.single(field, 'close_date_required');
  if (!isTaiwanDate(v)) throw ValidationError.single(field, 'bad_date', { value: String(v).slice(0, 40) });
  return v;
}

function dayWindow(date: string): { start: number; end: number } {
  const start = taipeiDayStart(date)!;
  return { start, end: start + DAY_MS };
}

async function dayEntries(db: Db, storeId: number, date: string) {
  const { start, end } = dayWindow(date);
  const payments = (await db('payments')
    .where({ store_id: storeId })
    .where('paid_at', '>=', start)
    .where('paid_at', '<', end)
    .orderBy('paid_at')
    .orderBy('uuid')
    .select(
      'uuid',
      'paid_at',
      'amount',
      'method',
      'method_detail',
      'employee',
      'last_five',
      'status',
      'note',
    )) as Array<{
    uuid: string;
    paid_at: number | string;
    amount: number | string;
    method: string;
    method_detail: string | null;
    employee: boolean | number;
    last_five: string;
    status: string;
    note: string;
  }>;
  const cashOut = (await db('cash_out')
    .where({ store_id: storeId })
    .where('at', '>=', start)
    .where('at', '<', end)
    .orderBy('at')
    .orderBy('id')
    .select('*')) as CashOutRow[];
  return { payments, cashOut };
}

/** The latest standing close before `date`, which decides its opening. */
async function previousClose(db: Db, storeId: number, date: string): Promise<CloseRef[]> {
  const r = (await db('day_closes')
    .where({ store_id: storeId, state: 'closed' })
    .where('date', '<', date)
    .orderBy('date', 'desc')
    .first('date', 'state', 'counted')) as { date: string; state: CloseState; counted: number | string } | undefined;
  return r ? [{ date: r.date, state: r.state, counted: Number(r.counted) }] : [];
}

function figuresOf(date: string, opening: number | null, e: Awaited<ReturnType<typeof dayEntries>>): DayCash {
  return dayCash(
    date,
    opening,
    e.payments.map((p) => ({
      paid_at: Number(p.paid_at),
      amount: Number(p.amount),
      method: p.method,
      employee: Boolean(p.employee),
    })),
    e.cashOut.map((c) => ({ at: Number(c.at), amount: Number(c.amount), kind: c.kind })),
  );
}

/**
 * Closes a store's Taiwan day. A day already closed is refused (409), so of two closes at once one is
 * stored and the other told; a reopened day is closed again in its own row, figures counted afresh.
 */
export async function closeDay(ctx: ServiceContext, input: unknown): Promise<DayClose> {
  requirePermission(ctx.actor, 'close_day');
  if (!isPlainObject(input)) throw ValidationError.single('body', 'body_not_object');
  const store = await storeById(ctx.db, input.store_id);
  requireStoreInScope(ctx, store.id);
  const now = Date.now();
  const v = valid(validateClose(input, taipeiDate(now)));
  try {
    return await ctx.db.transaction(async (trx) => {
      await lockDay(trx, store.id, v.date);
      const existing = (await trx('day_closes').where({ store_id: store.id, date: v.date }).first()) as
        | CloseRow
        | undefined;
      if (existing?.state === 'closed') throw alreadyClosed(store, existing);
      const { opening, carried } = await closeOpening(trx, store.id, v.date, v.opening);
      const f = figuresOf(v.date, opening, await dayEntries(trx, store.id, v.date));
      const fields = closeFields(ctx, v, f, { opening, stated: !carried }, now);
      const close = toClose(await saveClose(trx, store, v.date, existing, fields), store);
      await recordAudit(trx, ctx, {
        action: 'close',
        entity: 'day_close',
        entityId: close.id,
        after: auditView(close),
      });
      return close;
    });
  } catch (err) {
    // only without the lock (never expected): the unique key still keeps one close a day
    if (isUniqueViolation(err))
      throw alreadyClosed(
        store,
        (await ctx.db('day_closes').where({ store_id: store.id, date: v.date }).first()) as CloseRow,
      );
    throw err;
  }
}

/** The last standing close's count, which a stated opening must equal; a store's first close must state one. */
async function closeOpening(
  trx: Db,
  storeId: number,
  date: string,
  stated: number | null,
): Promise<{ opening: number; carried: boolean }> {
  const carried = carriedOpening(await previousClose(trx, storeId, date), date);
  if (!carried) {
    if (stated === null) throw ValidationError.single('opening', 'close_opening_required');
    return { opening: stated, carried: false };
  }
  if (stated !== null && stated !== carried.opening) {
    throw ValidationError.single('opening', 'close_opening_differs', {
      from: carried.from,
      counted: carried.opening,
      opening: stated,
    });
  }
  return { opening: carried.opening, carried: true };
}

/** A close's row but its store, date and ids. */
function closeFields(
  ctx: ServiceContext,
  v: { counted: number; denominations: Denominations | null; note: string },
  f: DayCash,
  opening: { opening: number; stated: boolean },
  now: number,
) {
  const expected = f.expected!;
  return {
    state: 'closed' as const,
    opening: opening.opening,
    opening_stated: opening.stated,
    cash_in: f.cash_in,
    cash_out: f.cash_out,
    expected,
    counted: v.counted,
    difference: cashDifference(v.counted, expected),
    by_method: JSON.stringify(f.by_method),
    denominations: v.denominations ? JSON.stringify(v.denominations) : null,
    note: v.note,
    closed_by: actorUserId(ctx.actor),
    closed_by_username: ctx.actor.username.slice(0, 40),
    closed_at: now,
  };
}

/** A reopened day's row closed again (refused if a close came first), or a new row. */
async function saveClose(
  trx: Db,
  store: StoreRef,
  date: string,
  existing: CloseRow | undefined,
  fields: ReturnType<typeof closeFields>,
): Promise<CloseRow> {
  if (existing) {
    const n = await trx('day_closes').where({ id: existing.id, state: 'reopened' }).update(fields);
    if (n === 0) throw alreadyClosed(store, (await trx('day_closes').where({ id: existing.id }).first()) as CloseRow);
    return { ...existing, ...fields };
  }
  const [ret] = await trx('day_closes')
    .insert({ store_id: store.id, date, late_changes: 0, ...fields })
    .returning('id');
  return {
    id: Number(typeof ret === 'object' ? (ret as { id: number }).id : ret),
    store_id: store.id,
    date,
    late_changes: 0,
    reopened_by: null,
    reopened_by_username: null,
    reopened_at: null,
    ...fields,
  };
}

function alreadyClosed(store: StoreRef, row: CloseRow): ConflictError {
  return new ConflictError(
    problem('day_already_closed', {
      store: storeLabel(store),
      date: row.date,
      by: row.closed_by_username,
      at: formatTaipei(Number(row.closed_at)),
    }),
  );
}

/** A close as the audit keeps it, without the store's names. */
function auditView(c: DayClose) {
  const { store_code: _c, store_name: _n, id: _i, ...rest } = c;
  return rest;
}

/** Reopens a closed day so its cash entries can change again. */
export async function reopenDay(ctx: ServiceContext, input: unknown): Promise<DayClose> {
  requirePermission(ctx.actor, 'manage_payments');
  if (!isPlainObject(input)) throw ValidationError.single('body', 'body_not_object');
  const store = await storeById(ctx.db, input.store_id);
  requireStoreInScope(ctx, store.id);
  const date = requireDate(input.date);
  return ctx.db.transaction(async (trx) => {
    await lockDay(trx, store.id, date);
    const row = (await trx('day_closes').where({ store_id: store.id, date }).first()) as CloseRow | undefined;
    if (!row || row.state !== 'closed')
      throw new ConflictError(problem('day_not_closed', { store: storeLabel(store), date }));
    const now = Date.now();
    const fields = {
      state: 'reopened' as const,
      reopened_by: actorUserId(ctx.actor),
      reopened_by_username: ctx.actor.username.slice(0, 40),
      reopened_at: now,
    };
    await trx('day_closes').where({ id: row.id }).update(fields);
    const close = toClose({ ...row, ...fields }, store);
    await recordAudit(trx, ctx, {
      action: 'reopen',
      entity: 'day_close',
      entityId: close.id,
      before: { store_id: store.id, date, state: 'closed' },
      after: { store_id: store.id, date, state: 'reopened' },
    });
    return close;
  });
}

export interface DayLine {
  type: 'payment' | 'cash_out';
  /** a payment's uuid, a cash-out entry's id */
  id: string;
  at: string;
  /** or a cash-out entry's kind */
  method: string;
  method_detail?: string;
  employee?: true;
  last_five?: string;
  status?: string;
  category?: string;
  amount: number;
  /** + cash takings, − cash out, 0 for the other methods */
  cash: number;
  /** null while the opening is unknown */
  running: number | null;
  note: string;
  after_close?: true;
}

export interface DayView {
  store: StoreRef;
  date: string;
  status: DayStatus;
  /** the previous close's date, 'stated' (a first close), or null when unknown */
  opening_from: string | null;
  /** from the entries as they stand now */
  figures: DayCash;
  /** its figures are those the person closing saw */
  close: DayClose | null;
  lines: DayLine[];
}

/** A store's day: every entry with the running cash, the figures and the close if any. */
export async function getDay(ctx: ServiceContext, params: { store_id?: unknown; date?: unknown }): Promise<DayView> {
  requireAnyPermission(ctx.actor, 'view_payments', 'close_day');
  ctx = readContext(ctx);
  const store = await storeById(ctx.db, params.store_id);
  requireStoreInScope(ctx, store.id);
  const date = requireDate(params.date);
  return dayViewOf(ctx.db, store, date);
}

async function dayViewOf(db: Db, store: StoreRef, date: string): Promise<DayView> {
  const closeRow = (await db('day_closes').where({ store_id: store.id, date }).first()) as CloseRow | undefined;
  const close = closeRow ? toClose(closeRow, store) : null;
  const carried = carriedOpening(await previousClose(db, store.id, date), date);
  // a day closed on a stated opening keeps it; otherwise it is carried from the previous close
  const opening = close?.opening_stated ? close.opening : (carried?.opening ?? close?.opening ?? null);
  const opening_from = close?.opening_stated ? 'stated' : (carried?.from ?? null);
  const entries = await dayEntries(db, store.id, date);
  const figures = figuresOf(date, opening, entries);
  const raw = [
    ...entries.payments.map((p) => ({
      at: Number(p.paid_at),
      cash: p.method === CASH_METHOD ? Number(p.amount) : 0,
      p,
    })),
    ...entries.cashOut.map((c) => ({ at: Number(c.at), cash: -Number(c.amount), c })),
  ];
  const lines = runningCash(opening, raw).map(({ entry, cash, running }): DayLine => {
    if ('p' in entry && entry.p) {
      const p = entry.p;
      return {
        type: 'payment',
        id: p.uuid,
        at: toIso(entry.at),
        method: p.method,
        ...(p.method_detail ? { method_detail: p.method_detail } : {}),
        ...(p.employee ? { employee: true as const } : {}),
        ...(p.last_five ? { last_five: p.last_five } : {}),
        status: p.status,
        amount: Number(p.amount),
        cash,
        running,
        note: p.note ?? '',
      };
    }
    const c = (entry as { c: CashOutRow }).c;
    return {
      type: 'cash_out',
      id: String(c.id),
      at: toIso(entry.at),
      method: c.kind,
      category: c.category ?? '',
      amount: Number(c.amount),
      cash,
      running,
      note: c.note ?? '',
      ...(c.after_close ? { after_close: true as const } : {}),
    };
  });
  const status = close ? close.state : lines.length ? 'open' : 'quiet';
  return { store, date, status, opening_from, figures, close, lines };
}

export interface BoardDay {
  date: string;
  status: DayStatus;
  cash_in: number;
  cash_out: number;
  /** for a day not closed, by the rule from the last close (null with none) */
  expected: number | null;
  counted: number | null;
  difference: number | null;
  late_changes: number;
}

export interface BoardStore extends StoreRef {
  days: BoardDay[];
  /** over the range */
  by_method: ByMethod;
  closed_days: number;
  /** summed over the closed days */
  difference: number;
}

export interface CloseBoard {
  from: string;
  to: string;
  dates: string[];
  stores: BoardStore[];
  /** over the range and every store shown */
  by_method: ByMethod;
}

/**
 * The board for headquarters: stores by Taiwan days, each day's state and difference, takings by method.
 * Read from per-day figures kept by triggers, never from the payments' or cash out's rows.
 */
export async function closesBoard(
  ctx: ServiceContext,
  params: { from?: unknown; to?: unknown; store_id?: unknown } = {},
): Promise<CloseBoard> {
  requireAnyPermission(ctx.actor, 'view_reports', 'view_payments', 'close_day');
  ctx = readContext(ctx);
  const { from, to, dates } = boardRange(params);
  const scope = scopedStoreIds(ctx.actor, filterIds({ store_id: params.store_id }, 'store_id'));
  const storeRows = inStores(scope, ctx.db('stores').select('id', 'code', 'name'), 'id');
  const stores = (await storeRows.orderBy('code')) as StoreRef[];
  const figures = await boardFigures(ctx.db, scope, from, to, dates);
  figures.takings = await takingsOfCashlessDays(ctx.db, stores, dates, figures);
  const total = emptyByMethod();
  const board = stores.map((s) => boardStore(s, dates, figures, total));
  return { from, to, dates, stores: board, by_method: total };
}

/** Default: the last seven days to today. */
function boardRange(params: { from?: unknown; to?: unknown }): { from: string; to: string; dates: string[] } {
  const today = taipeiDate(Date.now());
  const to = params.to === undefined || params.to === '' ? today : requireDate(params.to, 'to');
  const from = params.from === undefined || params.from === '' ? addDays(to, -6) : requireDate(params.from, 'from');
  if (from > to) throw ValidationError.single('from', 'date_range_reversed', { from, to });
  const dates = datesBetween(from, to);
  if (dates.length > DAYBOOK_MAX_DAYS)
    throw ValidationError.single('from', 'close_range_too_long', { limit: DAYBOOK_MAX_DAYS });
  return { from, to, dates };
}

type StoreScope = ReturnType<typeof scopedStoreIds>;

const inStores = (scope: StoreScope, q: import('knex').Knex.QueryBuilder, col = 'store_id') =>
  scope === 'all' ? q : q.whereIn(col, scope);

type BoardClose = { state: string; expected: number; counted: number; late: number };

/** By store id, each over the days of the range. */
interface BoardFigures {
  closes: Map<number, Array<BoardClose | undefined>>;
  cashIn: Map<number, Float64Array>;
  cashOut: Map<number, Float64Array>;
  /** every method's takings per day */
  takings: Map<number, Float64Array>;
  byMethod: Awaited<ReturnType<typeof paymentSums>>;
  /** the last standing close's count before the range: the opening of its first days */
  opening: Map<number, number>;
}

async function boardFigures(
  db: Db,
  scope: StoreScope,
  from: string,
  to: string,
  dates: string[],
): Promise<BoardFigures> {
  const first = taipeiDayNumber(taipeiDayStart(from)!);
  const last = taipeiDayNumber(taipeiDayStart(to)!);
  const [closes, cashIn, cashOut, byMethod, before] = await Promise.all([
    packedCloses(db, scope, from, to),
    // SQLite's planner prefers the key (every method's rows) unless told: the method-first index reads the 現金 days only
    packedPerDay(
      db,
      scope,
      isPostgres(db) ? 'payment_daily' : 'payment_daily indexed by payment_daily_method_store_day_idx',
      'method = ? and day >= ? and day <= ?',
      [CASH_METHOD, first, last],
    ),
    packedPerDay(db, scope, 'cash_out_daily', 'day >= ? and day <= ?', [first, last]),
    // whole 32-day runs and the days at either end
    paymentSums(db, scope, first, last),
    lastClosesBefore(db, scope, from),
  ]);
  return {
    closes: unpackCloses(closes, dates),
    cashIn: unpackAmounts(cashIn, first, dates.length),
    cashOut: unpackAmounts(cashOut, first, dates.length),
    takings: new Map(),
    byMethod,
    opening: new Map(before.map((r) => [Number(r.store_id), Number(r.counted)])),
  };
}

// Per store, its days packed into one text by the database: a year of 50 stores is 50 rows to read, not
// tens of thousands (reading rows, not summing, is the cost here).
type PackedRow = { store_id: number; v: string | null };
const packRows = (r: unknown) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as PackedRow[];
const pack = (db: Db, expr: string) => (isPostgres(db) ? `string_agg(${expr}, ';')` : `group_concat(${expr}, ';')`);
const txt = (c: string) => `cast(${c} as text)`;
const storeInSql = (scope: StoreScope) =>
  scope === 'all'
    ? { sql: '', args: [] as number[] }
    : { sql: ` and store_id in (${scope.map(() => '?').join(', ') || 'null'})`, args: scope };

/** The closes of the range, per store: `date,state,expected,counted,late_changes;…` */
async function packedCloses(db: Db, scope: StoreScope, from: string, to: string): Promise<PackedRow[]> {
  const si = storeInSql(scope);
  const fields = `${txt('date')} || ',' || state || ',' || ${txt('expected')} || ',' || ${txt('counted')} || ',' || ${txt('late_changes')}`;
  return packRows(
    await db.raw(
      `select store_id, ${pack(db, fields)} as v from day_closes where date >= ? and date <= ?${si.sql} group by store_id`,
      [from, to, ...si.args],
    ),
  );
}

/** The amounts of `source`'s rows chosen by `where`, per store: `day,amount;…`, summed by day. */
async function packedPerDay(
  db: Db,
  scope: StoreScope,
  source: string,
  where: string,
  args: Array<string | number>,
): Promise<PackedRow[]> {
  const si = storeInSql(scope);
  return packRows(
    await db.raw(
      `select store_id, ${pack(db, `${txt('day')} || ',' || ${txt('amount')}`)} as v from (select store_id, day as day, sum(amount) as amount from ${source} where ${where}${si.sql} group by store_id, day) x group by store_id`,
      [...args, ...si.args],
    ),
  );
}

function lastClosesBefore(db: Db, scope: StoreScope, from: string) {
  return inStores(
    scope,
    db('day_closes as c')
      .where('c.state', 'closed')
      .where('c.date', '<', from)
      .whereRaw(
        'c.date = (select max(p.date) from day_closes p where p.store_id = c.store_id and p.state = ? and p.date < ?)',
        ['closed', from],
      ),
    'c.store_id',
  ).select('c.store_id', 'c.counted') as Promise<Array<{ store_id: number; counted: number | string }>>;
}

/** From `day,amount;…`; `first` is the range's first day number. */
function unpackAmounts(rows: PackedRow[], first: number, n: number): Map<number, Float64Array> {
  const out = new Map<number, Float64Array>();
  for (const r of rows) {
    const a = new Float64Array(n);
    for (const part of (r.v ?? '').split(';')) {
      if (!part) continue;
      const comma = part.indexOf(',');
      const i = Number(part.slice(0, comma)) - first;
      if (i >= 0 && i < n) a[i] = Number(part.slice(comma + 1));
    }
    out.set(Number(r.store_id), a);
  }
  return out;
}

/** From `date,state,expected,counted,late_changes;…` */
function unpackCloses(rows: PackedRow[], dates: string[]): Map<number, Array<BoardClose | undefined>> {
  const dateIndex = new Map(dates.map((d, i) => [d, i]));
  const out = new Map<number, Array<BoardClose | undefined>>();
  for (const r of rows) {
    const a: Array<BoardClose | undefined> = new Array(dates.length);
    for (const part of (r.v ?? '').split(';')) {
      const [date, state, expected, counted, late] = part.split(',');
      const i = dateIndex.get(date);
      if (i !== undefined) a[i] = { state, expected: Number(expected), counted: Number(counted), late: Number(late) };
    }
    out.set(Number(r.store_id), a);
  }
  return out;
}

/**
 * Every method's takings per day, read only for stores with a day of no cash and no close: such a day is
 * 無收支 unless card or e-payment sales fell on it. A busy chain has none, and pays nothing for it.
 */
async function takingsOfCashlessDays(
  db: Db,
  stores: StoreRef[],
  dates: string[],
  f: BoardFigures,
): Promise<Map<number, Float64Array>> {
  const cashless = stores
    .map((s) => Number(s.id))
    .filter((id) => dates.some((_, i) => !f.cashIn.get(id)?.[i] && !f.cashOut.get(id)?.[i] && !f.closes.get(id)?.[i]));
  if (!cashless.length) return new Map();
  const first = taipeiDayNumber(taipeiDayStart(dates[0])!);
  const last = first + dates.length - 1;
  return unpackAmounts(
    await packedPerDay(db, cashless, 'payment_daily', 'day >= ? and day <= ?', [first, last]),
    first,
    dates.length,
  );
}

/** Its takings by method are added to `total` too. */
function boardStore(s: StoreRef, dates: string[], f: BoardFigures, total: ByMethod): BoardStore {
  const id = Number(s.id);
  const by_method = emptyByMethod();
  for (const r of f.byMethod) {
    if (Number(r.store_id) !== id) continue;
    by_method[r.method] = (by_method[r.method] ?? 0) + Number(r.amount);
    total[r.method] = (total[r.method] ?? 0) + Number(r.amount);
  }
  const none = new Float64Array(dates.length);
  const days = boardDays(
    dates,
    f.cashIn.get(id) ?? none,
    f.cashOut.get(id) ?? none,
    f.closes.get(id),
    f.opening.get(id),
    f.takings.get(id) ?? none,
  );
  let closed_days = 0;
  let difference = 0;
  for (const d of days) {
    if (d.status !== 'closed') continue;
    closed_days++;
    difference += d.difference!;
  }
  return { id, code: s.code, name: s.name, days, by_method, closed_days, difference };
}

/** A closed day shows its close's figures; another the cash expected from the last close before it. */
function boardDays(
  dates: string[],
  ins: Float64Array,
  outs: Float64Array,
  closes: Array<BoardClose | undefined> | undefined,
  opening: number | undefined,
  takings: Float64Array,
): BoardDay[] {
  let carried: number | null = opening ?? null;
  return dates.map((date, i): BoardDay => {
    const c = closes?.[i];
    const cash_in = ins[i];
    const cash_out = outs[i];
    if (c && c.state === 'closed') {
      carried = c.counted;
      const difference = cashDifference(c.counted, c.expected);
      return {
        date,
        status: 'closed',
        cash_in,
        cash_out,
        expected: c.expected,
        counted: c.counted,
        difference,
        late_changes: c.late,
      };
    }
    const expected = carried === null ? null : expectedCash(carried, cash_in, cash_out);
    const late_changes = c ? c.late : 0;
    return {
      date,
      status: c ? 'reopened' : cash_out || takings[i] ? 'open' : 'quiet',
      cash_in,
      cash_out,
      expected,
      counted: null,
      difference: null,
      late_changes,
    };
  });
}

/** The board's cells, one row per store and day, for `remit closes`. */
export function boardRows(board: CloseBoard): Array<{ store: string; store_name: string } & BoardDay> {
  return board.stores.flatMap((s) => s.days.map((d) => ({ store: s.code, store_name: s.name, ...d })));
}

export interface DayBookRange {
  store: StoreRef;
  from: string;
  to: string;
  days: DayView[];
}

/** Each day's entries with the running cash and its close, for the accountant's export. */
export async function dayBookRange(
  ctx: ServiceContext,
  params: { store_id?: unknown; from?: unknown; to?: unknown },
): Promise<DayBookRange> {
  requirePermission(ctx.actor, 'view_payments');
  ctx = readContext(ctx);
  const store = await storeById(ctx.db, params.store_id);
  requireStoreInScope(ctx, store.id);
  const to = requireDate(params.to ?? taipeiDate(Date.now()), 'to');
  const from = requireDate(params.from ?? to, 'from');
  if (from > to) throw ValidationError.single('from', 'date_range_reversed', { from, to });
  const dates = datesBetween(from, to);
  if (dates.length > DAYBOOK_MAX_DAYS)
    throw ValidationError.single('from', 'close_range_too_long', { limit: DAYBOOK_MAX_DAYS });
  const days: DayView[] = [];
  for (const date of dates) days.push(await dayViewOf(ctx.db, store, date));
  return { store, from, to, days };
}
