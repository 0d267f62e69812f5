import { describe, expect, it } from 'vitest';
import { dailySeries, daysBetween, emptyMethodTotals, emptyStoreStats, summarize } from './rules.js';
import type { StoreStats } from '../types.js';

const taipei: StoreStats = {
  store_id: 1,
  store_name: '台北店',
  store_code: 'TPE',
  total_payments: 5,
  total_amount: 12_000,
  confirmed_payments: 3,
  pending_payments: 1,
  failed_payments: 1,
  by_method: {
    匯款: { count: 3, amount: 10_000 },
    現金: { count: 1, amount: 1_500 },
    刷卡: { count: 0, amount: 0 },
    電子支付: { count: 1, amount: 500 },
  },
};
const kaohsiung: StoreStats = {
  store_id: 2,
  store_name: '高雄店',
  store_code: 'KHH',
  total_payments: 2,
  total_amount: 3_500,
  confirmed_payments: 0,
  pending_payments: 2,
  failed_payments: 0,
  by_method: {
    匯款: { count: 1, amount: 3_000 },
    現金: { count: 1, amount: 500 },
    刷卡: { count: 0, amount: 0 },
    電子支付: { count: 0, amount: 0 },
  },
};
const quiet = emptyStoreStats({ id: 3, name: '台中店', code: 'TXG' });

describe('emptyStoreStats', () => {
  it('is a store with no payments yet', () => {
    expect(quiet).toEqual({
      store_id: 3,
      store_name: '台中店',
      store_code: 'TXG',
      total_payments: 0,
      total_amount: 0,
      confirmed_payments: 0,
      pending_payments: 0,
      failed_payments: 0,
      by_method: {
        匯款: { count: 0, amount: 0 },
        現金: { count: 0, amount: 0 },
        刷卡: { count: 0, amount: 0 },
        電子支付: { count: 0, amount: 0 },
      },
    });
  });
});

describe('summarize: the dashboard cards over per-store rows', () => {
  it('totals every store', () => {
    expect(summarize([taipei, kaohsiung, quiet])).toEqual({
      totalStores: 3,
      totalPayments: 7,
      totalAmount: 15_500,
      confirmedPayments: 3,
      byMethod: {
        匯款: { count: 4, amount: 13_000 },
        現金: { count: 2, amount: 2_000 },
        刷卡: { count: 0, amount: 0 },
        電子支付: { count: 1, amount: 500 },
      },
      storeStats: [taipei, kaohsiung, quiet],
    });
  });

  it('treats a null store id as all stores', () => {
    expect(summarize([taipei, kaohsiung], null).totalPayments).toBe(7);
  });

  it('narrows to the chosen store', () => {
    expect(summarize([taipei, kaohsiung, quiet], 2)).toEqual({
      totalStores: 1,
      totalPayments: 2,
      totalAmount: 3_500,
      confirmedPayments: 0,
      byMethod: kaohsiung.by_method,
      storeStats: [kaohsiung],
    });
  });

  it('is all zeros for a store with no row, or no stores at all', () => {
    const zero = {
      totalStores: 0,
      totalPayments: 0,
      totalAmount: 0,
      confirmedPayments: 0,
      byMethod: emptyMethodTotals(),
      storeStats: [],
    };
    expect(summarize([taipei], 99)).toEqual(zero);
    expect(summarize([])).toEqual(zero);
  });
});

describe('chart series', () => {
  const next = (d: string, n: number) =>
    new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  it('lists every day of the range, across a month end', () => {
    expect(daysBetween('2026-11-29', '2026-12-02', next)).toEqual([
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
    ]);
    expect(daysBetween('2026-11-20', '2026-11-20', next)).toEqual(['2026-11-20']);
  });
  it('gives each store an amount for every day, 0 where nothing was paid, ignoring days and stores outside', () => {
    const days = ['2026-11-20', '2026-11-21', '2026-11-22'];
    const rows = [
      { store_id: 1, day: '2026-11-21', amount: 500 },
      { store_id: 1, day: '2026-11-21', amount: 250 },
      { store_id: 2, day: '2026-11-22', amount: 9 },
      { store_id: 3, day: '2026-11-21', amount: 1000 },
      { store_id: 1, day: '2026-11-19', amount: 7 },
    ];
    expect(dailySeries([1, 2], days, rows)).toEqual([
      { store_id: 1, amounts: [0, 750, 0] },
      { store_id: 2, amounts: [0, 0, 9] },
    ]);
  });
});
