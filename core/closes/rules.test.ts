import { describe, expect, it } from 'vitest';
import { parseInstant } from '../time.js';
import {
  carriedOpening,
  cashDifference,
  dayCash,
  denominationTotal,
  runningCash,
  validateCashOut,
  validateClose,
  type CashOutEntry,
  type CloseRef,
  type TakingEntry,
} from './rules.js';

const at = (text: string) => parseInstant(text)!;
const pay = (time: string, amount: number, method: string, employee = false): TakingEntry => ({
  paid_at: at(time),
  amount,
  method,
  employee,
});
const out = (time: string, amount: number, kind: '店內支出' | '提領'): CashOutEntry => ({ at: at(time), amount, kind });

describe('expected cash of a day', () => {
  it('opening + cash takings − 店內支出 − 提領, with the other methods beside it and not in the drawer', () => {
    const d = dayCash(
      '2026-11-20',
      5000,
      [
        pay('2026-11-20T10:00', 1200, '現金'),
        pay('2026-11-20T11:00', 800, '刷卡'),
        pay('2026-11-20T12:00', 3000, '匯款'),
        pay('2026-11-20T13:00', 450, '電子支付'),
      ],
      [out('2026-11-20T14:00', 300, '店內支出'), out('2026-11-20T18:00', 2000, '提領')],
    );
    expect(d).toEqual({
      date: '2026-11-20',
      opening: 5000,
      by_method: { 匯款: 3000, 現金: 1200, 刷卡: 800, 電子支付: 450 },
      cash_in: 1200,
      cash_out: 2300,
      expense: 300,
      withdrawal: 2000,
      expected: 3900,
    });
    expect(cashDifference(4000, d.expected!)).toBe(100); // 溢: more in the drawer than expected
    expect(cashDifference(3850, d.expected!)).toBe(-50); // 短
  });

  it('carries the opening forward from the previous close that stands', () => {
    const closes: CloseRef[] = [
      { date: '2026-11-18', state: 'closed', counted: 4100 },
      { date: '2026-11-19', state: 'closed', counted: 5000 },
      { date: '2026-11-21', state: 'closed', counted: 9999 },
    ];
    expect(carriedOpening(closes, '2026-11-20')).toEqual({ from: '2026-11-19', opening: 5000 });
    // a gap: the day after an unclosed day still opens with the last close's count
    expect(carriedOpening(closes.slice(0, 2), '2026-11-23')).toEqual({ from: '2026-11-19', opening: 5000 });
    // a store's first close has nothing to carry: it states its opening
    expect(carriedOpening(closes, '2026-11-18')).toBeNull();
    expect(carriedOpening([], '2026-11-20')).toBeNull();
  });

  it('a day with no entries expects its opening', () => {
    const d = dayCash('2026-11-22', 5000, [], []);
    expect(d.expected).toBe(5000);
    expect(d.by_method).toEqual({ 匯款: 0, 現金: 0, 刷卡: 0, 電子支付: 0 });
    expect(d.cash_in).toBe(0);
    expect(d.cash_out).toBe(0);
    // and without a known opening nothing is expected yet
    expect(dayCash('2026-11-22', null, [], []).expected).toBeNull();
  });

  it('a reopened day carries nothing until closed again, and its new figures count what was added', () => {
    const closes: CloseRef[] = [
      { date: '2026-11-19', state: 'closed', counted: 5000 },
      { date: '2026-11-20', state: 'reopened', counted: 3900 },
    ];
    // the day after a reopened day opens from the close before it
    expect(carriedOpening(closes, '2026-11-21')).toEqual({ from: '2026-11-19', opening: 5000 });
    // the reopened day itself keeps its own opening, and its re-close sees the entry added after reopening
    expect(carriedOpening(closes, '2026-11-20')).toEqual({ from: '2026-11-19', opening: 5000 });
    const before = dayCash('2026-11-20', 5000, [pay('2026-11-20T10:00', 1200, '現金')], []);
    const again = dayCash(
      '2026-11-20',
      5000,
      [pay('2026-11-20T10:00', 1200, '現金'), pay('2026-11-20T16:00', 300, '現金')],
      [],
    );
    expect(again.expected! - before.expected!).toBe(300);
    // closed again, it carries its count
    expect(
      carriedOpening([...closes.slice(0, 1), { date: '2026-11-20', state: 'closed', counted: 6500 }], '2026-11-21'),
    ).toEqual({ from: '2026-11-20', opening: 6500 });
  });

  it('an entry at 23:59 Taiwan time is that day, one at 00:01 is the next (UTC would say otherwise)', () => {
    const payments = [pay('2026-11-20T23:59', 100, '現金'), pay('2026-11-21T00:01', 200, '現金')];
    const outs = [out('2026-11-20T23:59', 10, '店內支出'), out('2026-11-21T00:01', 20, '提領')];
    const d20 = dayCash('2026-11-20', 0, payments, outs);
    const d21 = dayCash('2026-11-21', 0, payments, outs);
    expect([d20.cash_in, d20.cash_out, d20.expected]).toEqual([100, 10, 90]);
    expect([d21.cash_in, d21.cash_out, d21.expected]).toEqual([200, 20, 180]);
    // 23:59 Taiwan is 15:59 UTC the same date, 00:01 is 16:01 UTC the day before
    expect(new Date(payments[1].paid_at).toISOString().slice(0, 10)).toBe('2026-11-20');
  });

  it('員工購物 counts by its method: cash in the drawer, card not', () => {
    const d = dayCash(
      '2026-11-20',
      1000,
      [
        pay('2026-11-20T10:00', 250, '現金', true),
        pay('2026-11-20T11:00', 600, '刷卡', true),
        pay('2026-11-20T12:00', 100, '現金'),
      ],
      [],
    );
    expect(d.cash_in).toBe(350);
    expect(d.by_method.刷卡).toBe(600);
    expect(d.expected).toBe(1350);
  });

  it('the running cash follows the entries in time order', () => {
    const lines = runningCash(1000, [
      { at: at('2026-11-20T12:00'), cash: -300 },
      { at: at('2026-11-20T10:00'), cash: 500 },
      { at: at('2026-11-20T11:00'), cash: 0 },
    ]);
    expect(lines.map((l) => l.running)).toEqual([1500, 1500, 1200]);
    expect(runningCash(null, [{ at: 1, cash: 5 }]).map((l) => l.running)).toEqual([null]);
  });
});

describe('what a close and a cash out accept', () => {
  const today = '2026-11-20';
  it('counted by denomination, summed, and checked against a counted total when both are given', () => {
    expect(denominationTotal({ 1000: 3, 500: 1, 100: 4, 50: 1, 10: 2, 5: 1, 1: 3 })).toBe(3978);
    const v = validateClose({ date: '2026-11-20', denominations: { 1000: 3, 100: 2 } }, today);
    expect(v.ok && v.value.counted).toBe(3200);
    const bad = validateClose({ date: '2026-11-20', counted: 3000, denominations: { 1000: 3, 100: 2 } }, today);
    expect(!bad.ok && bad.errors.map((e) => e.message)).toEqual([
      '點鈔合計 NT$3,200 與點收現金 NT$3,000 不符，請再點一次',
    ]);
    const neg = validateClose({ date: '2026-11-20', denominations: { 1000: -1 } }, today);
    expect(!neg.ok && neg.errors[0].field).toBe('denominations');
    const odd = validateClose({ date: '2026-11-20', denominations: { 200: 1 } }, today);
    expect(!odd.ok && odd.errors[0].field).toBe('denominations');
  });

  it('refuses a close without a count, of a day not begun, or with a bad amount, saying why', () => {
    const v = validateClose({ date: '2026-11-21', counted: -5, opening: 'abc' }, today);
    expect(!v.ok && v.errors.map((e) => [e.field, e.message])).toEqual([
      ['date', '2026-11-21 還沒到，不能結帳'],
      ['counted', '現金金額必須是 0 到 NT$100,000,000 的整數（新台幣元）'],
      ['opening', '現金金額必須是 0 到 NT$100,000,000 的整數（新台幣元）'],
    ]);
    const none = validateClose({ date: '' }, today);
    expect(!none.ok && none.errors.map((e) => e.message)).toEqual([
      '請選擇結帳日期',
      '請輸入點收現金（抽屜裡實際的現金），或逐一填寫各面額的張數',
    ]);
    const zero = validateClose({ date: '2026-11-20', counted: '0' }, today);
    expect(zero.ok && zero.value.counted).toBe(0);
  });

  it('a 店內支出 needs its category, a 提領 none; amounts are whole NT$', () => {
    const now = at('2026-11-20T12:00');
    const e = validateCashOut({ kind: '店內支出', amount: 120, note: '垃圾袋' }, now);
    expect(!e.ok && e.errors.map((x) => x.message)).toEqual(['請填寫店內支出的項目（例如 雜支、文具用品）']);
    const w = validateCashOut({ kind: '提領', amount: '5,000', category: '雜支' }, now);
    expect(w.ok && w.value).toEqual({ kind: '提領', category: '', amount: 5000, note: '', at: null });
    const bad = validateCashOut({ kind: '借款', amount: 1.5, at: '2026-11-25T10:00' }, now);
    expect(!bad.ok && bad.errors.map((x) => x.field)).toEqual(['kind', 'amount', 'at']);
  });
});
