/**
 * Bad input never breaks the server and never writes anything: every case below is a 4xx with a
 * clear Traditional Chinese message in the `{message, errors?}` shape, no stack trace, and the
 * database (payments, users, stores, audit_log) exactly as it was before the call.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../helpers/db.js';
import { listParams, startTestServer, type ApiResponse, type TestServer } from '../helpers/server.js';

const VALIDATION = '驗證錯誤';
const MALFORMED_JSON = '請求內容不是有效的 JSON';
const ROW2 = '第 2 筆：';

/** Anything that looks like a stack frame or a source path. */
const STACK_LIKE =
  /\n\s*at |\bat [\w.<>]+ \(|(?:^|[\s"'(])\/(?:work|home|usr|tmp|app|srv)\/|node_modules|[\w-]+\.(?:ts|js|mjs|cjs):\d+/;
const HAS_CHINESE = /[\u4e00-\u9fff]/;

interface Expected {
  message?: string;
  /** each field error expected, exactly, in any order */
  errors?: Array<{ field: string; message: string }>;
}

/** The shape every refusal shares, checked on every response here. */
function expectRefusal(res: ApiResponse, status: number, expected: Expected = {}): void {
  const where = `${status} expected, got ${res.status}: ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBe(status);
  expect(res.headers.get('content-type') ?? '', where).toMatch(/^application\/json/);
  expect(res.text, where).not.toMatch(STACK_LIKE);
  const body = res.body as { message: unknown; errors?: unknown };
  expect(typeof body, where).toBe('object');
  expect(
    Object.keys(body).every((k) => k === 'message' || k === 'errors' || k === 'request_id'),
    where,
  ).toBe(true);
  // the id the answer was sent under, for the person to quote
  expect((body as { request_id?: unknown }).request_id, where).toBe(res.headers.get('x-request-id'));
  expect(typeof body.message, where).toBe('string');
  expect(body.message as string, where).toMatch(HAS_CHINESE);
  if (body.errors !== undefined) {
    expect(Array.isArray(body.errors), where).toBe(true);
    for (const e of body.errors as unknown[]) {
      expect(e, where).toEqual({ field: expect.any(String), message: expect.stringMatching(HAS_CHINESE) });
      expect(Object.keys(e as object).sort(), where).toEqual(['field', 'message']);
    }
  }
  if (expected.message !== undefined) expect(body.message, where).toBe(expected.message);
  if (expected.errors !== undefined) {
    expect(body.errors, where).toBeDefined();
    expect(body.errors, where).toEqual(expect.arrayContaining(expected.errors));
    expect((body.errors as unknown[]).length, where).toBe(expected.errors.length);
  }
}

describe.each(DB_KINDS)('bad input on %s', (kind) => {
  let s: TestServer;
  /** a payment that exists before any bad call, for PUT and DELETE */
  let existing: Record<string, unknown>;

  const good = () => ({
    last_five: '54321',
    paid_at: '2026-11-20T10:00',
    amount: 1500,
    store_id: s.stores.A.id,
    note: '正常備註',
  });

  /** Every row of the four tables, so an update counts as a write too. */
  async function snapshot() {
    const db = s.t.db;
    const count = async (table: string) =>
      Number(((await db(table).count({ n: '*' }).first()) as { n: number | string }).n);
    return {
      counts: {
        payments: await count('payments'),
        users: await count('users'),
        stores: await count('stores'),
        audit_log: await count('audit_log'),
      },
      payments: await db('payments').select('*').orderBy('uuid'),
      users: await db('users').select('*').orderBy('id'),
      stores: await db('stores').select('*').orderBy('id'),
    };
  }

  /** Runs a call and checks that the database is exactly as before. */
  async function nothingWritten(call: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const before = await snapshot();
    const res = await call();
    const after = await snapshot();
    expect(after.counts, `rows written by a refused call: ${res.status} ${res.text.slice(0, 200)}`).toEqual(
      before.counts,
    );
    expect(after).toEqual(before);
    return res;
  }

  const post = (body: unknown) => nothingWritten(() => s.api('POST', '/payments', { as: 'admin', body }));
  const postRaw = (raw: string | Buffer, contentType = 'application/json') =>
    nothingWritten(() => s.api('POST', '/payments', { as: 'admin', raw, headers: { 'content-type': contentType } }));

  beforeAll(async () => {
    s = await startTestServer(kind);
    const res = await s.api('POST', '/payments', { as: 'admin', body: { ...good(), last_five: '11111', amount: 800 } });
    expect(res.status).toBe(201);
    existing = res.body;
  });
  afterAll(async () => s?.close());
  afterEach(() => {
    expect(s.errors).toEqual([]);
  });

  describe('POST /api/payments', () => {
    it('a valid payment is accepted (the baseline the cases below break)', async () => {
      const res = await s.api('POST', '/payments', { as: 'admin', body: good() });
      expect(res.status).toBe(201);
      expect(res.body.amount).toBe(1500);
      expect((await s.api('DELETE', `/payments/${res.body.uuid}`, { as: 'admin' })).status).toBe(200);
    });

    it('refuses malformed JSON', async () => {
      for (const raw of ['{"last_five": "12345", ', '{last_five: 12345}', "{'a': 1}", '{"a":1}}']) {
        expectRefusal(await postRaw(raw), 400, { message: MALFORMED_JSON });
      }
    });

    it('refuses JSON that is not an object: a bare string, a number, null', async () => {
      for (const raw of ['"hello"', '12345', 'null', 'true']) {
        const res = await postRaw(raw);
        expectRefusal(res, 400);
      }
    });

    it('refuses a JSON array body, even one holding a valid payment', async () => {
      expectRefusal(await post([good()]), 400, { message: VALIDATION });
      expectRefusal(await post([]), 400, { message: VALIDATION });
    });

    it('refuses a text/plain body, even holding valid JSON', async () => {
      const res = await postRaw(JSON.stringify(good()), 'text/plain');
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expectRefusal(res, res.status, { message: '請求內容必須是 JSON（Content-Type: application/json）' });
    });

    it('refuses a form-encoded body', async () => {
      const res = await postRaw(
        'last_five=12345&paid_at=2026-11-20T10:00&amount=100',
        'application/x-www-form-urlencoded',
      );
      expect(res.status).toBe(415);
      expectRefusal(res, 415);
    });

    it('refuses an empty body with the missing fields named', async () => {
      const res = await postRaw('');
      expectRefusal(res, 400, { message: VALIDATION });
    });

    it.each([
      ['last_five as the number 12345', { last_five: 12345 }, 'last_five', '帳號後五碼必須是5位數字'],
      ['last_five of 4 digits', { last_five: '1234' }, 'last_five', '帳號後五碼必須是5位數字'],
      ['last_five with letters', { last_five: '12a45' }, 'last_five', '帳號後五碼必須是5位數字'],
      ['amount as an object', { amount: { value: 100 } }, 'amount', '匯款金額必須是數字'],
      ['amount as an array', { amount: [100] }, 'amount', '匯款金額必須是數字'],
      ['amount as a boolean', { amount: true }, 'amount', '匯款金額必須是數字'],
      ['paid_at as a number', { paid_at: 1763604000000 }, 'paid_at', '無效的日期格式'],
      ['note as a number', { note: 42 }, 'note', '備註必須是文字'],
      ['note as an object', { note: { text: 'x' } }, 'note', '備註必須是文字'],
      ['store_id as "abc"', { store_id: 'abc' }, 'store_id', '分店編號格式錯誤'],
      ['store_id as 1.5', { store_id: 1.5 }, 'store_id', '分店編號格式錯誤'],
      ['store_id as an array', { store_id: [1] }, 'store_id', '分店編號格式錯誤'],
    ])('refuses a wrong type: %s', async (_name, patch, field, message) => {
      expectRefusal(await post({ ...good(), ...patch }), 400, { message: VALIDATION, errors: [{ field, message }] });
    });

    it('refuses missing fields, naming each one', async () => {
      expectRefusal(await post({}), 400, {
        message: VALIDATION,
        errors: [
          { field: 'last_five', message: '請輸入帳號後五碼' },
          { field: 'paid_at', message: '請選擇匯款時間' },
          { field: 'amount', message: '請輸入匯款金額' },
        ],
      });
      for (const key of ['last_five', 'paid_at', 'amount'] as const) {
        const body: Record<string, unknown> = good();
        delete body[key];
        const res = await post(body);
        expectRefusal(res, 400, { message: VALIDATION });
        expect(
          res.body.errors.map((e: { field: string }) => e.field),
          key,
        ).toEqual([key]);
      }
      // blank text counts as missing, as on the form
      expectRefusal(await post({ ...good(), last_five: '   ' }), 400, {
        errors: [{ field: 'last_five', message: '請輸入帳號後五碼' }],
      });
    });

    it('refuses a 5 000-character note, and a 1 001-character one (a note holds at most 1 000)', async () => {
      const tooLong = { field: 'note', message: '備註不能超過1000個字元' };
      expectRefusal(await post({ ...good(), note: 'x'.repeat(5000) }), 400, { message: VALIDATION, errors: [tooLong] });
      expectRefusal(await post({ ...good(), note: '備'.repeat(1001) }), 400, {
        message: VALIDATION,
        errors: [tooLong],
      });
      // the limit itself is allowed
      const ok = await s.api('POST', '/payments', { as: 'admin', body: { ...good(), note: '備'.repeat(1000) } });
      expect(ok.status).toBe(201);
      expect(ok.body.note).toHaveLength(1000);
      expect((await s.api('DELETE', `/payments/${ok.body.uuid}`, { as: 'admin' })).status).toBe(200);
    });

    it.each([
      [0, '匯款金額至少為 1'],
      [-5, '匯款金額至少為 1'],
      [1.5, '匯款金額必須是整數（新台幣元）'],
      ['abc', '匯款金額必須是數字'],
      ['12abc', '匯款金額必須是數字'],
      [1e20, '匯款金額不能超過 NT$100,000,000'],
      ['1e20', '匯款金額不能超過 NT$100,000,000'],
      [100_000_001, '匯款金額不能超過 NT$100,000,000'],
    ])('refuses the amount %j', async (amount, message) => {
      expectRefusal(await post({ ...good(), amount }), 400, {
        message: VALIDATION,
        errors: [{ field: 'amount', message }],
      });
    });

    it('refuses amounts JSON cannot carry as numbers (1e400 overflows to Infinity)', async () => {
      const raw = JSON.stringify(good()).replace('"amount":1500', '"amount":1e400');
      expectRefusal(await postRaw(raw), 400, {
        message: VALIDATION,
        errors: [{ field: 'amount', message: '匯款金額必須是數字' }],
      });
    });

    it.each(['2026-02-30T10:00', 'yesterday', '99999-01-01', '2026-11-20T25:00', '2026-13-01', '11/20/2026'])(
      'refuses the payment time %j',
      async (paid_at) => {
        const res = await post({ ...good(), paid_at });
        expectRefusal(res, 400, { message: VALIDATION });
        expect(res.body.errors).toHaveLength(1);
        expect(res.body.errors[0].field).toBe('paid_at');
        expect(['無效的日期格式', '匯款時間不合理，請確認日期']).toContain(res.body.errors[0].message);
      },
    );

    it('refuses a payment time far outside any plausible range', async () => {
      for (const paid_at of ['1900-01-01T00:00', '2200-01-01T00:00']) {
        expectRefusal(await post({ ...good(), paid_at }), 400, {
          errors: [{ field: 'paid_at', message: '匯款時間不合理，請確認日期' }],
        });
      }
    });

    it('refuses an unknown store id', async () => {
      expectRefusal(await post({ ...good(), store_id: 999_999 }), 400, {
        message: VALIDATION,
        errors: [{ field: 'store_id', message: '找不到分店' }],
      });
    });

    it('names every bad field at once', async () => {
      const res = await post({ last_five: 'abc', paid_at: 'yesterday', amount: -5, note: 7, store_id: 'x' });
      expectRefusal(res, 400, { message: VALIDATION });
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'amount',
        'last_five',
        'note',
        'paid_at',
        'store_id',
      ]);
    });

    it('refuses a body over the size limit with 413', async () => {
      const huge = JSON.stringify({ ...good(), note: 'x'.repeat(200_000) });
      expectRefusal(await postRaw(huge), 413, { message: '請求內容過大' });
    });

    it('refuses deeply nested JSON without crashing', async () => {
      const depth = 20_000;
      const raw = `{"last_five":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const res = await postRaw(raw);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expectRefusal(res, res.status);
    });
  });

  describe('PUT /api/payments/:id', () => {
    const put = (body: unknown, id = existing.uuid as string) =>
      nothingWritten(() => s.api('PUT', `/payments/${id}`, { as: 'admin', body }));

    it.each([['done'], ['confirmed'], [''], [null], [1], [['已入帳']]])('refuses the status %j', async (status) => {
      expectRefusal(await put({ status }), 400, {
        message: VALIDATION,
        errors: [{ field: 'status', message: '狀態必須是 未確認、已入帳 或 未入帳' }],
      });
    });

    it('refuses a 1 001-character note and a note of the wrong type', async () => {
      expectRefusal(await put({ note: 'n'.repeat(1001) }), 400, {
        errors: [{ field: 'note', message: '備註不能超過1000個字元' }],
      });
      expectRefusal(await put({ note: 123 }), 400, { errors: [{ field: 'note', message: '備註必須是文字' }] });
    });

    it.each([
      ['amount', 9999],
      ['last_five', '99999'],
      ['paid_at', '2020-01-01T00:00'],
      ['store_id', 2],
      ['uuid', '00000000-0000-4000-8000-000000000000'],
    ])('refuses changing %s: 匯款記錄只能修改狀態和備註', async (field, value) => {
      const v = field === 'store_id' ? s.stores.B.id : value;
      expectRefusal(await put({ [field]: v }), 400, {
        message: VALIDATION,
        errors: [{ field, message: '匯款記錄只能修改狀態和備註' }],
      });
    });

    it('a valid status sent together with a changed amount changes nothing', async () => {
      const res = await put({ status: '已入帳', amount: 1 });
      expectRefusal(res, 400, { errors: [{ field: 'amount', message: '匯款記錄只能修改狀態和備註' }] });
      const after = await s.api('GET', `/payments/${existing.uuid}`, { as: 'admin' });
      expect(after.body.status).toBe('未確認');
      expect(after.body.amount).toBe(800);
    });

    it('refuses malformed JSON, an array and a text/plain body', async () => {
      expectRefusal(
        await nothingWritten(() =>
          s.api('PUT', `/payments/${existing.uuid}`, {
            as: 'admin',
            raw: '{"status":',
            headers: { 'content-type': 'application/json' },
          }),
        ),
        400,
        { message: MALFORMED_JSON },
      );
      expectRefusal(await put([{ status: '已入帳' }]), 400, { message: VALIDATION });
      const text = await nothingWritten(() =>
        s.api('PUT', `/payments/${existing.uuid}`, {
          as: 'admin',
          raw: '{"status":"已入帳"}',
          headers: { 'content-type': 'text/plain' },
        }),
      );
      expect(text.status).toBeGreaterThanOrEqual(400);
      expect(text.status).toBeLessThan(500);
      expectRefusal(text, text.status);
    });

    it('answers 404 for an unknown payment, whatever the id looks like', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', 'x'.repeat(300)]) {
        expectRefusal(await put({ status: '已入帳' }, id), 404, { message: '找不到匯款記錄' });
      }
    });

    it('refuses a body over the size limit with 413', async () => {
      expectRefusal(await put({ note: 'x'.repeat(200_000) }), 413, { message: '請求內容過大' });
    });
  });

  describe('DELETE /api/payments (batch)', () => {
    const del = (body: unknown) => nothingWritten(() => s.api('DELETE', '/payments', { as: 'admin', body }));
    const refused = { message: VALIDATION, errors: [{ field: 'uuids', message: '請選擇要刪除的匯款記錄' }] };

    it.each([
      ['a single uuid as a string', () => ({ uuids: existing.uuid })],
      ['an empty array', () => ({ uuids: [] })],
      ['no uuids at all', () => ({})],
      ['null', () => ({ uuids: null })],
      ['an object', () => ({ uuids: { 0: existing.uuid } })],
      ['numbers', () => ({ uuids: [1, 2] })],
      ['a good uuid next to a number', () => ({ uuids: [existing.uuid, 5] })],
      ['an empty string', () => ({ uuids: [''] })],
    ])('refuses uuids as %s', async (_name, body) => {
      expectRefusal(await del(body()), 400, refused);
    });

    it('refuses malformed JSON and a bare array body', async () => {
      expectRefusal(
        await nothingWritten(() =>
          s.api('DELETE', '/payments', {
            as: 'admin',
            raw: '{"uuids":[',
            headers: { 'content-type': 'application/json' },
          }),
        ),
        400,
        { message: MALFORMED_JSON },
      );
      expectRefusal(await del([existing.uuid]), 400, refused);
    });
  });

  describe('POST /api/payments/bulk-import', () => {
    const imp = (body: unknown) => nothingWritten(() => s.api('POST', '/payments/bulk-import', { as: 'admin', body }));
    const empty = { message: VALIDATION, errors: [{ field: 'payments', message: '沒有可匯入的資料' }] };
    const row = (i: number, extra: Record<string, unknown> = {}) => ({
      last_five: String(20000 + i),
      paid_at: `2026-11-1${i}T10:00`,
      amount: 100 * (i + 1),
      note: `匯入 ${i}`,
      store_id: s.stores.B.id,
      status: '未確認',
      ...extra,
    });

    it.each([
      ['a string', 'abc'],
      ['an object', { 0: { last_five: '12345' } }],
      ['null', null],
      ['missing', undefined],
      ['an empty array', []],
    ])('refuses payments as %s', async (_name, payments) => {
      expectRefusal(await imp(payments === undefined ? {} : { payments }), 400, empty);
    });

    it('refuses a bare array body', async () => {
      expectRefusal(await imp([row(0), row(1)]), 400, empty);
    });

    it.each([
      ['amount 0', { amount: 0 }, 'amount', '匯款金額至少為 1'],
      ['amount 1.5', { amount: 1.5 }, 'amount', '匯款金額必須是整數（新台幣元）'],
      ['last_five as a number', { last_five: 12345 }, 'last_five', '帳號後五碼必須是5位數字'],
      ['an invalid date', { paid_at: '2026-02-30T10:00' }, 'paid_at', '無效的日期格式'],
      ['a 5 000-character note', { note: 'x'.repeat(5000) }, 'note', '備註不能超過1000個字元'],
      ['an unknown status', { status: 'done' }, 'status', '狀態必須是 未確認、已入帳 或 未入帳'],
      ['an unknown store', { store_id: 999_999 }, 'store_id', '找不到分店'],
    ])('one bad row (%s) among good ones writes nothing and names row 2', async (_name, bad, field, message) => {
      const res = await imp({ payments: [row(0), row(1, bad), row(2)] });
      expectRefusal(res, 400, { message: VALIDATION });
      expect(res.body.errors.length).toBeGreaterThan(0);
      for (const e of res.body.errors) expect(e.message).toMatch(/^第 2 筆：/);
      expect(res.body.errors.map((e: { message: string }) => e.message)).toContain(ROW2 + message);
      expect(res.body.errors.map((e: { field: string }) => e.field).join(' ')).toContain(field);
    });

    it('a row that is not an object names its row', async () => {
      const res = await imp({ payments: [row(0), 'not a row', row(2)] });
      expectRefusal(res, 400, { message: VALIDATION });
      for (const e of res.body.errors) expect(e.message).toMatch(/^第 2 筆：/);
    });

    it('several bad rows are each named, and nothing is written', async () => {
      const res = await imp({ payments: [row(0), row(1, { amount: -5 }), row(2), row(3, { last_five: '1' })] });
      expectRefusal(res, 400, { message: VALIDATION });
      expect(res.body.errors).toEqual([
        { field: expect.stringContaining('amount'), message: '第 2 筆：匯款金額至少為 1' },
        { field: expect.stringContaining('last_five'), message: '第 4 筆：帳號後五碼必須是5位數字' },
      ]);
    });

    it('refuses malformed JSON', async () => {
      expectRefusal(
        await nothingWritten(() =>
          s.api('POST', '/payments/bulk-import', {
            as: 'admin',
            raw: '{"payments":[{"last_five":"12345"},',
            headers: { 'content-type': 'application/json' },
          }),
        ),
        400,
        { message: MALFORMED_JSON },
      );
    });
  });

  describe('list parameters', () => {
    const list = (path: string, query: string) =>
      nothingWritten(() => s.api('GET', `${path}${query}`, { as: 'admin' }));
    const q = (name: string, value: string) => `?${name}=${encodeURIComponent(value)}`;

    it.each(['/payments', '/users', '/stores'])('%s: malformed sort, range and filter JSON', async (path) => {
      for (const name of ['sort', 'range', 'filter']) {
        expectRefusal(await list(path, q(name, '["paid_at",')), 400, {
          message: VALIDATION,
          errors: [{ field: name, message: `查詢參數 ${name} 格式錯誤` }],
        });
      }
    });

    it.each([
      ['sort not a list', 'sort', '"paid_at"'],
      ['sort order not ASC or DESC', 'sort', '["paid_at","SIDEWAYS"]'],
      ['range backwards', 'range', '[10,2]'],
      ['range negative', 'range', '[-1,5]'],
      ['range of one number', 'range', '[0]'],
      ['range of text', 'range', '["a","b"]'],
      ['filter a list', 'filter', '[1,2]'],
      ['filter a string', 'filter', '"x"'],
    ])('/payments: %s', async (_name, name, value) => {
      expectRefusal(await list('/payments', q(name, value)), 400, {
        message: VALIDATION,
        errors: [{ field: name, message: `查詢參數 ${name} 格式錯誤` }],
      });
    });

    it('a repeated parameter is refused, not a crash', async () => {
      expectRefusal(await list('/payments', '?sort=%5B%22amount%22%5D&sort=%5B%22amount%22%5D'), 400, {
        message: VALIDATION,
        errors: [{ field: 'sort', message: '查詢參數 sort 格式錯誤' }],
      });
    });

    it.each([
      ['/payments', 'password_hash'],
      ['/payments', 'note; drop table payments'],
      ['/users', 'password_hash'],
      ['/stores', 'secret'],
    ])('%s: unknown sort field %s', async (path, field) => {
      expectRefusal(await list(path, q('sort', JSON.stringify([field, 'ASC']))), 400, {
        message: VALIDATION,
        errors: [{ field: 'sort', message: `不支援的排序欄位：${field}` }],
      });
    });

    it.each([
      ['/payments', 'amount'],
      ['/payments', 'password_hash'],
      ['/users', 'password_hash'],
      ['/stores', 'name'],
    ])('%s: unknown filter field %s', async (path, field) => {
      expectRefusal(await list(path, q('filter', JSON.stringify({ [field]: 1 }))), 400, {
        message: VALIDATION,
        errors: [{ field: 'filter', message: `不支援的篩選條件：${field}` }],
      });
    });

    it.each([
      ['paid_at_gte', '2026-13-01'],
      ['paid_at_lte', '2026-02-30'],
      ['paid_at_gte', 'yesterday'],
      ['paid_at_lte', '99999-01-01'],
    ])('/payments: bad date filter %s=%s', async (key, value) => {
      expectRefusal(await list('/payments', q('filter', JSON.stringify({ [key]: value }))), 400, {
        message: VALIDATION,
        errors: [{ field: 'filter', message: `日期格式錯誤：${value}（請使用 YYYY-MM-DD）` }],
      });
    });

    it('/payments: a date filter of the wrong type', async () => {
      const res = await list('/payments', q('filter', JSON.stringify({ paid_at_gte: 20261101 })));
      expectRefusal(res, 400, { message: VALIDATION });
      expect(res.body.errors[0].field).toBe('filter');
    });

    it('/payments: bad status, store_id and q filter values', async () => {
      for (const filter of [
        { status: 'done' },
        { status: ['已入帳', 3] },
        { store_id: 'abc' },
        { store_id: [1, {}] },
        { q: { $ne: 1 } },
      ]) {
        const res = await list('/payments', listParams({ filter }));
        expectRefusal(res, 400, { message: VALIDATION });
        expect(res.body.errors, JSON.stringify(filter)).toHaveLength(1);
        expect(res.body.errors[0].field).toBe('filter');
      }
    });
  });

  describe('routes and methods', () => {
    it('an unknown /api route is a JSON 404, signed in or not', async () => {
      for (const [method, path] of [
        ['GET', '/nope'],
        ['GET', '/payments/abc/extra'],
        ['POST', '/nope'],
        ['DELETE', '/admin'],
        ['GET', ''],
      ]) {
        for (const as of [undefined, 'admin']) {
          const res = await nothingWritten(() => s.api(method, path, { as, body: method === 'GET' ? undefined : {} }));
          expectRefusal(res, 404, { message: '找不到此 API' });
        }
      }
    });

    it('a wrong method on a known route is a JSON 405 (or 404)', async () => {
      for (const [method, path] of [
        ['PATCH', '/payments'],
        ['PUT', '/payments'],
        ['POST', '/stats/summary'],
        ['DELETE', '/admin/login'],
        ['POST', `/payments/${'00000000-0000-4000-8000-000000000000'}`],
      ]) {
        const res = await nothingWritten(() => s.api(method, path, { as: 'admin', body: {} }));
        expect([404, 405], `${method} ${path}`).toContain(res.status);
        expectRefusal(res, res.status);
        if (res.status === 405) {
          expect(res.body.message).toBe('不支援此請求方法');
          expect(res.headers.get('allow') ?? '').not.toBe('');
        }
      }
    });
  });
});
