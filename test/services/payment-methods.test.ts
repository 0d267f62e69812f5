/**
 * a payment's method as the API takes
 * it (validated on the server, whatever the page checked), its first status, the list's filters,
 * a corrected method, and the statistics by method from the per-day figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError,
  createPayment,
  listPayments,
  statsSummary,
  systemActor,
  updatePayment,
  type ServiceContext,
} from '../../core/index.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from '../helpers/db.js';
import { seed, type Fixture } from '../helpers/fixtures.js';

async function refusal(p: Promise<unknown>): Promise<{ name: string; fields: Record<string, string> }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) {
      const errors = (err as { errors?: Array<{ field: string; message: string }> }).errors ?? [];
      return { name: err.constructor.name, fields: Object.fromEntries(errors.map((e) => [e.field, e.message])) };
    }
    throw err;
  }
  throw new Error('expected a refusal');
}

describe.each(DB_KINDS)('payment methods on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let admin: ServiceContext;
  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    admin = { db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
  });
  afterAll(() => t?.cleanup());

  it('stores each method with its first status, and the payment carries method, sub-type and 員工購物 only when set', async () => {
    const A = f.stores.A.id;
    const transfer = await createPayment(admin, {
      last_five: '12345',
      paid_at: '2026-11-10T10:00',
      amount: 1500,
      store_id: A,
    });
    expect(transfer).toMatchObject({ method: '匯款', status: '未確認', last_five: '12345' });
    expect('method_detail' in transfer || 'employee' in transfer).toBe(false);
    const cash = await createPayment(admin, { method: '現金', paid_at: '2026-11-10T11:00', amount: 300, store_id: A });
    expect(cash).toMatchObject({ method: '現金', status: '已入帳', last_five: '' });
    const card = await createPayment(admin, {
      method: '刷卡',
      paid_at: '2026-11-10T11:00',
      amount: 300,
      store_id: A,
      employee: true,
    });
    expect(card).toMatchObject({ method: '刷卡', status: '已入帳', employee: true });
    const epay = await createPayment(admin, {
      method: '電子支付',
      method_detail: '街口支付',
      paid_at: '2026-11-10T12:00',
      amount: 450,
      store_id: A,
    });
    expect(epay).toMatchObject({ method: '電子支付', method_detail: '街口支付', status: '已入帳' });
  });

  it('refuses on the server what the form would: an unknown method, a last five on cash, a sub-type on card, a transfer without last five', async () => {
    const A = f.stores.A.id;
    const base = { paid_at: '2026-11-10T10:00', amount: 100, store_id: A };
    expect(await refusal(createPayment(admin, { ...base, method: 'cash', last_five: '12345' }))).toEqual({
      name: 'ValidationError',
      fields: { method: '付款方式必須是 匯款、現金、刷卡 或 電子支付' },
    });
    expect(await refusal(createPayment(admin, { ...base, method: '現金', last_five: '12345' }))).toEqual({
      name: 'ValidationError',
      fields: { last_five: '現金不需要帳號後五碼，請留空（只有匯款需要）' },
    });
    expect(await refusal(createPayment(admin, { ...base, method: '刷卡', method_detail: 'LINE Pay' }))).toEqual({
      name: 'ValidationError',
      fields: { method_detail: '只有電子支付可以填寫電子支付類型' },
    });
    expect(await refusal(createPayment(admin, { ...base, method: '匯款' }))).toEqual({
      name: 'ValidationError',
      fields: { last_five: '請輸入帳號後五碼' },
    });
    expect(await refusal(createPayment(admin, { ...base, method: '現金', employee: 'yes' }))).toEqual({
      name: 'ValidationError',
      fields: { employee: '員工購物必須是 是 或 否（true 或 false）' },
    });
  });

  it('filters the list by method and 員工購物, and counts by whole days from the per-day figures', async () => {
    const day = { paid_at_gte: '2026-11-10', paid_at_lte: '2026-11-10' };
    const methods = async (filter: Record<string, unknown>) =>
      (await listPayments(admin, { filter: { ...day, ...filter } })).rows.map((p) => p.method).sort();
    expect(await methods({ method: '現金' })).toEqual(['現金']);
    expect(await methods({ method: ['刷卡', '電子支付'] })).toEqual(['刷卡', '電子支付']);
    expect(await methods({ employee: true })).toEqual(['刷卡']);
    expect((await listPayments(admin, { filter: { ...day, method: '匯款' } })).total).toBe(1);
    expect(await refusal(listPayments(admin, { filter: { method: 'cash' } }))).toMatchObject({
      name: 'ValidationError',
    });
  });

  it('splits the statistics by method, per store and in total', async () => {
    const s = await statsSummary(admin, { from: '2026-11-10', to: '2026-11-10' });
    expect(s.byMethod).toEqual({
      匯款: { count: 1, amount: 1500 },
      現金: { count: 1, amount: 300 },
      刷卡: { count: 1, amount: 300 },
      電子支付: { count: 1, amount: 450 },
    });
    const a = s.storeStats.find((x) => x.store_id === f.stores.A.id)!;
    expect(a.by_method.現金).toEqual({ count: 1, amount: 300 });
    // a range with a time of day is summed from the payments, the same way
    const part = await statsSummary(admin, { from: '2026-11-10T10:30', to: '2026-11-10T23:59' });
    expect(part.byMethod.匯款.count).toBe(0);
    expect(part.byMethod.電子支付.amount).toBe(450);
  });

  it('corrects a method: to 匯款 with a last five (未確認), away from it without, and the figures move', async () => {
    const cash = (await listPayments(admin, { filter: { method: '現金' } })).rows[0];
    expect(await refusal(updatePayment(admin, cash.uuid, { method: '匯款' }))).toEqual({
      name: 'ValidationError',
      fields: { last_five: '請輸入帳號後五碼' },
    });
    const now = await updatePayment(admin, cash.uuid, { method: '匯款', last_five: '67890' });
    expect(now).toMatchObject({ method: '匯款', last_five: '67890', status: '未確認' });
    const back = await updatePayment(admin, cash.uuid, { method: '現金' });
    expect(back).toMatchObject({ method: '現金', last_five: '', status: '已入帳' });
    const epay = (await listPayments(admin, { filter: { method: '電子支付' } })).rows[0];
    expect(await updatePayment(admin, epay.uuid, { method_detail: 'LINE Pay', employee: true })).toMatchObject({
      method_detail: 'LINE Pay',
      employee: true,
    });
    expect((await statsSummary(admin, { from: '2026-11-10', to: '2026-11-10' })).byMethod.現金).toEqual({
      count: 1,
      amount: 300,
    });
  });
});
