import { describe, expect, it } from 'vitest';
import { PaymentKeyIndex, paymentDuplicateKey } from './duplicateKey.js';

describe('PaymentKeyIndex (earlier rows of an import, by payment key)', () => {
  it('answers as a Map of paymentDuplicateKey texts does, on many near-equal rows', () => {
    const index = new PaymentKeyIndex();
    const map = new Map<string, number>();
    let seed = 7;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
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
