/**
 * When two payments are the same: same store, last five, payment time and amount. Import skips
 * a row equal to an existing payment or to an earlier row, so importing a file twice adds nothing.
 * A payment without a last five (現金, 刷卡, 電子支付) is told apart by its method in its place:
 * a cash sale and a card sale of the same amount at the same minute are two sales.
 */
export function paymentDuplicateKey(p: { store_id: number; last_five: string; paid_at: string | number; amount: number; method?: string }): string {
  const ms = typeof p.paid_at === 'number' ? p.paid_at : Date.parse(p.paid_at);
  return `${p.store_id}|${p.last_five || (p.method ?? '')}|${ms}|${Number(p.amount)}`;
}

type KeyFields = { store_id: number; last_five: string; paid_at: number; amount: number; method?: string };

/**
 * Earlier rows of one import by their key (the same equality as `paymentDuplicateKey`), in flat
 * typed arrays: about 60 bytes a row instead of the 300 a Map of key texts costs, so a file of a
 * million rows remembers every row it has seen in tens of megabytes. A last five that is not
 * all digits (never so in a checked row) is kept by its key text instead.
 */
export class PaymentKeyIndex {
  private size = 0;
  private mask = 1023;
  private paid = new Float64Array(1024);
  private amount = new Float64Array(1024);
  private store = new Int32Array(1024);
  private five = new Int32Array(1024);
  /** the row each slot holds; 0 marks an empty slot */
  private row = new Int32Array(1024);
  private readonly odd = new Map<string, number>();

  /** the digits, tagged with their count so that 01234 and 1234 differ; NaN when not digits */
  private static fiveOf(s: string): number {
    return s.length > 0 && s.length <= 8 && /^\d+$/.test(s) ? Number(s) + s.length * 100_000_000 : NaN;
  }

  private static hash(p: KeyFields, five: number): number {
    let h = Math.imul(p.store_id ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ five, 0xc2b2ae35);
    h = Math.imul(h ^ (p.paid_at >>> 0), 0x27d4eb2f);
    h = Math.imul(h ^ ((p.paid_at / 4294967296) >>> 0), 0x165667b1);
    h = Math.imul(h ^ (p.amount >>> 0), 0x9e3779b1);
    h ^= h >>> 16;
    h = Math.imul(h, 0x7feb352d);
    return h ^ (h >>> 15);
  }

  private slot(p: KeyFields, five: number): number {
    let i = PaymentKeyIndex.hash(p, five) & this.mask;
    while (this.row[i] !== 0) {
      if (this.paid[i] === p.paid_at && this.five[i] === five && this.store[i] === p.store_id && this.amount[i] === p.amount) return i;
      i = (i + 1) & this.mask;
    }
    return i;
  }

  /** the row first seen with this key, if any */
  get(p: KeyFields): number | undefined {
    const five = PaymentKeyIndex.fiveOf(p.last_five);
    if (Number.isNaN(five)) return this.odd.get(paymentDuplicateKey(p));
    const r = this.row[this.slot(p, five)];
    return r === 0 ? undefined : r;
  }

  /** remembers `row` (a positive whole number) for this key, unless the key is already known */
  set(p: KeyFields, row: number): void {
    const five = PaymentKeyIndex.fiveOf(p.last_five);
    if (Number.isNaN(five)) {
      if (!this.odd.has(paymentDuplicateKey(p))) this.odd.set(paymentDuplicateKey(p), row);
      return;
    }
    const i = this.slot(p, five);
    if (this.row[i] !== 0) return;
    this.paid[i] = p.paid_at;
    this.amount[i] = p.amount;
    this.store[i] = p.store_id;
    this.five[i] = five;
    this.row[i] = row;
    if (++this.size * 2 > this.mask) this.grow();
  }

  private grow(): void {
    const { paid, amount, store, five, row } = this;
    const n = (this.mask + 1) * 2;
    this.mask = n - 1;
    this.paid = new Float64Array(n);
    this.amount = new Float64Array(n);
    this.store = new Int32Array(n);
    this.five = new Int32Array(n);
    this.row = new Int32Array(n);
    for (let j = 0; j < row.length; j++) {
      if (row[j] === 0) continue;
      const p = { store_id: store[j], last_five: '', paid_at: paid[j], amount: amount[j] };
      let i = PaymentKeyIndex.hash(p, five[j]) & this.mask;
      while (this.row[i] !== 0) i = (i + 1) & this.mask;
      this.paid[i] = paid[j];
      this.amount[i] = amount[j];
      this.store[i] = store[j];
      this.five[i] = five[j];
      this.row[i] = row[j];
    }
  }
}
