import {
  fieldErrorOf,
  problem,
  ValidationError,
  type DetailsArg,
  type ErrorCode,
  type FieldError,
  type Problem,
} from './errors.js';

/** Collects a form's field errors; `throwIfAny` makes them one ValidationError. */
export class FieldErrors {
  readonly list: FieldError[] = [];
  add<C extends ErrorCode>(field: string, code: C, ...details: DetailsArg<C>): void {
    this.addProblem(field, problem(code, ...details));
  }
  /** the first problem of a field counts; later ones are left unsaid */
  addProblem(field: string, p: Problem): void {
    if (!this.list.some((e) => e.field === field)) this.list.push(fieldErrorOf(field, p));
  }
  has(field: string): boolean {
    return this.list.some((e) => e.field === field);
  }
  get empty(): boolean {
    return this.list.length === 0;
  }
  throwIfAny(): void {
    if (this.list.length) throw new ValidationError(this.list);
  }
}

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Missing, null or blank text counts as empty, as on a form. */
export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

/** The largest id a table holds: PostgreSQL's integer columns stop here, so SQLite's ids do too. */
const MAX_ID = 2_147_483_647;

/** A positive integer id up to MAX_ID, or its decimal text: PostgreSQL would fail on a larger one, not find none. */
export function toId(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[1-9]\d{0,9}\s*$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n > 0 && n <= MAX_ID ? n : null;
}

export function pick(obj: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in obj) out[k] = obj[k];
  return out;
}
