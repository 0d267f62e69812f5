/** When two payments are the same: key text, flat index and database look-ups all follow PAYMENT_FIELDS' `duplicateKey`. */
import { PAYMENT_FIELDS, type DuplicateKeyKind } from './columns.js';
import { PAYMENT_METHODS, type PaymentMethod } from '../paymentMethods.js';

const DUPLICATE_KEY: ReadonlyArray<{ name: string; kind: DuplicateKeyKind }> = PAYMENT_FIELDS.filter(
  (f) => f.duplicateKey,
).map((f) => ({
  name: f.name,
  kind: f.duplicateKey!,
}));

/** A database row, a checked import row or a form's payment. */
type KeyFields = object;
const field = (p: KeyFields, name: string): unknown => (p as Record<string, unknown>)[name];

/** One key field as the index compares it: a whole number, or NaN when it cannot be one. */
function keyNumber(kind: DuplicateKeyKind, v: unknown): number {
  if (kind === 'digits') {
    // tagged with their count so that 01234 and 1234 differ; none (not a transfer) is 0
    if (v === '') return 0;
    if (typeof v !== 'string' || v.length > 8) return NaN;
    let n = 0;
    for (let i = 0; i < v.length; i++) {
      const d = v.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return NaN;
      n = n * 10 + d;
    }
    return n + v.length * 100_000_000;
  }
  // none is 匯款 (a row written before methods)
  if (kind === 'method')
    return v === undefined || v === null || v === '' ? 0 : PAYMENT_METHODS.indexOf(v as PaymentMethod);
  if (kind === 'instant')
    return typeof v === 'number' ? v : typeof v === 'string' ? (/^-?\d+$/.test(v) ? Number(v) : Date.parse(v)) : NaN;
  return Number(v);
}

export function paymentDuplicateKey(p: KeyFields): string {
  let key = '';
  for (let k = 0; k < DUPLICATE_KEY.length; k++) {
    const { name, kind } = DUPLICATE_KEY[k];
    const v = field(p, name);
    key += (k ? '|' : '') + (kind === 'digits' ? String(v) : String(keyNumber(kind, v)));
  }
  return key;
}

/** The key's columns of `payments`; a row read with them keys as paymentDuplicateKey makes it, numbers as text included. */
export const DUPLICATE_KEY_COLUMNS: readonly string[] = DUPLICATE_KEY.map((f) => f.name);

/**
 * Earlier rows of one import by key, in flat typed arrays: about 60 bytes a row against 300 for a Map of
 * key texts, so a million-row file fits in tens of megabytes. A key not all whole numbers goes in `odd`.
 */
export class PaymentKeyIndex {
  private size = 0;
  private mask = 1023;
  /** one array per key field: 32-bit where the values fit, 64-bit otherwise */
  private cols: Array<Float64Array | Int32Array> = PaymentKeyIndex.columns(1024);
  /** the row each slot holds; 0 marks an empty slot */
  private row = new Int32Array(1024);
  private readonly odd = new Map<string, number>();
  private readonly probe = new Float64Array(DUPLICATE_KEY.length);

  private static columns(n: number): Array<Float64Array | Int32Array> {
    return DUPLICATE_KEY.map((f) =>
      f.kind === 'id' || f.kind === 'digits' || f.kind === 'method' ? new Int32Array(n) : new Float64Array(n),
    );
  }

  /** false when a field is not a whole number */
  private load(p: KeyFields): boolean {
    for (let k = 0; k < DUPLICATE_KEY.length; k++) {
      const v = keyNumber(DUPLICATE_KEY[k].kind, field(p, DUPLICATE_KEY[k].name));
      if (!Number.isFinite(v)) return false;
      this.probe[k] = v;
    }
    return true;
  }

  private static hash(values: ArrayLike<number>): number {
    let h = 0x9e3779b9;
    for (let k = 0; k < values.length; k++) {
      const v = values[k];
      h = Math.imul(h ^ (v >>> 0), 0x85ebca6b);
      h = Math.imul(h ^ ((v / 4294967296) >>> 0), 0xc2b2ae35);
    }
    h ^= h >>> 16;
    h = Math.imul(h, 0x7feb352d);
    return h ^ (h >>> 15);
  }

  /** the slot holding the probed key, or the empty slot where it would go */
  private slot(): number {
    const { cols, probe } = this;
    let i = PaymentKeyIndex.hash(probe) & this.mask;
    search: while (this.row[i] !== 0) {
      for (let k = 0; k < cols.length; k++) {
        if (cols[k][i] !== probe[k]) {
          i = (i + 1) & this.mask;
          continue search;
        }
      }
      return i;
    }
    return i;
  }

  get(p: KeyFields): number | undefined {
    if (!this.load(p)) return this.odd.get(paymentDuplicateKey(p));
    const r = this.row[this.slot()];
    return r === 0 ? undefined : r;
  }

  /** `row` must be positive (0 marks an empty slot); a known key keeps its first row */
  set(p: KeyFields, row: number): void {
    if (!this.load(p)) {
      const key = paymentDuplicateKey(p);
      if (!this.odd.has(key)) this.odd.set(key, row);
      return;
    }
    const i = this.slot();
    if (this.row[i] !== 0) return;
    for (let k = 0; k < this.cols.length; k++) this.cols[k][i] = this.probe[k];
    this.row[i] = row;
    if (++this.size * 2 > this.mask) this.grow();
  }

  private grow(): void {
    const { cols, row } = this;
    const n = (this.mask + 1) * 2;
    this.mask = n - 1;
    this.cols = PaymentKeyIndex.columns(n);
    this.row = new Int32Array(n);
    const values = new Float64Array(cols.length);
    for (let j = 0; j < row.length; j++) {
      if (row[j] === 0) continue;
      for (let k = 0; k < cols.length; k++) values[k] = cols[k][j];
      let i = PaymentKeyIndex.hash(values) & this.mask;
      while (this.row[i] !== 0) i = (i + 1) & this.mask;
      for (let k = 0; k < cols.length; k++) this.cols[k][i] = values[k];
      this.row[i] = row[j];
    }
  }
}
