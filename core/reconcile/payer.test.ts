import { describe, expect, it } from 'vitest';
import { accountIn, nameIn, payerOf, payerKey } from './payer.js';

/** [counterparty column, free texts (備註, 附註, 轉帳留言, 摘要), payer, digits] */
const CASES: Array<[string, string[], string, string]> = [
  // accounts in a note, masked or whole, as banks without a counterparty column write them
  ['', ['***12345'], '***12345', '12345'],
  ['', ['822-****-12345'], '822****12345', '12345'],
  ['', ['0008 000077720XXXX736'], '0008000077720****736', '736'],
  ['', ['0008 000077720xxxx736'], '0008000077720****736', '736'],
  ['', ['跨行轉入 ***12345'], '***12345', '12345'],
  ['', ['跨行轉入***12345'], '***12345', '12345'],
  ['', ['ATM轉入 0081234567890123'], '81234567890123', '90123'],
  ['', ['＊＊＊１２３４５'], '***12345', '12345'],
  ['', ['×××12345'], '***12345', '12345'],
  ['', ['822 1234567890123'], '8221234567890123', '90123'],
  ['', ['822-123-4567890'], '8221234567890', '67890'],
  ['', ['0081234567890123 王小明'], '81234567890123', '90123'],
  ['', ['王小明 ***12345'], '***12345', '12345'],
  ['', ['822-1234****'], '8221234****', ''],
  // the first note holding an account wins; the summary column is read last
  ['', ['貨款', '轉帳留言 ***54321', '跨行轉入'], '***54321', '54321'],
  ['', ['', '', '***12345'], '***12345', '12345'],
  // a name alone is not digits
  ['', ['王小明'], '王小明', ''],
  ['', ['轉入 王小明'], '王小明', ''],
  ['', ['跨行轉入 陳美玲'], '陳美玲', ''],
  ['', ['歐陽娜娜'], '歐陽娜娜', ''],
  ['', ['', '跨行轉入'], '', ''],
  // what is no account and no name: amounts, dates, times, phones, order numbers, words
  ['', ['貨款'], '', ''],
  ['', ['訂金 1500'], '', ''],
  ['', ['1,500元'], '', ''],
  ['', ['12345'], '', ''],
  ['', ['2026/11/05 14:03'], '', ''],
  ['', ['20261105140322'], '', ''],
  ['', ['1151105 140322'], '', ''],
  ['', ['0912-345-678'], '', ''],
  ['', ['0912345678'], '', ''],
  ['', ['+886912345678'], '', ''],
  ['', ['02-2345-6789'], '', ''],
  ['', ['(02)23456789'], '', ''],
  ['', ['1500 0912345678'], '', ''],
  ['', ['4111 1111 1111 1111'], '', ''],
  ['', ['2026-11-05 0912345678'], '', ''],
  ['', ['訂單 20261105001'], '', ''],
  ['', ['訂單編號 123456789012'], '', ''],
  ['', ['單號:123456789012'], '', ''],
  ['', ['A123456789012'], '', ''],
  ['', ['XXL 12'], '', ''],
  ['', ['**重要**'], '', ''],
  ['', ['利息'], '', ''],
  ['', ['手續費'], '', ''],
  ['', ['ATM轉帳'], '', ''],
  ['', ['謝謝老闆'], '', ''],
  // the counterparty column wins when it shows digits, however few
  ['900047****7012', ['***12345'], '900047****7012', '7012'],
  ['****12345', [], '****12345', '12345'],
  ['822/****1234567', [], '822****1234567', '34567'],
  ['0008 0000****12345', [], '00080000****12345', '12345'],
  ['0130000123412345', [], '130000123412345', '12345'],
  // a counterparty column holding a name: the name is the payer unless a note shows an account
  ['王大同', [], '王大同', ''],
  ['王 大同', ['貨款'], '王大同', ''],
  ['王大同', ['***12345'], '***12345', '12345'],
  ['', [], '', ''],
];

describe('payerOf', () => {
  it.each(CASES)('counterparty %j, notes %j → payer %j, digits %j', (counterparty, texts, payer, digits) => {
    expect(payerOf(counterparty, texts)).toEqual({ payer, digits });
  });

  it('reads the same payer the same way on every line of a bank', () => {
    const a = payerOf('', ['跨行轉入 0008 000077720XXXX736']);
    const b = payerOf('', ['0008-000077720-XXXX-736']);
    expect(a).toEqual(b);
  });
});

describe('accountIn and nameIn', () => {
  it('finds the first account-shaped token only', () => {
    expect(accountIn('訂單 A12 付款 ***12345 謝謝')).toBe('***12345');
    expect(accountIn('電話 0912345678 帳號 0081234567890123')).toBe('0081234567890123');
    expect(accountIn('金額 1,500 時間 14:03:22')).toBeNull();
  });

  it('takes a 2–4 character name starting with a common surname, nothing else', () => {
    expect(nameIn('王小明')).toBe('王小明');
    expect(nameIn('ATM 林志玲 轉入')).toBe('林志玲');
    expect(nameIn('王小明的店')).toBeNull();
    expect(nameIn('小明')).toBeNull();
    expect(nameIn('張三豐先生好')).toBeNull();
    expect(nameIn('費用')).toBeNull();
  });
});

describe('payerKey', () => {
  it('is one payer however a spreadsheet program re-saved a whole account; masks and names stay', () => {
    expect(payerOf('', ['0081234500027182']).payer).toBe(payerOf('', ['81234500027182']).payer);
    expect(payerKey('0081234500027182')).toBe('81234500027182');
    expect(payerKey('822****12345')).toBe('822****12345');
    expect(payerKey('***00123')).toBe('***00123');
    expect(payerKey('陳美玲')).toBe('陳美玲');
    expect(payerKey('0')).toBe('0');
  });
});
