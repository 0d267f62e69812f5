/**
 * A one-store accountant imports the statement headquarters imported first (for every store):
 * the lines were skipped as already held, and the store saw none of them. Now the store's users
 * see them against the store's own reports, never another store's reports, and decide only
 * their own store's pairs; and a reconciliation that proposes nothing says why. Over the API
 * and `remit reconcile`, on SQLite and PostgreSQL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, systemActor } from '../../core/index.js';
import { signToken } from '../../core/users/auth.js';
import type { UserRow } from '../../core/users/rows.js';
import { DB_KINDS, PG_URL, TEST_SECURITY } from '../helpers/db.js';
import { PASSWORD } from '../helpers/fixtures.js';
import { runRemit } from '../helpers/cliInProcess.js';
import { listParams, startTestServer, type TestServer } from '../helpers/server.js';

const ROWS = [
  '20261105,100200,,1500,1500,跨行轉入,900047****12345,', // store A's customer
  '20261105,113000,,2600,4100,跨行轉入,900047****54321,', // store B's customer
  '20261105,153000,,800,4900,現金存款,,', // nobody reported it
];
const statement = (rows: string[]) =>
  iconv.encode(
    ['國泰世華銀行 交易明細', '交易日期,交易時間,轉出,轉入,餘額,說明,帳號,備註', ...rows].join('\r\n') + '\r\n',
    'big5',
  );
const OCTET = { 'content-type': 'application/octet-stream' };

describe.each(DB_KINDS)('a store importing the statement headquarters imported, on %s', (kind) => {
  let s: TestServer;
  let acct: string;
  const A = () => s.stores.A.id;
  const uuids: Record<string, string> = {};
  beforeAll(async () => {
    s = await startTestServer(kind);
    // the accountant of store A: imports statements and decides, for store A only
    const ctx = { db: s.t.db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
    const u = await createUser(ctx, {
      username: 'acct_tpe',
      password: PASSWORD,
      role: 'user',
      store_id: s.stores.A.id,
      permissions: ['view_payments', 'manage_payments', 'confirm_payments'],
    });
    acct = signToken(TEST_SECURITY, (await s.t.db<UserRow>('users').where({ id: u.id }).first())!);
    const pay = async (last_five: string, amount: number, store: number) =>
      (
        await s.api('POST', '/payments', {
          as: 'admin',
          body: { last_five, paid_at: '2026-11-05T10:00', amount, note: '', store_id: store },
        })
      ).body.uuid as string;
    uuids.a = await pay('12345', 1500, s.stores.A.id);
    uuids.b = await pay('54321', 2600, s.stores.B.id);
  });
  afterAll(async () => s?.close());

  const upload = (token: string, store = '') =>
    s.api('POST', `/reconcile/statements?filename=nov.csv&store_id=${store}`, {
      token,
      raw: statement(ROWS),
      headers: OCTET,
    });
  const proposals = (token: string) =>
    s.api('GET', '/reconcile/proposals?from=2026-11-05&to=2026-11-05', { token }).then((r) => r.body);

  it('before any statement, the empty queues say why; after headquarters’ import, the store’s own import shows the lines against store A’s reports only', async () => {
    expect(await proposals(acct)).toMatchObject({ auto: [], unreported: [], empty: 'no_statement' });
    expect((await upload(s.tokens.admin)).body.statement).toMatchObject({ store_id: null, new: 3 });
    // headquarters' statement is not the store's: the store sees nothing yet, and is told why
    expect((await proposals(acct)).empty).toBe('no_statement');

    const mine = await upload(acct);
    expect(mine.body.statement).toMatchObject({ store_id: A(), new: 0, duplicates: 3 });
    const p = await proposals(acct);
    expect(p.empty).toBeUndefined();
    expect(p.auto.map((x: any) => [x.payment.uuid, x.line.amount])).toEqual([[uuids.a, 1500]]);
    expect(p.unreported.map((x: any) => x.line.amount).sort()).toEqual([2600, 800].sort());
    expect(JSON.stringify(p)).not.toContain(uuids.b);
    expect((await s.api('GET', '/reconcile/lines', { token: acct })).body).toHaveLength(3);
  });

  it('the store decides its own pairs only; a line headquarters linked to another store’s payment is taken, never whose', async () => {
    const lines = (await s.api('GET', `/reconcile/lines${listParams({ sort: ['amount', 'ASC'] })}`, { token: acct }))
      .body as any[];
    const [l800, l1500, l2600] = lines;
    const other = await s.api('POST', '/reconcile/confirm', {
      token: acct,
      body: { pairs: [{ payment: uuids.b, line: l2600.id }] },
    });
    expect(other.status).toBe(403);
    const notMine = await s.api('POST', '/reconcile/from-line', {
      token: acct,
      body: { line: l800.id, store_id: s.stores.B.id },
    });
    expect(notMine.status).toBe(403);
    // the reports it could be linked to by hand are store A's, never B's of the same amount
    expect(
      (await s.api('GET', `/reconcile/lines/${l2600.id}/reports`, { token: acct })).body.reports.map(
        (r: any) => r.uuid,
      ),
    ).toEqual([uuids.a]);

    expect(
      (
        await s.api('POST', '/reconcile/confirm', {
          as: 'admin',
          body: { pairs: [{ payment: uuids.b, line: l2600.id }] },
        })
      ).status,
    ).toBe(200);
    const seen = (await s.api('GET', `/reconcile/lines${listParams({ filter: { matched: true } })}`, { token: acct }))
      .body;
    expect(seen.map((l: any) => [l.id, l.payment])).toEqual([[l2600.id, null]]);
    expect((await s.api('POST', '/reconcile/from-line', { token: acct, body: { line: l2600.id } })).body.message).toBe(
      '這筆入帳已連結到其他匯款記錄，請重新比對',
    );

    // the store's own report confirmed; the credit nobody reported may be any store's money (the
    // statement is every store's): the store's accountant may not make it theirs, headquarters may
    expect(
      (
        await s.api('POST', '/reconcile/confirm', {
          token: acct,
          body: { pairs: [{ payment: uuids.a, line: l1500.id }] },
        })
      ).body,
    ).toEqual({ confirmed: 1 });
    const claimed = await s.api('POST', '/reconcile/from-line', {
      token: acct,
      body: { line: l800.id, last_five: '00800' },
    });
    expect(claimed.status).toBe(403);
    expect(claimed.body.message).toBe(
      `銀行明細 ${l800.id} 屬於全部分店的對帳單，可能是其他分店的款項：請由管理全部分店的帳號建立匯款記錄，或連結到本分店的回報`,
    );
    const made = await s.api('POST', '/reconcile/from-line', {
      as: 'admin',
      body: { line: l800.id, last_five: '00800', store_id: A() },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ store_id: A(), source: 'bank', status: '已入帳' });
    // every line decided: the queues are empty, and say so
    expect(await proposals(acct)).toMatchObject({
      auto: [],
      review: [],
      unpaid: [],
      unreported: [],
      empty: 'all_decided',
    });
    expect((await proposals(s.tokens.branchB)).empty).toBe('no_statement');
  });

  it('remit reconcile --as the store’s accountant prints the lines of the statement headquarters imported, and why when nothing is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-shared-'));
    try {
      const env =
        kind === 'postgres'
          ? {
              DATABASE_URL: `${PG_URL}${PG_URL!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${s.t.where}`)}`,
              REMIT_JWT_SECRET: 'a7Kq2Wn9Xb4Lp1Zc8Vt3Ms6Hd0Jf5Gy2Ea9Ru',
            }
          : { REMIT_DB: s.t.where };
      const rows = [
        '20261106,090000,,700,5600,跨行轉入,900047****77777,',
        '20261106,120000,,990,6590,跨行轉入,900047****99999,',
      ];
      writeFileSync(join(dir, 's.csv'), statement(rows));
      await s.api('POST', '/payments', {
        as: 'admin',
        body: { last_five: '77777', paid_at: '2026-11-06T09:00', amount: 700, note: '', store_id: s.stores.A.id },
      });
      const file = join(dir, 's.csv');
      expect((await runRemit(['reconcile', file, '--json'], env)).code).toBe(0);
      const asStore = await runRemit(['reconcile', file, '--as', 'acct_tpe', '--json'], env);
      expect(asStore.code, asStore.stderr).toBe(0);
      const out = JSON.parse(asStore.stdout);
      expect(out.statement).toMatchObject({ new: 0, duplicates: 2 });
      expect(out.auto).toHaveLength(1);
      expect(out.unreported.map((u: any) => u.line.amount)).toEqual([990]);
      expect(out.empty).toBeUndefined();

      // decided by headquarters: the store's run says why its queues are empty
      await runRemit(['reconcile', file, '--apply'], env);
      const line990 = (
        await s.api('GET', `/reconcile/lines${listParams({ filter: { matched: false } })}`, { as: 'admin' })
      ).body.find((l: any) => l.amount === 990);
      expect(
        (
          await s.api('POST', '/reconcile/from-line', {
            as: 'admin',
            body: { line: line990.id, store_id: s.stores.A.id },
          })
        ).status,
      ).toBe(201);
      const text = await runRemit(['reconcile', file, '--as', 'acct_tpe'], env);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain('這段期間的存入款項都已對帳完成，也沒有待確認的回報');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
