/**
 * a store's public link, end to end over HTTP on SQLite and on PostgreSQL, with two
 * API instances sharing the database (each its own connection pool, as two machines behind a
 * load balancer). No session token is ever sent to /api/public.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSummaryText, createStore, listenUrl, openDatabase, systemActor } from '../../core/index.js';
import type { SecuritySettings } from '../../core/context.js';
import { auditActorText } from '../../core/audit/text.js';
import { runRemit } from '../helpers/cliInProcess.js';
import { holdReport, PUBLIC_BLOCK_DAY_FACTOR, PUBLIC_REFUSED_PER_MINUTE } from '../../core/links/limits.js';
import { createTestDb, DB_KINDS, PG_URL, TEST_SECURITY, type TestDb } from '../helpers/db.js';
import { seed, type Fixture } from '../helpers/fixtures.js';
import { listenApi, listParams, type Listening } from '../helpers/server.js';

const LINK_GONE = '連結已失效，請向門市索取新的連結';
const SECURITY: SecuritySettings = {
  ...TEST_SECURITY,
  publicLinks: { limits: { perAddressMinute: 5, perAddressDay: 30, perLinkDay: 12 } },
};

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

describe.each(DB_KINDS)('store public links on %s', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let second: ReturnType<typeof openDatabase>;
  let one: Listening;
  let two: Listening;
  const errors: unknown[] = [];
  let addressNo = 0;
  /** a client address of its own, so one test's reports never count against another's */
  const freshAddress = () => {
    const n = ++addressNo;
    // each in a /24 of its own: a /24 shares a day's limit (four addresses' worth)
    return `10.${Math.floor(n / 256) % 256}.${n % 256}.1`;
  };

  async function call(
    base: Listening,
    method: string,
    path: string,
    opts: { body?: unknown; raw?: string; as?: string; from?: string; type?: string } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { 'x-forwarded-for': opts.from ?? '198.51.100.1' };
    if (opts.as) headers.authorization = `Bearer ${f.tokens[opts.as]}`;
    let body: string | undefined;
    if (opts.raw !== undefined || opts.body !== undefined) {
      body = opts.raw ?? JSON.stringify(opts.body);
      headers['content-type'] = opts.type ?? 'application/json';
    }
    const res = await fetch(`${base.url}/api${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }
  const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  let day = 0;
  /** a report's fields: a distinct day each time, so no two tests' reports are near each other */
  const report = (extra: Record<string, unknown> = {}) => {
    day += 1;
    return {
      last_five: String(10000 + day),
      paid_at: `2026-10-${String((day % 28) + 1).padStart(2, '0')}T${String(8 + Math.floor(day / 28)).padStart(2, '0')}:15`,
      amount: 1000 + day,
      note: '',
      ...extra,
    };
  };

  /** the limits' windows are clock minutes: a sequence that must fall in one starts with `need` seconds of it left */
  const withinOneMinute = async (need: number) => {
    while (Date.now() % 60_000 > 60_000 - need * 1000) await new Promise((r) => setTimeout(r, 200));
  };
  let storeNo = 0;
  /** a store of its own and its link: a test's reports then never meet another test's in the link's limit a day */
  const ownLink = async () => {
    const store = await createStore(
      { db: t.db, security: SECURITY, actor: systemActor('test'), ip: null },
      { name: `測試店${++storeNo}`, code: `LNK${storeNo}` },
    );
    return tokenOf((await call(one, 'GET', `/stores/${store.id}/link`, { as: 'admin' })).body.url);
  };
  const stored = async (lastFives: string[]) =>
    Number(((await t.db('payments').whereIn('last_five', lastFives).count({ n: '*' }).first()) as { n: string }).n);

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    second = openDatabase(t.config);
    one = await listenApi({ db: t.db, security: SECURITY, trustProxy: true, errors });
    two = await listenApi({ db: second, security: SECURITY, trustProxy: true, errors });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await second?.destroy();
    await t?.cleanup();
  });

  it('a link lives: made on first use, the same when shown again, rotated (the old one refuses at once), turned off', async () => {
    const shown = await call(one, 'GET', `/stores/${f.stores.A.id}/link`, { as: 'admin' });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ store: 'TPE', active: true });
    expect(shown.body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/r\/[A-Za-z0-9_-]{22}$/);
    const first = tokenOf(shown.body.url);
    // 128 random bits: 22 url-safe base64 characters
    expect(Buffer.from(first, 'base64url').length).toBe(16);
    // the same link on the other instance (its address is that instance's: no REMIT_PUBLIC_URL here)
    expect(tokenOf((await call(two, 'GET', `/stores/${f.stores.A.id}/link`, { as: 'admin' })).body.url)).toBe(first);
    expect((await call(one, 'GET', `/public/links/${first}`)).body).toEqual({ store_name: '台北店' });

    const rotated = await call(one, 'POST', `/stores/${f.stores.A.id}/link/rotate`, { as: 'admin' });
    expect(rotated.status).toBe(200);
    const next = tokenOf(rotated.body.url);
    expect(next).not.toBe(first);
    // the other instance refuses the old link at once, with the message the issue gives, and stores nothing
    const before = await t.db('payments').count({ n: '*' }).first();
    const old = await call(two, 'GET', `/public/links/${first}`);
    expect(old.status).toBe(404);
    expect(old.body.message).toBe(LINK_GONE);
    const sent = await call(two, 'POST', `/public/links/${first}/reports`, { body: report(), from: freshAddress() });
    expect(sent.status).toBe(404);
    expect(sent.body.message).toBe(LINK_GONE);
    expect(await t.db('payments').count({ n: '*' }).first()).toEqual(before);
    expect((await call(two, 'GET', `/public/links/${next}`)).status).toBe(200);

    const off = await call(one, 'POST', `/stores/${f.stores.A.id}/link/off`, { as: 'admin' });
    expect(off.body).toMatchObject({ store: 'TPE', active: false });
    expect(
      (await call(two, 'POST', `/public/links/${next}/reports`, { body: report(), from: freshAddress() })).body.message,
    ).toBe(LINK_GONE);
    // rotating a turned-off link makes a working one again
    const again = await call(one, 'POST', `/stores/${f.stores.A.id}/link/rotate`, { as: 'admin' });
    expect(again.body.active).toBe(true);
    expect((await call(two, 'GET', `/public/links/${tokenOf(again.body.url)}`)).status).toBe(200);
  });

  it('only those who manage a store reach its link', async () => {
    expect((await call(one, 'GET', `/stores/${f.stores.A.id}/link`, { as: 'branchA' })).status).toBe(403);
    // hq_manage_stores manages stores A and B, not C
    expect((await call(one, 'GET', `/stores/${f.stores.B.id}/link`, { as: 'hq_manage_stores' })).status).toBe(200);
    expect((await call(one, 'GET', `/stores/${f.stores.C.id}/link`, { as: 'hq_manage_stores' })).status).toBe(403);
    expect((await call(one, 'GET', `/stores/${f.stores.A.id}/link`)).status).toBe(401);
  });

  it('a customer reports with no token; the store comes from the link whatever the body names; staff see it as 顧客 and the audit says 顧客連結（TPE）', async () => {
    const token = tokenOf((await call(one, 'GET', `/stores/${f.stores.A.id}/link`, { as: 'admin' })).body.url);
    const fields = report({ note: '早上轉的' });
    const sent = await call(two, 'POST', `/public/links/${token}/reports`, {
      body: {
        ...fields,
        store_id: f.stores.B.id,
        store: 'TXG',
        store_code: 'TXG',
        status: '已入帳',
        source: 'staff',
        created_by: f.users.admin.id,
      },
      from: freshAddress(),
    });
    expect(sent.status).toBe(201);
    expect(sent.body.tracking).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.body.status_path).toBe(`/r/status/${sent.body.tracking}`);
    const row = await t.db('payments').where({ uuid: sent.body.tracking }).first();
    expect(row).toMatchObject({
      last_five: fields.last_five,
      note: '早上轉的',
      status: '未確認',
      source: 'customer',
      created_by: null,
    });
    expect(Number(row.store_id)).toBe(f.stores.A.id);
    expect(Number(row.link_id)).toBeGreaterThan(0);

    // 匯款記錄: 來源 shown and filterable
    const customers = await call(
      one,
      'GET',
      `/payments${listParams({ filter: { source: 'customer' }, range: [0, 99] })}`,
      { as: 'admin' },
    );
    expect(customers.status).toBe(200);
    expect(customers.body.map((p: { uuid: string }) => p.uuid)).toContain(sent.body.tracking);
    expect(customers.body.every((p: { source: string }) => p.source === 'customer')).toBe(true);
    const staff = await call(one, 'GET', `/payments${listParams({ filter: { source: 'staff' }, range: [0, 99] })}`, {
      as: 'admin',
    });
    expect(staff.body.map((p: { uuid: string }) => p.uuid)).not.toContain(sent.body.tracking);
    expect(
      (await call(one, 'GET', `/payments${listParams({ filter: { source: 'robot' } })}`, { as: 'admin' })).status,
    ).toBe(400);

    const audit = await call(one, 'GET', `/audit${listParams({ filter: { entity_id: sent.body.tracking } })}`, {
      as: 'admin',
    });
    expect(audit.body).toHaveLength(1);
    expect(audit.body[0]).toMatchObject({ action: 'create', actor_id: null, actor_username: 'link:TPE' });
    expect(auditActorText(audit.body[0])).toBe('顧客連結（TPE）');
    expect(auditSummaryText(audit.body[0], (id) => Object.values(f.stores).find((s) => s.id === id))).toContain(
      '來源：顧客',
    );
  });

  it('the duplicate question: same last five and amount within 10 minutes asks first, and stores once without the answer', async () => {
    const token = tokenOf((await call(one, 'GET', `/stores/${f.stores.A.id}/link`, { as: 'admin' })).body.url);
    const from = freshAddress();
    const fields = report();
    expect((await call(one, 'POST', `/public/links/${token}/reports`, { body: fields, from })).status).toBe(201);
    const later = { ...fields, paid_at: fields.paid_at.replace(/:15$/, ':24') };
    const asked = await call(two, 'POST', `/public/links/${token}/reports`, { body: later, from });
    expect(asked.status).toBe(409);
    expect(asked.body.message).toContain('您可能已經回報過這筆匯款');
    // nothing about the other payment is told
    expect(JSON.stringify(asked.body)).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
    const exact = await call(two, 'POST', `/public/links/${token}/reports`, { body: fields, from });
    expect(exact.status).toBe(409);
    expect(JSON.stringify(exact.body)).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
    expect(
      Number(
        ((await t.db('payments').where({ last_five: fields.last_five }).count({ n: '*' }).first()) as { n: string }).n,
      ),
    ).toBe(1);
    // answered: stored
    expect(
      (await call(two, 'POST', `/public/links/${token}/reports`, { body: { ...later, confirm_duplicate: true }, from }))
        .status,
    ).toBe(201);
    // 11 minutes after the last is another transfer
    expect(
      (
        await call(one, 'POST', `/public/links/${token}/reports`, {
          body: { ...fields, paid_at: fields.paid_at.replace(/:15$/, ':35') },
          from,
        })
      ).status,
    ).toBe(201);
  });

  it('the duplicate question tells nothing of what staff entered: a report matching a staff payment is stored (201), one matching a customer\u2019s report is asked about', async () => {
    const token = tokenOf((await call(one, 'GET', `/stores/${f.stores.A.id}/link`, { as: 'admin' })).body.url);
    const fields = report();
    const staff = await call(one, 'POST', '/payments', { as: 'admin', body: { ...fields, store_id: f.stores.A.id } });
    expect(staff.status).toBe(201);
    // the same transfer, exactly and minutes later: answered as any other report would be
    for (const paid_at of [fields.paid_at, fields.paid_at.replace(/:15$/, ':19')]) {
      const r = await call(one, 'POST', `/public/links/${token}/reports`, {
        body: { ...fields, paid_at },
        from: freshAddress(),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(paid_at === fields.paid_at ? 201 : 409);
    }
    // (the second was asked about the first customer's report, not the staff payment: one digit off is the same answer)
    const other = await call(two, 'POST', `/public/links/${token}/reports`, {
      body: { ...fields, last_five: String(Number(fields.last_five) + 50000).slice(-5) },
      from: freshAddress(),
    });
    expect(other.status).toBe(201);
  });

  it('near reports sent at once, to both instances, store one: the near check shares the insert transaction', async () => {
    const token = tokenOf((await call(one, 'GET', `/stores/${f.stores.C.id}/link`, { as: 'admin' })).body.url);
    const fields = report();
    // four reports of one transfer (store C: the link limit a day is the test's 12, shared with the burst test), typed a minute apart each, from six addresses (no limit in the way)
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        call(i % 2 ? one : two, 'POST', `/public/links/${token}/reports`, {
          body: { ...fields, paid_at: fields.paid_at.replace(/:15$/, `:1${i}`) },
          from: freshAddress(),
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    expect(
      Number(
        ((await t.db('payments').where({ last_five: fields.last_five }).count({ n: '*' }).first()) as { n: string }).n,
      ),
    ).toBe(1);
  });

  /** a report attempt's key as the page makes one: 128 random bits, 32 hex digits */
  const newKey = () => randomBytes(16).toString('hex');
  const addressCount = async (from: string) =>
    Number(
      (
        (await t
          .db('public_limits')
          .where({ bucket: `address minute ${from}` })
          .sum({ n: 'n' })
          .first()) as { n: string | number | null }
      ).n ?? 0,
    );

  it('a report sent again with its client_key (no answer in 15 s, a lost answer) gets the first tracking number: 200, the same body, nothing stored, no send counted', async () => {
    const token = await ownLink();
    const from = freshAddress();
    await withinOneMinute(25);
    const key = newKey();
    const fields = report();
    const first = await call(one, 'POST', `/public/links/${token}/reports`, {
      body: { ...fields, client_key: key },
      from,
    });
    expect(first.status).toBe(201);
    // sent again, to either instance, more times than the 5 a minute: the first answer each time, never the duplicate question
    for (let i = 0; i < 7; i++) {
      const again = await call(i % 2 ? one : two, 'POST', `/public/links/${token}/reports`, {
        body: { ...fields, client_key: key },
        from,
      });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
    }
    // the same values written otherwise (the amount as text, spaces around the note) are the same report, so the same attempt
    expect(
      (
        await call(two, 'POST', `/public/links/${token}/reports`, {
          body: { ...fields, amount: String(fields.amount), note: `  ${fields.note}  `, client_key: key },
          from,
        })
      ).body,
    ).toEqual(first.body);
    expect(await stored([fields.last_five])).toBe(1);
    expect(await addressCount(from)).toBe(1);
    // the four reports left this minute are still there, then the limit as before
    const more = [report(), report(), report(), report()];
    for (const body of more)
      expect(
        (await call(one, 'POST', `/public/links/${token}/reports`, { body: { ...body, client_key: newKey() }, from }))
          .status,
      ).toBe(201);
    expect(
      (await call(two, 'POST', `/public/links/${token}/reports`, { body: { ...report(), client_key: newKey() }, from }))
        .status,
    ).toBe(429);
  });

  it('a client_key is the link\u2019s only: unknown it is a new report, through another link it finds nothing, with other fields it is refused, after a day it is ignored', async () => {
    const token = await ownLink();
    const other = await ownLink();
    const key = newKey();
    const fields = report();
    const first = await call(one, 'POST', `/public/links/${token}/reports`, {
      body: { ...fields, client_key: key },
      from: freshAddress(),
    });
    expect(first.status).toBe(201);
    // the same key and fields through another store's link: a new report of that store, nothing of the first told
    const elsewhere = await call(two, 'POST', `/public/links/${other}/reports`, {
      body: { ...fields, client_key: key },
      from: freshAddress(),
    });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.tracking).not.toBe(first.body.tracking);
    // the key with other fields: refused, in Chinese, with nothing of the first report, and nothing stored
    const changed = { ...fields, amount: fields.amount + 1 };
    const reused = await call(one, 'POST', `/public/links/${token}/reports`, {
      body: { ...changed, client_key: key },
      from: freshAddress(),
    });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe('這個回報識別碼已用於內容不同的另一筆回報，請重新整理頁面後再送出');
    expect(JSON.stringify(reused.body)).not.toContain(first.body.tracking);
    expect(
      Number(
        (
          (await t
            .db('payments')
            .where({ last_five: fields.last_five, amount: changed.amount })
            .count({ n: '*' })
            .first()) as { n: string }
        ).n,
      ),
    ).toBe(0);
    // a key a day old is ignored: the send is a new report, and so asked about as one
    await t
      .db('public_report_keys')
      .where({ client_key: key })
      .update({ created_at: Date.now() - 25 * 3600_000 });
    const late = await call(two, 'POST', `/public/links/${token}/reports`, {
      body: { ...fields, client_key: key },
      from: freshAddress(),
    });
    expect(late.status).toBe(409);
    const confirmed = await call(one, 'POST', `/public/links/${token}/reports`, {
      body: { ...fields, client_key: key, confirm_duplicate: true },
      from: freshAddress(),
    });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.tracking).not.toBe(first.body.tracking);
    expect(
      (
        await call(two, 'POST', `/public/links/${token}/reports`, {
          body: { ...fields, client_key: key },
          from: freshAddress(),
        })
      ).body,
    ).toEqual(confirmed.body);
    // the old rows are cleared (the other link's too): the key now means the confirmed report
    expect(
      (await t.db('public_report_keys').where({ client_key: key }).select('payment_uuid')).map(
        (r: { payment_uuid: string }) => r.payment_uuid,
      ),
    ).toEqual([confirmed.body.tracking]);
  });

  it('a client_key that is no key (short, long, not hex, not text) is refused with a Chinese sentence and stores nothing; none at all is a report as before', async () => {
    const token = await ownLink();
    const from = freshAddress();
    for (const bad of [
      '',
      'abc',
      'A'.repeat(32),
      newKey().slice(1),
      `${newKey()}0`,
      `${newKey().slice(0, 31)}g`,
      'x'.repeat(5000),
      12345,
      ['k'],
      { key: newKey() },
      true,
    ]) {
      const fields = report();
      const r = await call(one, 'POST', `/public/links/${token}/reports`, {
        body: { ...fields, client_key: bad },
        from,
      });
      expect(r.status, JSON.stringify(bad).slice(0, 40)).toBe(400);
      expect(r.body.message).toBe('回報識別碼格式不正確，請重新整理頁面後再送出');
      expect(await stored([fields.last_five])).toBe(0);
    }
    // a refused key counts as a mistake, not as a send
    expect(await addressCount(from)).toBe(0);
    expect(
      (await call(one, 'POST', `/public/links/${token}/reports`, { body: { ...report(), client_key: null }, from }))
        .status,
    ).toBe(201);
    expect((await call(one, 'POST', `/public/links/${token}/reports`, { body: report(), from })).status).toBe(201);
  });

  it('the same client_key sent at once, to one instance and to both, stores one payment and every answer has its tracking number', async () => {
    const token = await ownLink();
    for (const round of [
      [one, one, one],
      [one, two],
      [two, one, two, one],
    ]) {
      const from = freshAddress();
      await withinOneMinute(10);
      const key = newKey();
      const fields = report();
      const answers = await Promise.all(
        round.map((api) =>
          call(api, 'POST', `/public/links/${token}/reports`, { body: { ...fields, client_key: key }, from }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([...round.slice(1).map(() => 200), 201]);
      expect(new Set(answers.map((a) => a.body.tracking)).size).toBe(1);
      expect(await stored([fields.last_five])).toBe(1);
      // the sends that found the other's report were taken back off the limits
      expect(await addressCount(from)).toBe(1);
    }
    expect(errors).toEqual([]);
  });

  it('the status answer: one tracking number, status, amount, time and store name only; follows a status change; 404 otherwise', async () => {
    const token = tokenOf((await call(one, 'GET', `/stores/${f.stores.A.id}/link`, { as: 'admin' })).body.url);
    const fields = report({ note: '私人備註' });
    const sent = await call(one, 'POST', `/public/links/${token}/reports`, { body: fields, from: freshAddress() });
    const seen = await call(two, 'GET', `/public/reports/${sent.body.tracking}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      tracking: sent.body.tracking,
      status: '未確認',
      amount: fields.amount,
      paid_at: expect.any(String),
      store_name: '台北店',
    });
    expect(JSON.stringify(seen.body)).not.toContain(fields.last_five);
    expect(JSON.stringify(seen.body)).not.toContain('私人備註');
    expect(
      (await call(one, 'PUT', `/payments/${sent.body.tracking}`, { as: 'admin', body: { status: '已入帳' } })).status,
    ).toBe(200);
    expect((await call(two, 'GET', `/public/reports/${sent.body.tracking.toUpperCase()}`)).body.status).toBe('已入帳');

    for (const bad of ['00000000-0000-4000-8000-000000000000', 'nope', '1%27%20OR%201=1', 'x'.repeat(300)]) {
      const r = await call(one, 'GET', `/public/reports/${bad}`);
      expect(r.status).toBe(404);
      expect(r.body.message).toBe('查無這個追蹤編號，請確認網址是否完整');
    }
    // a payment staff typed is not answered here
    const staffRow = await t.db('payments').where({ source: 'staff' }).first('uuid');
    if (staffRow) expect((await call(one, 'GET', `/public/reports/${staffRow.uuid}`)).status).toBe(404);
  });

  it('a burst from one address is cut at 5 a minute, counted across both instances: 429 with Retry-After and a Chinese message, nothing stored past it', async () => {
    const token = tokenOf((await call(one, 'GET', `/stores/${f.stores.C.id}/link`, { as: 'admin' })).body.url);
    const from = freshAddress();
    const before = Number(((await t.db('payments').count({ n: '*' }).first()) as { n: string }).n);
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        call(i % 2 ? two : one, 'POST', `/public/links/${token}/reports`, { body: report(), from }),
      ),
    );
    const codes = answers.map((a) => a.status).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(4);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/^送出次數過多，請於 \d+ (秒|分鐘)後再試$/);
    expect(Number(((await t.db('payments').count({ n: '*' }).first()) as { n: string }).n)).toBe(before + 5);
    // another address is not held back by this one
    expect(
      (await call(one, 'POST', `/public/links/${token}/reports`, { body: report(), from: freshAddress() })).status,
    ).toBe(201);
  });

  it('a customer fixing mistakes is never locked out: refused sends (400) do not count toward the 5 a minute; stored reports and the duplicate question do', async () => {
    const token = await ownLink();
    const from = freshAddress();
    await withinOneMinute(25);
    const right = report();
    // the review's steps (1234, 「12 34」…) and more: seven mistakes in a row, to both instances
    const mistakes: Array<Record<string, unknown>> = [
      { last_five: '1234' },
      { last_five: '12 34' },
      { last_five: 'abcde' },
      { amount: '一千二' },
      { amount: 0 },
      { paid_at: '' },
      { note: 'x'.repeat(1001) },
    ];
    for (const [i, m] of mistakes.entries()) {
      const r = await call(i % 2 ? two : one, 'POST', `/public/links/${token}/reports`, {
        body: { ...right, ...m },
        from,
      });
      expect(r.status, JSON.stringify(m).slice(0, 40)).toBe(400);
    }
    const sent = await call(one, 'POST', `/public/links/${token}/reports`, { body: right, from });
    expect(sent.status).toBe(201);
    // the same report again is asked about: that counts (2), as do three more stored (5)
    expect((await call(two, 'POST', `/public/links/${token}/reports`, { body: right, from })).status).toBe(409);
    const more = [report(), report(), report()];
    for (const body of more)
      expect((await call(one, 'POST', `/public/links/${token}/reports`, { body, from })).status).toBe(201);
    const sixth = report();
    const refused = await call(two, 'POST', `/public/links/${token}/reports`, { body: sixth, from });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^送出次數過多，請於 \d+ 秒後再試$/);
    // a mistake past the limit is still told what to fix
    expect(
      (await call(one, 'POST', `/public/links/${token}/reports`, { body: { ...report(), last_five: '1' }, from }))
        .status,
    ).toBe(400);
    expect(await stored([right.last_five, ...more.map((b) => b.last_five), sixth.last_five])).toBe(4);
  });

  it('two sends at once at the edge of the limit store one, across both instances; mistakes sent with them take nothing', async () => {
    const token = await ownLink();
    const from = freshAddress();
    await withinOneMinute(25);
    for (let i = 0; i < 4; i++)
      expect(
        (await call(i % 2 ? two : one, 'POST', `/public/links/${token}/reports`, { body: report(), from })).status,
      ).toBe(201);
    const last = [report(), report()];
    const answers = await Promise.all([
      call(one, 'POST', `/public/links/${token}/reports`, { body: last[0], from }),
      call(two, 'POST', `/public/links/${token}/reports`, { body: last[1], from }),
      call(one, 'POST', `/public/links/${token}/reports`, { body: { ...report(), last_five: '123' }, from }),
      call(two, 'POST', `/public/links/${token}/reports`, { body: { ...report(), amount: 'x' }, from }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 429]);
    expect(await stored(last.map((b) => b.last_five))).toBe(1);
  });

  it('refused sends are bounded apart, generously: PUBLIC_REFUSED_PER_MINUTE a minute from one address, then 429; a right report still goes through', async () => {
    const token = await ownLink();
    const from = freshAddress();
    expect(PUBLIC_REFUSED_PER_MINUTE).toBeGreaterThanOrEqual(20);
    await withinOneMinute(25);
    const wrong = await Promise.all(
      Array.from({ length: PUBLIC_REFUSED_PER_MINUTE }, (_, i) =>
        call(
          i % 2 ? two : one,
          'POST',
          i % 3 ? `/public/links/${token}/reports` : `/public/links/${'B'.repeat(22)}/reports`,
          { body: { ...report(), last_five: 'x' }, from },
        ),
      ),
    );
    expect(wrong.filter((a) => a.status === 429)).toEqual([]);
    const past = await call(one, 'POST', `/public/links/${token}/reports`, {
      body: { ...report(), last_five: 'x' },
      from,
    });
    expect(past.status).toBe(429);
    expect(Number(past.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(past.body.message).toMatch(/^送出次數過多，請於 \d+ 秒後再試$/);
    expect(JSON.stringify(past.body)).not.toContain('last_five');
    expect((await call(two, 'POST', `/public/links/${'B'.repeat(22)}/reports`, { body: report(), from })).status).toBe(
      429,
    );
    expect((await call(two, 'POST', `/public/links/${token}/reports`, { body: report(), from })).status).toBe(201);
  });

  it('a flood from many addresses stops at the link limit a day, shared by both instances', async () => {
    const token = tokenOf((await call(one, 'GET', `/stores/${f.stores.B.id}/link`, { as: 'admin' })).body.url);
    // mistakes take nothing from the link's day either
    for (let i = 0; i < 6; i++)
      expect(
        (
          await call(one, 'POST', `/public/links/${token}/reports`, {
            body: { ...report(), amount: -1 },
            from: freshAddress(),
          })
        ).status,
      ).toBe(400);
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        call(i % 2 ? two : one, 'POST', `/public/links/${token}/reports`, { body: report(), from: freshAddress() }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(12);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(4);
    expect(
      Number(
        (
          (await t.db('payments').where({ store_id: f.stores.B.id, source: 'customer' }).count({ n: '*' }).first()) as {
            n: string;
          }
        ).n,
      ),
    ).toBe(12);
  });

  it('public reads are limited too: 60 a minute from one address across both instances, then 429 with Retry-After', async () => {
    const from = freshAddress();
    // the limit's windows are clock minutes: start well inside one, so the burst is counted in one window
    while (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 200));
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        call(
          i % 2 ? one : two,
          'GET',
          `/public/reports/00000000-0000-4000-8000-00000000${String(i).padStart(4, '0')}`,
          { from },
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 404)).toHaveLength(60);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(4);
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(0);
    // a read is no send: said as the page says it (使用人數過多), never 送出次數過多
    for (const r of refused) expect(r.body.message).toMatch(/^使用人數過多，請於 \d+ 秒後再試$/);
    const token = tokenOf((await call(one, 'GET', `/stores/${f.stores.A.id}/link`, { as: 'admin' })).body.url);
    const storeName = await call(two, 'GET', `/public/links/${token}`, { from });
    expect(storeName.status).toBe(429);
    expect(storeName.body.message).toMatch(/^使用人數過多，請於 \d+ 秒後再試$/);
    expect(storeName.body.message).toBe(`使用人數過多，請於 ${storeName.headers.get('retry-after')} 秒後再試`);
    // sends from that address are counted apart, and keep their own words past their own limit
    expect((await call(one, 'POST', `/public/links/${token}/reports`, { body: report(), from })).status).toBe(201);
  });

  it('a bot filling the hidden field is answered as a customer is, status page and duplicate question included, and no payment is stored', async () => {
    const token = await ownLink();
    const from = freshAddress();
    const real = report();
    const bot = report({ website: 'http://spam.example' });
    const answers = [
      await call(one, 'POST', `/public/links/${token}/reports`, { body: real, from }),
      await call(one, 'POST', `/public/links/${token}/reports`, { body: bot, from }),
    ];
    // the same answer, field for field
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    expect(Object.keys(answers[1].body).sort()).toEqual(Object.keys(answers[0].body).sort());
    const statuses = await Promise.all(
      answers.map((a) => call(two, 'GET', `/public/reports/${a.body.tracking}`, { from: freshAddress() })),
    );
    expect(statuses.map((r) => r.status)).toEqual([200, 200]);
    expect(statuses[1].body).toEqual({
      tracking: answers[1].body.tracking,
      status: '未確認',
      amount: bot.amount,
      paid_at: statuses[1].body.paid_at,
      store_name: statuses[0].body.store_name,
    });
    expect(Object.keys(statuses[1].body).sort()).toEqual(Object.keys(statuses[0].body).sort());
    // sent again: asked about, as the customer's own report would be; a mistake is refused alike
    expect((await call(two, 'POST', `/public/links/${token}/reports`, { body: real, from })).status).toBe(409);
    expect((await call(two, 'POST', `/public/links/${token}/reports`, { body: bot, from })).status).toBe(409);
    expect(
      (await call(one, 'POST', `/public/links/${token}/reports`, { body: { ...bot, amount: -1 }, from })).status,
    ).toBe(400);
    expect(await t.db('payments').where({ last_five: bot.last_five }).first()).toBeUndefined();
  });

  it('a bot\u2019s reports sent at once are answered as a customer\u2019s are: near ones asked about but one, the same key answered with one tracking number, on both instances', async () => {
    const token = await ownLink();
    const fields = report({ website: 'http://spam.example' });
    const near = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        call(i % 2 ? one : two, 'POST', `/public/links/${token}/reports`, {
          body: { ...fields, paid_at: fields.paid_at.replace(/:15$/, `:1${i}`) },
          from: freshAddress(),
        }),
      ),
    );
    expect(near.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    const from = freshAddress();
    await withinOneMinute(10);
    const keyed = { ...report({ website: 'http://spam.example' }), client_key: newKey() };
    const same = await Promise.all(
      [one, two, one].map((api) => call(api, 'POST', `/public/links/${token}/reports`, { body: keyed, from })),
    );
    expect(same.map((a) => a.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(same.map((a) => a.body.tracking)).size).toBe(1);
    expect(await stored([fields.last_five, keyed.last_five])).toBe(0);
    expect(errors).toEqual([]);
  });

  it('重新產生 gives the new link a day of its own: a flood that used up the leaked link\u2019s budget does not silence it', async () => {
    const store = await createStore(
      { db: t.db, security: SECURITY, actor: systemActor('test'), ip: null },
      { name: '洪水店', code: 'FLOOD' },
    );
    const leaked = tokenOf((await call(one, 'GET', `/stores/${store.id}/link`, { as: 'admin' })).body.url);
    const flood = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        call(i % 2 ? two : one, 'POST', `/public/links/${leaked}/reports`, { body: report(), from: freshAddress() }),
      ),
    );
    expect(flood.filter((a) => a.status === 201)).toHaveLength(12);
    expect(
      (await call(one, 'POST', `/public/links/${leaked}/reports`, { body: report(), from: freshAddress() })).status,
    ).toBe(429);
    const fresh = tokenOf((await call(one, 'POST', `/stores/${store.id}/link/rotate`, { as: 'admin' })).body.url);
    expect(fresh).not.toBe(leaked);
    expect(
      (await call(two, 'POST', `/public/links/${fresh}/reports`, { body: report(), from: freshAddress() })).status,
    ).toBe(201);
  });

  it('addresses of one IPv6 /64 are one customer to the limits; an IPv4 address written as IPv6 is itself', async () => {
    const token = await ownLink();
    await withinOneMinute(20);
    const block = `2001:db8:${++addressNo}:7`;
    const sends = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(i % 2 ? two : one, 'POST', `/public/links/${token}/reports`, {
          body: report(),
          from: `${block}::${i + 1}`,
        }),
      ),
    );
    expect(sends.filter((a) => a.status === 201)).toHaveLength(5);
    expect(sends.filter((a) => a.status === 429)).toHaveLength(1);
    const v4 = freshAddress();
    const mixed = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(i % 2 ? two : one, 'POST', `/public/links/${token}/reports`, {
          body: report(),
          from: i % 2 ? v4 : `::ffff:${v4}`,
        }),
      ),
    );
    expect(mixed.filter((a) => a.status === 429)).toHaveLength(1);
  });

  it('a day of the limits is Taiwan\u2019s: it ends at midnight in Taipei, not at 08:00 (UTC\u2019s midnight)', async () => {
    const limits = { perAddressMinute: 100, perAddressDay: 2, perLinkDay: 100 };
    const at = (iso: string) => Date.parse(iso);
    const from = freshAddress();
    // 07:50 and 08:10 Taipei are one day; 23:55 is still that day; 00:05 is the next
    await holdReport(t.db, limits, from, 'taipei-day-link', at('2026-11-09T23:50:00Z'));
    await holdReport(t.db, limits, from, 'taipei-day-link', at('2026-11-10T00:10:00Z'));
    await expect(holdReport(t.db, limits, from, 'taipei-day-link', at('2026-11-10T15:55:00Z'))).rejects.toThrow(
      /送出次數過多，請於/,
    );
    await holdReport(t.db, limits, from, 'taipei-day-link', at('2026-11-10T16:05:00Z'));
  });

  it('an IPv4 /24 may send four times an address\u2019s day, together', async () => {
    const limits = { perAddressMinute: 100, perAddressDay: 2, perLinkDay: 1000 };
    const net = `198.18.${++addressNo}`;
    const now = Date.now();
    const together = limits.perAddressDay * PUBLIC_BLOCK_DAY_FACTOR;
    for (let i = 1; i <= together; i++) await holdReport(t.db, limits, `${net}.${i}`, 'block-link', now);
    await expect(holdReport(t.db, limits, `${net}.${together + 1}`, 'block-link', now)).rejects.toThrow(/送出次數過多/);
  });

  it('nothing a customer sends makes a 500: huge, wrong types, extra and nested fields, bad JSON, bad tokens', async () => {
    const token = tokenOf((await call(one, 'GET', `/stores/${f.stores.A.id}/link`, { as: 'admin' })).body.url);
    // `fine`: a good report with fields the page never sends, which are not read (the store comes from the link)
    const bodies: Array<{ raw?: string; body?: unknown; type?: string; fine?: boolean }> = [
      { raw: JSON.stringify({ ...report(), note: 'x'.repeat(200_000) }) },
      { raw: '{"last_five": "12345", ' },
      { raw: '[]' },
      { raw: 'null' },
      { raw: '12' },
      { raw: '"text"' },
      { raw: '['.repeat(5000) + ']'.repeat(5000) },
      { body: { last_five: 12345, paid_at: 20261010, amount: '一千', note: { a: 1 } } },
      { body: { last_five: ['12345'], paid_at: null, amount: [1], note: ['x'] } },
      {
        raw: JSON.stringify(report()).replace(/}$/, ',"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}'),
        fine: true,
      },
      {
        body: { ...report(), confirm_duplicate: 'yes', website: null, store_id: 'x'.repeat(1000), id: [1] },
        fine: true,
      },
      { body: { ...report(), amount: 1e308 } },
      { body: { ...report(), note: '\u0000' } },
      { raw: 'last_five=12345', type: 'application/x-www-form-urlencoded' },
    ];
    const paths = [
      `/public/links/${token}/reports`,
      '/public/links/short/reports',
      `/public/links/${'A'.repeat(22)}/reports`,
      `/public/links/${encodeURIComponent("' OR 1=1 --")}/reports`,
    ];
    for (const path of paths) {
      for (const b of bodies) {
        const r = await call(one, 'POST', path, { ...b, from: freshAddress() });
        const what = `${path} ${String(b.raw ?? JSON.stringify(b.body)).slice(0, 60)}`;
        expect(r.status, what).toBeLessThan(500);
        if (!b.fine || path !== paths[0]) expect(r.status, what).not.toBe(201);
        if (r.status !== 201) expect(typeof r.body?.message, what).toBe('string');
      }
    }
    for (const path of [
      '/public/links/%00',
      '/public/links/..%2F..%2Fpackage.json',
      '/public/reports/%F0%9F%98%80',
      `/public/links/${'x'.repeat(5000)}`,
    ]) {
      expect((await call(one, 'GET', path)).status).toBeLessThan(500);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('remit stores link CODE prints the link, --rotate replaces it, --off turns it off, --json prints exactly store, url and active', async () => {
    const env: Record<string, string> =
      t.config.client === 'pg'
        ? {
            DATABASE_URL: `${PG_URL}${PG_URL!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${t.where}`)}`,
            REMIT_JWT_SECRET: 'a7Kq2Wn9Xb4Lp1Zc8Vt3Ms6Hd0Jf5Gy2Ea9Ru',
          }
        : { REMIT_DB: t.where };
    const shown = await runRemit(['stores', 'link', 'KHH', '--json'], env);
    expect(shown.code).toBe(0);
    const first = JSON.parse(shown.stdout);
    expect(Object.keys(first)).toEqual(['store', 'url', 'active']);
    expect(first).toMatchObject({ store: 'KHH', active: true });
    // no REMIT_PUBLIC_URL: the address remit serve would listen on
    expect(first.url.startsWith(`${listenUrl(t.config.client === 'pg' ? '0.0.0.0' : '127.0.0.1', 3000)}/r/`)).toBe(
      true,
    );
    expect((await call(one, 'GET', `/public/links/${tokenOf(first.url)}`)).body).toEqual({ store_name: '高雄店' });

    const withHost = await runRemit(['stores', 'link', 'KHH', '--json'], {
      ...env,
      REMIT_PUBLIC_URL: 'https://pay.example.tw/',
    });
    expect(JSON.parse(withHost.stdout).url).toBe(`https://pay.example.tw/r/${tokenOf(first.url)}`);

    const rotated = await runRemit(['stores', 'link', 'KHH', '--rotate'], env);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toContain('舊連結立即失效');
    expect((await call(one, 'GET', `/public/links/${tokenOf(first.url)}`)).body.message).toBe(LINK_GONE);

    const off = await runRemit(['stores', 'link', 'khh', '--off', '--json'], env);
    expect(JSON.parse(off.stdout)).toMatchObject({ store: 'KHH', active: false });
    const both = await runRemit(['stores', 'link', 'KHH', '--off', '--rotate'], env);
    expect(both.code).toBe(2);
    expect((await runRemit(['stores', 'link', 'NOPE'], env)).stderr).toContain('找不到分店代碼「NOPE」');
  });
});
