/**
 * When two payments are the same: the fields PAYMENT_FIELDS marks `duplicateKey` (store, last
 * five, payment time and amount). Import skips a row equal to an existing payment or to an earlier
 * row, so importing a file twice adds nothing. The key text, the flat index below and the database
 * lookups of core/payments/write.ts and import.ts are all made from that one list.
 */
import { PAYMENT_FIELDS, type DuplicateKeyKind } from './columns.js';
import { PAYMENT_METHODS, type PaymentMethod } from '../paymentMethods.js';

/** The key's fields, in the list's order, with how the flat index holds each. */
const DUPLICATE_KEY: ReadonlyArray<{ name: string; kind: DuplicateKeyKind }> = PAYMENT_FIELDS.filter(
  (f) => f.duplicateKey,
).map((f) => ({
  name: f.name,
  kind: f.duplicateKey!,
}));

/** A payment's key fields (a row of the database, a checked import row, a form's payment). */
type KeyFields = object;
const field = (p: KeyFields, name: string): unknown => (p as Record<string, unknown>)[name];

/** The key's value of one field as the index compares it: a whole number, or NaN when it cannot be one. */
function keyNumber(kind: DuplicateKeyKind, v: unknown): number {
  if (kind === 'digits') {
    // the digits, tagged with their count so that 01234 and 1234 differ
    // none (a payment other than a transfer) is 0, apart from every count of digits
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
  // the method's place in PAYMENT_METHODS; none is 匯款 (a row written before methods)
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

/** The key's columns of `payments`, to select (a row the database returns keys as paymentDuplicateKey makes it, numbers as text included). */
export const DUPLICATE_KEY_COLUMNS: readonly string[] = DUPLICATE_KEY.map((f) => f.name);

/**
 * Earlier rows of one import by their key (the same equality as `paymentDuplicateKey`), in flat
 * typed arrays, one per key field: about 60 bytes a row instead of the 300 a Map of key texts
 * costs, so a file of a million rows remembers every row it has seen in tens of megabytes. A key
 * that is not all whole numbers (a last five that is not digits: never so in a checked row) is
 * kept by its key text instead.
 */
export class PaymentKeyIndex {
  private size = 0;
  private mask = 1023;
  /** one array per key field: 32-bit where the values fit (ids, tagged digits), 64-bit otherwise */
  private cols: Array<Float64Array | Int32Array> = PaymentKeyIndex.columns(1024);
  /** the row each slot holds; 0 marks an empty slot */
  private row = new Int32Array(1024);
  private readonly odd = new Map<string, number>();
  /** the key being looked up, field by field (one buffer for every call) */
  private readonly probe = new Float64Array(DUPLICATE_KEY.length);

  private static columns(n: number): Array<Float64Array | Int32Array> {
    return DUPLICATE_KEY.map((f) =>
      f.kind === 'id' || f.kind === 'digits' || f.kind === 'method' ? new Int32Array(n) : new Float64Array(n),
    );
  }

  /** fills `probe` from p; false when a field is not a whole number */
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

  /** the row first seen with this key, if any */
  get(p: KeyFields): number | undefined {
    if (!this.load(p)) return this.odd.get(paymentDuplicateKey(p));
    const r = this.row[this.slot()];
    return r === 0 ? undefined : r;
  }

  /** remembers `row` (a positive whole number) for this key, unless the key is already known */
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
