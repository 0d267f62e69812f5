/**
 * The daily close (日結) rules, pure so the service, the CLI and the back office cannot disagree. Per store
 * and Taiwan day: expected = opening (the previous close's count) + 現金 takings − 店內支出 − 提領;
 * 短溢 = counted − expected.
 */
import { CASH_CATEGORY_MAX, DAYBOOK_MAX_DAYS, MAX_COUNTED_CASH, NOTE_MAX_LENGTH } from '../limits.js';
import { fieldError, type FieldError } from '../errors.js';
import { MAX_AMOUNT } from '../money.js';
import { addDays, parseInstant, taipeiDate, taipeiDayStart, DAY_MS } from '../time.js';
import type { Validated } from '../validation.js';
import { METHOD_CASH, PAYMENT_METHODS } from '../paymentMethods.js';

export { DAYBOOK_MAX_DAYS };

export const CASH_METHOD = METHOD_CASH;
/** in the order figures show them */
export const METHOD_ORDER = PAYMENT_METHODS;

export const CASH_OUT_KINDS = ['店內支出', '提領'] as const;
export type CashOutKind = (typeof CASH_OUT_KINDS)[number];
const CASH_OUT_EXPENSE: CashOutKind = '店內支出';
const CASH_OUT_WITHDRAWAL: CashOutKind = '提領';
/** Offered for 店內支出; any other text may be typed. */
export const EXPENSE_CATEGORIES = [
  '雜支',
  '文具用品',
  '清潔用品',
  '餐費',
  '交通費',
  '郵資運費',
  '維修',
  '其他',
] as const;

export const DENOMINATIONS = [1000, 500, 100, 50, 10, 5, 1] as const;
export type Denominations = Partial<Record<(typeof DENOMINATIONS)[number], number>>;

/** As stored; a day without a close is 未結帳, or 無收支 when nothing came in or went out. */
export const CLOSE_STATES = ['closed', 'reopened'] as const;
export type CloseState = (typeof CLOSE_STATES)[number];
export type DayStatus = CloseState | 'open' | 'quiet';

function isCashOutKind(v: unknown): v is CashOutKind {
  return typeof v === 'string' && (CASH_OUT_KINDS as readonly string[]).includes(v);
}

export interface TakingEntry {
  paid_at: number;
  amount: number;
  method: string;
  employee?: boolean;
}

export interface CashOutEntry {
  at: number;
  amount: number;
  kind: CashOutKind;
}

export type ByMethod = Record<string, number>;

export interface DayCash {
  date: string;
  /** null when there is no previous close and none was stated */
  opening: number | null;
  by_method: ByMethod;
  cash_in: number;
  /** 店內支出 + 提領 */
  cash_out: number;
  expense: number;
  withdrawal: number;
  /** null while the opening is unknown */
  expected: number | null;
}

/** Every method at zero: figures always name all four. */
export function emptyByMethod(): ByMethod {
  return Object.fromEntries(METHOD_ORDER.map((m) => [m, 0]));
}

/** The one formula, for a close, a day's page and the board. */
export function expectedCash(opening: number, cashIn: number, cashOut: number): number {
  return opening + cashIn - cashOut;
}

/** 短溢: positive when the drawer holds more than expected. */
export function cashDifference(counted: number, expected: number): number {
  return counted - expected;
}

function onTaiwanDay(ms: number, date: string): boolean {
  return taipeiDate(ms) === date;
}

/** A store's cash for one Taiwan day; entries of other days are left out, 員工購物 counts by its method. */
export function dayCash(
  date: string,
  opening: number | null,
  payments: readonly TakingEntry[],
  cashOut: readonly CashOutEntry[],
): DayCash {
  const by_method = emptyByMethod();
  for (const p of payments) {
    if (!onTaiwanDay(p.paid_at, date)) continue;
    by_method[p.method] = (by_method[p.method] ?? 0) + p.amount;
  }
  let expense = 0;
  let withdrawal = 0;
  for (const c of cashOut) {
    if (!onTaiwanDay(c.at, date)) continue;
    if (c.kind === CASH_OUT_WITHDRAWAL) withdrawal += c.amount;
    else expense += c.amount;
  }
  const cash_in = by_method[CASH_METHOD] ?? 0;
  const cash_out = expense + withdrawal;
  return {
    date,
    opening,
    by_method,
    cash_in,
    cash_out,
    expense,
    withdrawal,
    expected: opening === null ? null : expectedCash(opening, cash_in, cash_out),
  };
}

export interface CloseRef {
  date: string;
  state: CloseState;
  counted: number;
}

/** The count of the latest standing close before `date` (a reopened day counts only once closed again), or null. */
export function carriedOpening(closes: readonly CloseRef[], date: string): { from: string; opening: number } | null {
  let best: CloseRef | null = null;
  for (const c of closes) if (c.state === 'closed' && c.date < date && (!best || c.date > best.date)) best = c;
  return best ? { from: best.date, opening: best.counted } : null;
}

interface RunningLine<T> {
  entry: T;
  /** + cash takings, − cash out, 0 for other methods */
  cash: number;
  /** the drawer after it; null while the opening is unknown */
  running: number | null;
}

/** In time order, payments before cash out at the same instant. */
export function runningCash<T extends { at: number; cash: number }>(
  opening: number | null,
  entries: readonly T[],
): Array<RunningLine<T>> {
  let drawer = opening;
  return [...entries]
    .sort((a, b) => a.at - b.at || b.cash - a.cash)
    .map((entry) => {
      if (drawer !== null) drawer += entry.cash;
      return { entry, cash: entry.cash, running: drawer };
    });
}

export function denominationTotal(d: Denominations): number {
  return DENOMINATIONS.reduce((sum, v) => sum + v * (d[v] ?? 0), 0);
}

/** Whole NT$, 0 to MAX_COUNTED_CASH. */
function cashAmount(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v.trim().replace(/,/g, '')) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_COUNTED_CASH ? n : null;
}

interface CloseInput {
  date: string;
  counted: number;
  opening: number | null;
  note: string;
  denominations: Denominations | null;
}

/** Whether YYYY-MM-DD names a real day. */
export function isTaiwanDate(v: unknown): v is string {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && taipeiDayStart(v) !== null;
}

/**
 * A close as sent: counted cash or a count by denomination (equal when both), an opening only for a store's
 * first close; `today` refuses a day not begun yet.
 */
export function validateClose(input: Record<string, unknown>, today: string): Validated<CloseInput> {
  const errors: FieldError[] = [];
  const date = input.date;
  if (date === undefined || date === null || date === '') errors.push(fieldError('date', 'close_date_required'));
  else if (!isTaiwanDate(date)) errors.push(fieldError('date', 'bad_date', { value: String(date).slice(0, 40) }));
  else if (date > today) errors.push(fieldError('date', 'close_date_future', { date }));

  let denominations: Denominations | null = null;
  if (input.denominations !== undefined && input.denominations !== null) {
    const d = input.denominations;
    const entries = typeof d === 'object' && !Array.isArray(d) ? Object.entries(d as Record<string, unknown>) : null;
    const ok = entries?.every(
      ([k, n]) =>
        (DENOMINATIONS as readonly number[]).includes(Number(k)) &&
        Number.isInteger(n) &&
        (n as number) >= 0 &&
        (n as number) <= 1_000_000,
    );
    if (!entries || !ok) errors.push(fieldError('denominations', 'close_denominations_invalid'));
    else
      denominations = Object.fromEntries(
        entries.filter(([, n]) => (n as number) > 0).map(([k, n]) => [Number(k), n as number]),
      ) as Denominations;
  }
  let counted: number | null = null;
  if (input.counted === undefined || input.counted === null || input.counted === '') {
    if (denominations) counted = denominationTotal(denominations);
    else errors.push(fieldError('counted', 'close_counted_required'));
  } else {
    counted = cashAmount(input.counted);
    if (counted === null) errors.push(fieldError('counted', 'close_cash_invalid', { limit: MAX_COUNTED_CASH }));
    else if (denominations && denominationTotal(denominations) !== counted) {
      errors.push(
        fieldError('counted', 'close_denominations_mismatch', { total: denominationTotal(denominations), counted }),
      );
    }
  }
  let opening: number | null = null;
  if (input.opening !== undefined && input.opening !== null && input.opening !== '') {
    opening = cashAmount(input.opening);
    if (opening === null) errors.push(fieldError('opening', 'close_cash_invalid', { limit: MAX_COUNTED_CASH }));
  }
  const note = noteText(input.note, errors);
  if (errors.length) return { ok: false, errors };
  return { ok: true, value: { date: date as string, counted: counted!, opening, note, denominations } };
}

function noteText(v: unknown, errors: FieldError[]): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') {
    errors.push(fieldError('note', 'note_type'));
    return '';
  }
  if (v.length > NOTE_MAX_LENGTH) errors.push(fieldError('note', 'note_too_long', { limit: NOTE_MAX_LENGTH }));
  return v.trim();
}

interface CashOutInput {
  kind: CashOutKind;
  category: string;
  amount: number;
  note: string;
  /** absent: now */
  at: number | null;
}

/** Cash leaving the drawer: 店內支出 needs a category, 提領 none; a time at most a day ahead. */
export function validateCashOut(input: Record<string, unknown>, now: number): Validated<CashOutInput> {
  const errors: FieldError[] = [];
  const kind = input.kind;
  if (!isCashOutKind(kind)) errors.push(fieldError('kind', 'cash_out_kind_invalid'));
  let category = '';
  if (input.category !== undefined && input.category !== null) {
    if (typeof input.category !== 'string') errors.push(fieldError('category', 'cash_category_required'));
    else category = input.category.trim();
  }
  if (kind === CASH_OUT_EXPENSE && !category) errors.push(fieldError('category', 'cash_category_required'));
  if (category.length > CASH_CATEGORY_MAX)
    errors.push(fieldError('category', 'cash_category_too_long', { limit: CASH_CATEGORY_MAX }));
  if (kind === CASH_OUT_WITHDRAWAL) category = '';
  const raw = input.amount;
  const amount = typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim().replace(/,/g, '')) : raw;
  if (raw === undefined || raw === null || raw === '') errors.push(fieldError('amount', 'cash_amount_required'));
  else if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > MAX_AMOUNT)
    errors.push(fieldError('amount', 'cash_amount_invalid', { limit: MAX_AMOUNT }));
  let at: number | null = null;
  if (input.at !== undefined && input.at !== null && input.at !== '') {
    at = typeof input.at === 'string' ? parseInstant(input.at) : null;
    if (at === null) errors.push(fieldError('at', 'paid_at_invalid'));
    else if (at > now + DAY_MS) errors.push(fieldError('at', 'cash_at_too_far_ahead'));
  }
  const note = noteText(input.note, errors);
  if (errors.length) return { ok: false, errors };
  return { ok: true, value: { kind: kind as CashOutKind, category, amount: amount as number, note, at } };
}

/** Inclusive; stops one past DAYBOOK_MAX_DAYS, so a caller can tell a range too long. */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to && out.length <= DAYBOOK_MAX_DAYS; d = addDays(d, 1)) out.push(d);
  return out;
}
