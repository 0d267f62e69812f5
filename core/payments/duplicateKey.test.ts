import { describe, expect, it, vi } from 'vitest';
import { PaymentKeyIndex, paymentDuplicateKey } from './duplicateKey.js';

describe('PaymentKeyIndex (earlier rows of an import, by payment key)', () => {
  it('answers as a Map of paymentDuplicateKey texts does, on many near-equal rows', () => {
    const index = new PaymentKeyIndex();
    const map = new Map<string, number>();
    let seed = 7;
    const rand = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let row = 2; row < 60_000; row++) {
      // few stores, digits, times and amounts: many rows repeat one another, many differ by one field
      const p = {
        store_id: 1 + rand(3),
        last_five: String(rand(40)).padStart(rand(2) ? 5 : 4, '0'),
        paid_at: 1_763_000_000_000 + rand(50) * 60_000 + (rand(10) === 0 ? 2 ** 40 : 0),
        amount: 100 + rand(20) + (rand(10) === 0 ? 0.5 : 0),
      };
      const key = paymentDuplicateKey(p);
      expect(index.get(p)).toBe(map.get(key));
      index.set(p, row);
      if (!map.has(key)) map.set(key, row);
    }
    expect(map.size).toBeGreaterThan(10_000);
  });

  it('tells 01234 from 1234, and keeps a last five that is not digits by its text', () => {
    const index = new PaymentKeyIndex();
    const base = { store_id: 1, paid_at: 1, amount: 5 };
    index.set({ ...base, last_five: '01234' }, 2);
    expect(index.get({ ...base, last_five: '1234' })).toBeUndefined();
    expect(index.get({ ...base, last_five: '01234' })).toBe(2);
    index.set({ ...base, last_five: 'ab,c' }, 3);
    index.set({ ...base, last_five: 'ab,c' }, 4);
    expect(index.get({ ...base, last_five: 'ab,c' })).toBe(3);
  });
});

describe('the duplicate key is made from the payment fields list', () => {
  it('is the fields PAYMENT_FIELDS marks, in its order', async () => {
    const { DUPLICATE_KEY_COLUMNS } = await import('./duplicateKey.js');
    expect(DUPLICATE_KEY_COLUMNS).toEqual(['store_id', 'last_five', 'paid_at', 'amount', 'method']);
    // a payment stored before methods (none) is a transfer
    expect(
      paymentDuplicateKey({ store_id: 2, last_five: '01234', paid_at: '1970-01-01T00:00:01.000Z', amount: '50' }),
    ).toBe('2|01234|1000|50|0');
    expect(paymentDuplicateKey({ store_id: 2, last_five: '01234', paid_at: 1000, amount: 50, method: '匯款' })).toBe(
      '2|01234|1000|50|0',
    );
  });

  it('tells a cash sale and a card sale of the same store, minute and amount apart (neither has a last five), in the text and in the flat index', () => {
    const cash = { store_id: 1, last_five: '', paid_at: 60_000, amount: 120, method: '現金' };
    const card = { ...cash, method: '刷卡' };
    expect(paymentDuplicateKey(cash)).not.toBe(paymentDuplicateKey(card));
    const index = new PaymentKeyIndex();
    index.set(cash, 2);
    expect(index.get(card)).toBeUndefined();
    expect(index.get({ ...cash })).toBe(2);
    // no last five is not the digits 0
    expect(index.get({ ...cash, last_five: '0' })).toBeUndefined();
  });

  it('a field marked in the list becomes part of the key text and of the index, with nothing else edited', async () => {
    vi.resetModules();
    const columns = await import('./columns.js');
    columns.PAYMENT_FIELDS.push({ name: 'till', type: 'text', duplicateKey: 'id' });
    try {
      const fresh = await import('./duplicateKey.js');
      expect(fresh.DUPLICATE_KEY_COLUMNS).toEqual(['store_id', 'last_five', 'paid_at', 'amount', 'method', 'till']);
      const cash = { store_id: 1, last_five: '12345', paid_at: 1000, amount: 5, till: 1 };
      const card = { ...cash, till: 2 };
      expect(fresh.paymentDuplicateKey(cash)).not.toBe(fresh.paymentDuplicateKey(card));
      const index = new fresh.PaymentKeyIndex();
      index.set(cash, 2);
      expect(index.get(card)).toBeUndefined();
      expect(index.get({ ...cash })).toBe(2);
    } finally {
      columns.PAYMENT_FIELDS.pop();
      vi.resetModules();
    }
  });
});
