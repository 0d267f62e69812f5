import { ValidationError, type FieldError } from '../errors.js';

/** Collects field errors while a form is checked; `throwIfAny` turns them into one ValidationError. */
export class FieldErrors {
  readonly list: FieldError[] = [];
  add(field: string, message: string): void {
    if (!this.list.some((e) => e.field === field)) this.list.push({ field, message });
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

/** A store or user id: a positive integer, or its decimal text (form fields send text). */
export function toId(v: unknown): number | null {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^\s*[1-9]\d{0,9}\s*$/.test(v)) return Number(v);
  return null;
}
