/**
 * The first page of 匯款記錄 in /admin's HTML (http/firstScreen.ts), as the
 * server writes it: which page (the remit_list cookie, else the default three days, recomputed
 * each day), for whom (the session cookie, an active user who sees payments), and nothing a note
 * could turn into markup or script. On every database.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayment, DEFAULT_MATCHING, systemActor } from '../../core/index.js';
import { firstScreenFor, LIST_COOKIE } from '../../http/firstScreen.js';
import { spa } from '../../http/static.js';
import { createTestDb, DB_KINDS, TEST_SECURITY, type TestDb } from '../helpers/db.js';
import { seed, type Fixture } from '../helpers/fixtures.js';
import { listen, type Listening } from '../helpers/server.js';

const DAY = 86_400_000;

describe.each(DB_KINDS)('the first screen in /admin (%s)', (kind) => {
  let t: TestDb;
  let f: Fixture;
  let dir: string;
  let server: Listening;

  beforeAll(async () => {
    t = await createTestDb(kind);
    f = await seed(t.db);
    const ctx = { db: t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    const pay = (last_five: string, ago: number, note = '') =>
      createPayment(ctx, {
        last_five,
        paid_at: new Date(Date.now() - ago).toISOString(),
        amount: 500,
        note,
        store_id: f.stores.A.id,
      });
    await pay('11111', 3600_000, '</script><script>alert(1)</script>');
    await pay('22222', 10 * DAY);
    dir = mkdtempSync(join(tmpdir(), 'remit-first-screen-'));
    writeFileSync(join(dir, 'admin.html'), '<title>%REMIT_TITLE%</title><body><div id="root"></div></body>');
    const app = new Koa();
    app.use(
      spa({
        root: dir,
        title: '煙具專賣店',
        firstScreen: firstScreenFor({ db: t.db, security: TEST_SECURITY, matching: DEFAULT_MATCHING }, '煙具專賣店'),
      }),
    );
    server = await listen(app);
  });
  afterAll(async () => {
    await server?.close();
    await t?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const admin = async (token: string | undefined, list?: unknown, path = '/admin') => {
    const cookies = [
      token ? `remit_session=${token}` : '',
      list === undefined
        ? ''
        : `${LIST_COOKIE}=${typeof list === 'string' ? list : encodeURIComponent(JSON.stringify(list))}`,
    ].filter(Boolean);
    const res = await fetch(`${server.url}${path}`, { headers: cookies.length ? { cookie: cookies.join('; ') } : {} });
    return res.text();
  };
  /** the answers written for the page, as it reads them */
  const data = (html: string) => {
    const m = /<script type="application\/json" id="first-screen-data">([^<]*)<\/script>/.exec(html);
    return m
      ? (JSON.parse(m[1]) as {
          list: { data: Array<{ last_five: string; note: string }>; params: { filter: Record<string, unknown> } };
        })
      : null;
  };
  const page = (filter: Record<string, unknown>, defaults: boolean) => ({
    q: { pagination: { page: 1, perPage: 25 }, sort: { field: 'paid_at', order: 'DESC' }, filter },
    c: {},
    d: defaults,
    m: false,
  });

  it('draws the last three days without a kept page, and a note stays text', async () => {
    const html = await admin(f.tokens.admin);
    const d = data(html);
    expect(d?.list.data.map((r) => r.last_five)).toEqual(['11111']);
    expect(d?.list.data[0].note).toBe('</script><script>alert(1)</script>');
    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<script/g)).toHaveLength(1); // the JSON block alone
    expect(html).toContain('&#60;/script&#62;');
  });

  it('draws the kept page: default days are today’s whenever the cookie was written, chosen days stay', async () => {
    const stale = await admin(f.tokens.admin, page({ paid_at_gte: '2020-01-01', paid_at_lte: '2020-01-03' }, true));
    expect(data(stale)?.list.data.map((r) => r.last_five)).toEqual(['11111']);
    expect(data(stale)?.list.params.filter.paid_at_gte).not.toBe('2020-01-01');
    const chosen = await admin(f.tokens.admin, page({}, false));
    expect(data(chosen)?.list.data.map((r) => r.last_five)).toEqual(['11111', '22222']);
  });

  it('sends the drawn page compressed when the browser takes it', async () => {
    const res = await fetch(`${server.url}/admin`, {
      headers: { cookie: `remit_session=${f.tokens.admin}`, 'accept-encoding': 'br' },
    });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('first-screen-row'); // fetch decodes it
  });

  it('draws a list address only when it asks for the kept page (a reload), not another (a link, a step back)', async () => {
    const kept = page({}, false);
    const address = (filter: unknown) =>
      `/admin/payments?displayedFilters=%7B%7D&filter=${encodeURIComponent(JSON.stringify(filter))}&order=DESC&page=1&perPage=25&sort=paid_at`;
    expect(data(await admin(f.tokens.admin, kept, address({})))?.list.data).toHaveLength(2);
    expect(await admin(f.tokens.admin, kept, address({ status: '已入帳' }))).not.toContain('first-screen');
    expect(await admin(f.tokens.admin, kept, address({}).replace('perPage=25', 'perPage=50'))).not.toContain(
      'first-screen',
    );
    expect(await admin(f.tokens.admin, kept, '/admin/payments?filter=%7B')).not.toContain('first-screen');
  });

  it('draws nothing for a cookie it cannot read, without a session, or for a user who may not see payments', async () => {
    for (const list of [
      'x',
      encodeURIComponent('{"q":1}'),
      encodeURIComponent(JSON.stringify(page({}, false))).padEnd(2100, '%20'),
    ]) {
      expect(await admin(f.tokens.admin, list)).not.toContain('first-screen');
    }
    expect(await admin(undefined)).not.toContain('first-screen');
    expect(await admin('not-a-token')).not.toContain('first-screen');
    expect(await admin(f.tokens.inactive)).not.toContain('first-screen');
    expect(await admin(f.tokens.hq_manage_users)).not.toContain('first-screen');
    expect(await admin(f.tokens.branchB)).not.toContain('first-screen-row'); // store B has no payment: no rows
  });
});
