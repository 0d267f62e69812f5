import { describe, expect, it } from 'vitest';
import { MSG, paymentTexts } from '../messages.js';
import { DAY_MS } from '../time.js';
import {
  checkLastFive,
  paidAtNeedsConfirm,
  parseAmount,
  parseNote,
  parsePaidAt,
  parseStatus,
  validateMethod,
  validatePayment,
} from './validate.js';

/** A payment that passes every rule; each test breaks one field. */
const good = { last_five: '12345', paid_at: '2026-11-18T01:15:00.000Z', amount: 1500, note: '', store_id: 2 };

function fieldErrors(raw: unknown, opts?: { storeRequired?: boolean; now?: number }): Record<string, string> {
  const r = validatePayment(raw, opts);
  if (r.ok) return {};
  return Object.fromEntries(r.errors.map((e) => [e.field, e.message]));
}

describe('validatePayment: a valid submission', () => {
  it('accepts a complete payment and returns the normalised values', () => {
    const r = validatePayment(good);
    expect(r).toEqual({
      ok: true,
      value: {
        method: '匯款',
        method_detail: null,
        employee: false,
        last_five: '12345',
        paid_at: Date.parse('2026-11-18T01:15:00.000Z'),
        amount: 1500,
        note: '',
        store_id: 2,
      },
    });
  });

  it('takes 匯款 when no method is sent, and asks only a transfer for the last five', () => {
    const cash = validatePayment({ ...good, method: '現金', last_five: undefined });
    expect(cash).toMatchObject({
      ok: true,
      value: { method: '現金', last_five: '', method_detail: null, employee: false },
    });
    expect(validatePayment({ ...good, method: '刷卡', last_five: '', employee: true })).toMatchObject({
      ok: true,
      value: { method: '刷卡', last_five: '', employee: true },
    });
    expect(fieldErrors({ ...good, method: '匯款', last_five: '' })).toEqual({ last_five: MSG.lastFiveRequired });
    expect(fieldErrors({ ...good, method: '現金', last_five: '12345' })).toEqual({
      last_five: '現金不需要帳號後五碼，請留空（只有匯款需要）',
    });
  });

  it('keeps an e-payment sub-type, refuses one on another method, and refuses an unknown method naming the four', () => {
    expect(validatePayment({ ...good, method: '電子支付', last_five: '', method_detail: ' LINE Pay ' })).toMatchObject({
      ok: true,
      value: { method: '電子支付', method_detail: 'LINE Pay' },
    });
    expect(fieldErrors({ ...good, method: '現金', last_five: '', method_detail: 'LINE Pay' })).toEqual({
      method_detail: '只有電子支付可以填寫電子支付類型',
    });
    expect(fieldErrors({ ...good, method: '電子支付', last_five: '', method_detail: 'x'.repeat(31) })).toEqual({
      method_detail: '電子支付類型不能超過30個字元',
    });
    expect(fieldErrors({ ...good, method: '電子支付', last_five: '', method_detail: 'a,b' })).toEqual({
      method_detail: '電子支付類型不能有半形逗號或換行',
    });
    expect(fieldErrors({ ...good, method: 'cash' })).toEqual({ method: '付款方式必須是 匯款、現金、刷卡 或 電子支付' });
    expect(fieldErrors({ ...good, employee: 'yes' })).toEqual({ employee: '員工購物必須是 是 或 否（true 或 false）' });
  });

  it('reports every broken field at once, each with its own message', () => {
    const errors = fieldErrors({ last_five: '', paid_at: '', amount: '', note: 5 });
    expect(errors).toEqual({
      last_five: MSG.lastFiveRequired,
      paid_at: MSG.paidAtRequired,
      amount: MSG.amountRequired,
      note: MSG.noteType,
    });
  });

  it("words the time and amount by the method: the spec's 匯款時間 and 匯款金額 for a transfer, 時間 and 金額 for takings in hand", () => {
    expect(fieldErrors({ method: '匯款', last_five: '12345', paid_at: '', amount: '' })).toEqual({
      paid_at: '請選擇匯款時間',
      amount: '請輸入匯款金額',
    });
    for (const method of ['現金', '刷卡', '電子支付']) {
      expect(fieldErrors({ method, paid_at: '', amount: '' })).toEqual({ paid_at: '請選擇時間', amount: '請輸入金額' });
      expect(fieldErrors({ ...good, method, last_five: '', amount: 0 })).toEqual({ amount: '金額至少為 1' });
      expect(fieldErrors({ ...good, method, last_five: '', amount: 'abc' })).toEqual({ amount: '金額必須是數字' });
      expect(fieldErrors({ ...good, method, last_five: '', amount: 1.5 })).toEqual({
        amount: '金額必須是整數（新台幣元）',
      });
      expect(fieldErrors({ ...good, method, last_five: '', amount: 1e20 })).toEqual({
        amount: '金額不能超過 NT$100,000,000',
      });
      expect(fieldErrors({ ...good, method, last_five: '', paid_at: '1900-01-01T00:00' })).toEqual({
        paid_at: '時間不合理，請確認日期',
      });
      expect(
        fieldErrors(
          { ...good, method, last_five: '', paid_at: '2026-11-20T12:00:00.000Z' },
          { now: Date.parse('2026-11-18T12:00:00.000Z') },
        ),
      ).toEqual({ paid_at: '時間不能晚於現在超過一天，請確認日期與時間' });
    }
    // a method not understood is said once; the time and amount keep the transfer's words
    expect(fieldErrors({ method: 'cash', paid_at: '', amount: '' })).toMatchObject({
      paid_at: '請選擇匯款時間',
      amount: '請輸入匯款金額',
    });
    expect(paymentTexts('現金').confirmPaidAtAhead('2026/11/20 12:00')).toBe(
      '時間 2026/11/20 12:00 晚於現在，確定沒有填錯嗎？',
    );
    expect(paymentTexts(undefined).confirmPaidAtOld('2016/11/21 15:30', 3652)).toBe(
      '匯款時間 2016/11/21 15:30 是 3652 天前，確定沒有填錯嗎？',
    );
  });

  it("validateMethod alone (the back office's 修改付款方式): the form's rule for the method part", () => {
    expect(validateMethod({ method: '匯款', last_five: ' 54321 ' })).toEqual({
      ok: true,
      value: { method: '匯款', method_detail: null, employee: false, last_five: '54321' },
    });
    expect(validateMethod({ method: '電子支付', method_detail: '街口支付', employee: true, last_five: '' })).toEqual({
      ok: true,
      value: { method: '電子支付', method_detail: '街口支付', employee: true, last_five: '' },
    });
    expect(validateMethod({ method: '匯款', last_five: '' })).toMatchObject({
      ok: false,
      errors: [{ field: 'last_five', message: MSG.lastFiveRequired }],
    });
    expect(validateMethod({ method: '刷卡', method_detail: 'LINE Pay' })).toMatchObject({
      ok: false,
      errors: [{ field: 'method_detail', message: '只有電子支付可以填寫電子支付類型' }],
    });
  });

  it('refuses a body that is not an object', () => {
    for (const raw of [null, undefined, 'text', 42, [good]]) {
      const r = validatePayment(raw);
      expect(r.ok).toBe(false);
    }
  });
});

describe('last_five: required, exactly 5 digits', () => {
  it('is required', () => {
    expect(fieldErrors({ ...good, last_five: undefined }).last_five).toBe(MSG.lastFiveRequired);
    expect(fieldErrors({ ...good, last_five: '' }).last_five).toBe(MSG.lastFiveRequired);
    expect(fieldErrors({ ...good, last_five: '   ' }).last_five).toBe(MSG.lastFiveRequired);
    expect(fieldErrors({ ...good, last_five: null }).last_five).toBe(MSG.lastFiveRequired);
  });

  it('keeps leading zeros', () => {
    const r = validatePayment({ ...good, last_five: '00123' });
    expect(r.ok && r.value.last_five).toBe('00123');
  });

  it.each(['1234', '123456', 'abcde', '12a45', '12 45', '１２３４', '-1234', '1234.'])('refuses %j', (v) => {
    expect(fieldErrors({ ...good, last_five: v }).last_five).toBe(MSG.lastFiveFormat);
  });

  it('reads full-width digits (a phone keyboard types them) as ASCII, in the last five and the amount', () => {
    const r = validatePayment({ ...good, last_five: '０１２３４', amount: '１２００' });
    expect(r.ok && [r.value.last_five, r.value.amount]).toEqual(['01234', 1200]);
    expect(checkLastFive('１２３４５')).toBeNull();
    expect(parseAmount('１５００').value).toBe(1500);
    // still five digits, and still a whole amount
    expect(fieldErrors({ ...good, last_five: '１２３４' }).last_five).toBe(MSG.lastFiveFormat);
    expect(fieldErrors({ ...good, amount: '１２．５' }).amount).toBeDefined();
  });

  it('refuses digits sent as a number (leading zeros would be lost)', () => {
    expect(fieldErrors({ ...good, last_five: 12345 }).last_five).toBe(MSG.lastFiveFormat);
    expect(checkLastFive(12345)).toBe(MSG.lastFiveFormat);
  });

  it('checkLastFive accepts exactly five digits', () => {
    expect(checkLastFive('98765')).toBeNull();
    expect(checkLastFive('')).toBe(MSG.lastFiveRequired);
  });

  it('the messages say what is wrong', () => {
    expect(MSG.lastFiveFormat).toContain('5');
    expect(MSG.lastFiveFormat).toContain('後五碼');
    expect(MSG.lastFiveRequired).toContain('後五碼');
  });
});

describe('paid_at: required, a real time, Taiwan time when no zone is given', () => {
  it('is required', () => {
    expect(fieldErrors({ ...good, paid_at: undefined }).paid_at).toBe(MSG.paidAtRequired);
    expect(fieldErrors({ ...good, paid_at: '' }).paid_at).toBe(MSG.paidAtRequired);
    expect(parsePaidAt(null)).toEqual({ error: MSG.paidAtRequired });
  });

  it('accepts an ISO instant with a zone', () => {
    expect(parsePaidAt('2026-11-18T01:15:00.000Z')).toEqual({ value: Date.parse('2026-11-18T01:15:00.000Z') });
    expect(parsePaidAt('2026-11-18T09:15:00+08:00')).toEqual({ value: Date.parse('2026-11-18T01:15:00.000Z') });
  });

  it('reads a datetime-local value (no zone) as Taiwan time', () => {
    const r = validatePayment({ ...good, paid_at: '2026-11-18T09:15' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(new Date(r.value.paid_at).toISOString()).toBe('2026-11-18T01:15:00.000Z');
  });

  it('reads an early-morning Taiwan time as the previous UTC day', () => {
    const r = parsePaidAt('2026-11-18T07:59');
    expect(new Date(r.value!).toISOString()).toBe('2026-11-17T23:59:00.000Z');
  });

  it.each(['2026-02-30', '2026-02-30T10:00', 'abc', '2026-13-01T00:00', '2026-11-18T25:00', '18/11/2026'])(
    'refuses the invalid date %j',
    (v) => {
      expect(fieldErrors({ ...good, paid_at: v }).paid_at).toBe(MSG.paidAtInvalid);
    },
  );

  it.each(['2026-02-30T10:00:00Z', '2026-02-30T10:00:00+08:00', '2026-04-31T00:00:00.000Z'])(
    'refuses the impossible calendar date %j even with a zone (it must not roll over to the next month)',
    (v) => {
      expect(parsePaidAt(v)).toEqual({ error: MSG.paidAtInvalid });
    },
  );

  it('refuses a time that is not text', () => {
    expect(fieldErrors({ ...good, paid_at: 1_795_000_000_000 }).paid_at).toBe(MSG.paidAtInvalid);
    expect(fieldErrors({ ...good, paid_at: {} }).paid_at).toBe(MSG.paidAtInvalid);
  });

  it('refuses a year typo far outside any real payment time', () => {
    expect(parsePaidAt('1900-01-01T00:00')).toEqual({ error: MSG.paidAtOutOfRange });
    expect(parsePaidAt('2126-01-01T00:00')).toEqual({ error: MSG.paidAtOutOfRange });
  });
});

describe('amount: required, numeric, at least 1, whole NT$', () => {
  it('is required', () => {
    expect(fieldErrors({ ...good, amount: undefined }).amount).toBe(MSG.amountRequired);
    expect(fieldErrors({ ...good, amount: '' }).amount).toBe(MSG.amountRequired);
    expect(fieldErrors({ ...good, amount: null }).amount).toBe(MSG.amountRequired);
  });

  it('accepts a whole number and its text', () => {
    expect(parseAmount(1)).toEqual({ value: 1 });
    expect(parseAmount(1500)).toEqual({ value: 1500 });
    expect(parseAmount('1500')).toEqual({ value: 1500 });
    const r = validatePayment({ ...good, amount: '1500' });
    expect(r.ok && r.value.amount).toBe(1500);
  });

  it.each([0, -5, '0', '-5', 0.5])('refuses %j as below the minimum of 1', (v) => {
    expect(fieldErrors({ ...good, amount: v }).amount).toBe(MSG.amountMin);
  });

  it('refuses a fraction of a dollar', () => {
    expect(fieldErrors({ ...good, amount: 1.5 }).amount).toBe(MSG.amountInteger);
    expect(fieldErrors({ ...good, amount: '1.5' }).amount).toBe(MSG.amountInteger);
  });

  it.each(['abc', '12abc', '1,500', NaN, Infinity, true, {}, []])('refuses the non-number %j', (v) => {
    expect(fieldErrors({ ...good, amount: v }).amount).toBe(MSG.amountNumeric);
  });

  it('refuses an absurdly large amount such as 1e20', () => {
    expect(fieldErrors({ ...good, amount: 1e20 }).amount).toBe(MSG.amountMax);
    expect(fieldErrors({ ...good, amount: '1e20' }).amount).toBe(MSG.amountMax);
  });

  it('accepts the largest allowed amount and refuses one more', () => {
    expect(parseAmount(100_000_000)).toEqual({ value: 100_000_000 });
    expect(parseAmount(100_000_001)).toEqual({ error: MSG.amountMax });
  });
});

describe('note: optional, text, at most 1000 characters', () => {
  it('is optional', () => {
    const { note: _omit, ...withoutNote } = good;
    const r = validatePayment(withoutNote);
    expect(r.ok && r.value.note).toBe('');
    expect(parseNote(null)).toEqual({ value: '' });
  });

  it('keeps a note of exactly 1000 characters', () => {
    const note = '備'.repeat(1000);
    const r = validatePayment({ ...good, note });
    expect(r.ok && r.value.note).toBe(note);
  });

  it('refuses 1001 or 5000 characters', () => {
    expect(fieldErrors({ ...good, note: 'x'.repeat(1001) }).note).toBe(MSG.noteTooLong);
    expect(fieldErrors({ ...good, note: 'x'.repeat(5000) }).note).toBe(MSG.noteTooLong);
    expect(MSG.noteTooLong).toContain('1000');
  });

  it('refuses a note that is not text', () => {
    for (const v of [5, true, {}, ['a']]) expect(fieldErrors({ ...good, note: v }).note).toBe(MSG.noteType);
  });
});

describe('store_id: optional for the server, required on the form when the select is shown', () => {
  it('is null when none is sent (the service then falls back)', () => {
    const { store_id: _omit, ...withoutStore } = good;
    const r = validatePayment(withoutStore);
    expect(r.ok && r.value.store_id).toBeNull();
    const blank = validatePayment({ ...good, store_id: '' });
    expect(blank.ok && blank.value.store_id).toBeNull();
  });

  it('is required when storeRequired is set', () => {
    expect(fieldErrors({ ...good, store_id: '' }, { storeRequired: true }).store_id).toBe(MSG.storeRequired);
    expect(fieldErrors({ ...good, store_id: undefined }, { storeRequired: true }).store_id).toBe(MSG.storeRequired);
    expect(fieldErrors({ ...good, store_id: 3 }, { storeRequired: true })).toEqual({});
  });

  it('accepts a store id as a number or the text a select sends', () => {
    const r = validatePayment({ ...good, store_id: '3' });
    expect(r.ok && r.value.store_id).toBe(3);
  });

  it.each([0, -1, 1.5, 'abc', true])('refuses the malformed store id %j', (v) => {
    expect(fieldErrors({ ...good, store_id: v }).store_id).toBe(MSG.storeInvalid);
  });
});

describe('parseStatus', () => {
  it('accepts the three statuses and refuses anything else', () => {
    for (const s of ['未確認', '已入帳', '未入帳']) expect(parseStatus(s)).toEqual({ value: s });
    for (const s of ['已點收', '', 'pending', null]) expect(parseStatus(s)).toEqual({ error: MSG.statusInvalid });
  });
});

describe('payment times a person mistyped', () => {
  const now = Date.parse('2026-11-23T02:15:00.000Z'); // 10:15 in Taipei
  const at = (iso: string) => fieldErrors({ ...good, paid_at: iso }, { now });

  it('the server refuses a time more than a day ahead, and takes one just under a day ahead', () => {
    expect(at('2026-11-24T02:16:00.000Z')).toEqual({ paid_at: '匯款時間不能晚於現在超過一天，請確認日期與時間' });
    expect(at('2027-11-23T02:15:00.000Z').paid_at).toBe(MSG.paidAtTooFarAhead);
    expect(at('2026-11-24T02:14:00.000Z')).toEqual({});
    // without a clock (an import of an old file) the time is kept as written
    expect(validatePayment({ ...good, paid_at: '2027-11-23T02:15:00.000Z' }).ok).toBe(true);
  });

  it('the form asks about a time a few minutes ahead or more than 60 days back, not about an ordinary one', () => {
    expect(paidAtNeedsConfirm(now + 4 * 60_000, now)).toBeNull();
    expect(paidAtNeedsConfirm(now + 6 * 60_000, now)).toEqual({ ahead: true });
    expect(paidAtNeedsConfirm(now - 60 * DAY_MS, now)).toBeNull();
    expect(paidAtNeedsConfirm(Date.parse('2016-11-23T02:15:00.000Z'), now)).toEqual({ daysBack: 3652 });
  });
});
