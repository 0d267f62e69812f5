import { describe, expect, it } from 'vitest';
import { reasonText, type Reason } from './reasons.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** Every code with the exact words a person reads (the spec's); the type makes a new code list its own. */
const WORDS: { [C in Reason['code']]: Array<[Extract<Reason, { code: C }>, string]> } = {
  amount: [[{ code: 'amount' }, '金額相符']],
  digits_equal: [
    [{ code: 'digits_equal', visible: 5 }, '後五碼相符'],
    [{ code: 'digits_equal', visible: 3 }, '可見後 3 碼相符'],
  ],
  digits_typo: [
    [{ code: 'digits_typo', visible: 5, kind: 'one' }, '後五碼可能打錯（1 碼不同）'],
    [{ code: 'digits_typo', visible: 4, kind: 'swap' }, '可見後 4 碼可能打錯（相鄰兩碼對調）'],
  ],
  digits_different: [
    [{ code: 'digits_different', visible: 5 }, '後五碼不符'],
    [{ code: 'digits_different', visible: 3 }, '可見後 3 碼不符'],
  ],
  no_account: [[{ code: 'no_account' }, '無帳號資訊']],
  day_gap: [
    [{ code: 'day_gap', days: 0 }, '同一天入帳（對帳單無時間）'],
    [{ code: 'day_gap', days: 2 }, '隔 2 天入帳（對帳單無時間）'],
    [{ code: 'day_gap', days: -1 }, '入帳日早 1 天（對帳單無時間）'],
  ],
  time_gap: [
    [{ code: 'time_gap', ms: 12 * MIN }, '時間相差 12 分鐘'],
    [{ code: 'time_gap', ms: HOUR }, '時間相差 1 小時'],
    [{ code: 'time_gap', ms: 5 * HOUR + 40 * MIN }, '時間相差 6 小時'],
    [{ code: 'time_gap', ms: DAY }, '時間相差 1 天'],
    [{ code: 'time_gap', ms: 2 * DAY + 12 * HOUR + 40 * MIN }, '時間相差 3 天'],
  ],
  note: [[{ code: 'note' }, '備註相符']],
  payer_memory_same: [[{ code: 'payer_memory_same' }, '付款人記錄相符']],
  payer_memory_other: [
    [{ code: 'payer_memory_other', fives: ['12345', '67890'] }, '付款人記錄的後五碼為 12345、67890'],
  ],
  payer_name_same: [[{ code: 'payer_name_same' }, '同名付款人本月入帳的後五碼相符']],
  payer_name_other: [[{ code: 'payer_name_other', fives: ['12345'] }, '同名付款人本月入帳的後五碼為 12345']],
  settled: [
    [{ code: 'settled', by: 'payer' }, '付款人記錄只有這個後五碼'],
    [{ code: 'settled', by: 'alone' }, '入帳時間範圍內唯一同金額的入帳與回報'],
  ],
  reports_sum: [[{ code: 'reports_sum', count: 3 }, '3 筆回報合計金額相符']],
  credits_sum: [[{ code: 'credits_sum', count: 2 }, '2 筆入帳合計金額相符']],
  same_last_five: [[{ code: 'same_last_five' }, '後五碼相同']],
  shows_last_five: [[{ code: 'shows_last_five' }, '後五碼相符']],
  no_account_close: [[{ code: 'no_account_close' }, '入帳無帳號資訊，時間相近']],
};

describe('reasonText', () => {
  it.each(Object.values(WORDS).flat())('%o reads %s', (reason, text) => {
    expect(reasonText(reason)).toBe(text);
  });
});
