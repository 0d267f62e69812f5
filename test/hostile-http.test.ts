/**
 * Hostile HTTP: a generated set of bad requests (well over 500) over every /api endpoint and the
 * static files: wrong types, deep nesting, huge strings, control characters and emoji,
 * SQL-injection strings, path traversal, oversized bodies, wrong content types, invalid ids.
 * Never a 5xx, never a stack trace, the JSON error shape on /api, and the database unchanged.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spa } from '../http/static.js';
import { DB_KINDS } from './helpers/db.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const STACK_LIKE =
  /\n\s*at |\bat [\w.<>]+ \(|(?:^|[\s"'(])\/(?:work|home|usr|tmp|app|srv)\/|node_modules|[\w-]+\.(?:ts|js|mjs|cjs):\d+/;

const SQLI = [
  "' OR '1'='1",
  '1; DROP TABLE payments; --',
  "'; DELETE FROM users; --",
  '" OR ""="',
  '1) UNION SELECT * FROM users --',
  "admin'--",
];
const WEIRD = [
  '\u0000\u0001\u0007\u001b[31m',
  '😀🔥💸'.repeat(50),
  '\u202e\u200b\ufeff',
  'x'.repeat(1024 * 1024),
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '${7*7}{{7*7}}',
];
const WRONG_TYPES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  1.5,
  [],
  [1, 2],
  {},
  { $gt: '' },
  { __proto__: { polluted: 1 } },
  'abc',
];
const BAD_IDS = [
  '-1',
  '0',
  '99999999999999999999999',
  '1e309',
  'abc',
  '1.5',
  '%E4%B8%80',
  '%F0%9F%98%80',
  "1'%20OR%20'1'='1",
  '..%2F..%2Fpackage.json',
  'NaN',
  'Infinity',
  '0x10',
  '%00',
];
const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);

/** Fields of each writing endpoint, to break one at a time. */
/** `broken`: fields that stay invalid whatever else changes, so every request must be refused. */
const BROKEN: Record<string, Array<Record<string, unknown>>> = {
  createPayment: [{ amount: -5 }, { last_five: 'bad' }],
  updatePayment: [{ status: 'nope' }, { note: 12345 }],
  deletePayments: [{ uuids: 'nope' }, { uuids: 'nope' }],
  bulkImport: [{ rows: 'nope' }, { rows: 'nope' }],
  createUser: [{ password: '1' }, { role: 'nope' }],
  updateUser: [{ role: 'nope' }, { permissions: ['nope'] }],
  createStore: [{ code: 'bad code!' }, { name: '' }],
  updateStore: [{ code: 'bad code!' }, { name: '' }],
  changePassword: [{ currentPassword: 'wrong-one' }, { currentPassword: 'wrong-two' }],
  login: [{ password: 'wrong' }, { password: 'wrong' }],
  reconcileConfirm: [{ pairs: 'nope' }, { pairs: 'nope' }],
  reconcileUnpaid: [{ payments: 'nope' }, { payments: 'nope' }],
  reconcileUnlink: [{ payment: 'nope' }, { payment: 'nope' }],
};
const BODIES: Record<string, { method: string; path: string; base: Record<string, unknown> }> = {
  createPayment: {
    method: 'POST',
    path: '/payments',
    base: { last_five: '54321', paid_at: '2026-11-20T10:00', amount: 1500, store_id: 1, note: 'n' },
  },
  updatePayment: { method: 'PUT', path: '/payments/UUID', base: { status: 'confirmed', note: 'n' } },
  deletePayments: { method: 'DELETE', path: '/payments', base: { uuids: ['00000000-0000-0000-0000-000000000000'] } },
  bulkImport: {
    method: 'POST',
    path: '/payments/bulk-import',
    base: { rows: [{ row: 2, last_five: '54321', paid_at: '2026-11-20T10:00', amount: 1500, store_id: 1, note: '' }] },
  },
  createUser: {
    method: 'POST',
    path: '/users',
    base: { username: 'newuser', password: 'shop-key-4821', role: 'user', permissions: [], accessible_stores: [] },
  },
  updateUser: { method: 'PUT', path: '/users/USERID', base: { role: 'user', permissions: [], is_active: true } },
  createStore: { method: 'POST', path: '/stores', base: { name: '新店', code: 'NEW' } },
  updateStore: { method: 'PUT', path: '/stores/STOREID', base: { name: '新店', code: 'NEW' } },
  changePassword: {
    method: 'POST',
    path: '/users/change-password',
    base: { currentPassword: 'wrong-one', newPassword: 'x', confirmPassword: 'y' },
  },
  login: { method: 'POST', path: '/admin/login', base: { username: 'nobody_here', password: 'wrong' } },
  reconcileConfirm: {
    method: 'POST',
    path: '/reconcile/confirm',
    base: { pairs: [{ payment: '00000000-0000-0000-0000-000000000000', line: 1 }] },
  },
  reconcileUnpaid: {
    method: 'POST',
    path: '/reconcile/unpaid',
    base: { payments: ['00000000-0000-0000-0000-000000000000'] },
  },
  reconcileUnlink: {
    method: 'POST',
    path: '/reconcile/unlink',
    base: { payment: '00000000-0000-0000-0000-000000000000' },
  },
};

interface Req {
  label: string;
  method: string;
  path: string;
  raw?: string | Buffer;
  contentType?: string;
  anonymous?: boolean;
  /** not /api: the static files */
  static?: boolean;
}

function generate(): Req[] {
  const out: Req[] = [];
  for (const [name, ep] of Object.entries(BODIES)) {
    const send = (label: string, body: unknown, extra: Partial<Req> = {}) =>
      out.push({
        label: `${name}: ${label}`,
        method: ep.method,
        path: ep.path,
        raw: JSON.stringify(body),
        contentType: 'application/json',
        ...extra,
      });
    const [b1, b2] = BROKEN[name];
    const brokenFor = (field: string) => (field in b1 ? b2 : b1);
    for (const field of Object.keys(ep.base)) {
      for (const [i, v] of WRONG_TYPES.entries())
        send(`${field} wrong type #${i}`, { ...ep.base, ...brokenFor(field), [field]: v });
      for (const [i, v] of [...SQLI, ...WEIRD].entries())
        send(`${field} hostile string #${i}`, { ...ep.base, ...brokenFor(field), [field]: v });
    }
    const first = Object.keys(ep.base)[0];
    send('deep nesting', undefined, {
      raw: JSON.stringify({ ...ep.base, ...brokenFor(first) }).replace(/^\{/, `{"${first}":${deepArray(10_000)},`),
    });
    send('deep nesting as body', undefined, { raw: deepArray(10_000) });
    send('oversized body', undefined, { raw: JSON.stringify({ ...ep.base, note: 'x'.repeat(30 * 1024 * 1024) }) });
    send('text/plain', undefined, { raw: JSON.stringify(ep.base), contentType: 'text/plain' });
    send('form', undefined, { raw: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' });
    send('xml', undefined, {
      raw: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
      contentType: 'application/xml',
    });
    send('multipart', undefined, {
      raw: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--',
      contentType: 'multipart/form-data; boundary=b',
    });
    send('malformed json', undefined, { raw: '{"a":' });
    send('json with bad charset', undefined, { raw: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
    send('anonymous', ep.base, { anonymous: true });
  }
  const lists = [
    '/payments',
    '/users',
    '/stores',
    '/stores/STOREID/payments',
    '/payments/export',
    '/stats/summary',
    '/stats/charts',
    '/reconcile/lines',
  ];
  for (const list of lists) {
    for (const v of [
      ...SQLI,
      'uuid; DROP TABLE payments',
      '["id","DESC; DROP TABLE users"]',
      '[0,1e309]',
      '[-5,-1]',
      '{"__proto__":{"polluted":1}}',
      '{{',
      '😀',
      '\u0000',
    ]) {
      for (const p of ['sort', 'range', 'filter'])
        out.push({
          label: `${list} ${p}=${v.slice(0, 20)}`,
          method: 'GET',
          path: `${list}?${p}=${encodeURIComponent(v)}`,
        });
    }
    for (const [i, v] of SQLI.entries())
      out.push({
        label: `${list} filter values #${i}`,
        method: 'GET',
        path: `${list}?filter=${encodeURIComponent(JSON.stringify({ q: v, store_id: v, status: v, date_from: v, date_to: v, id: [v, 1] }))}`,
      });
    out.push({
      label: `${list} sort field injection`,
      method: 'GET',
      path: `${list}?sort=${encodeURIComponent(JSON.stringify(['amount) ; DROP TABLE payments; --', 'ASC']))}`,
    });
    out.push({ label: `${list} huge query`, method: 'GET', path: `${list}?filter=${'%7B'.repeat(5000)}` });
  }
  for (const base of ['/payments/', '/users/', '/stores/', '/stores/']) {
    for (const id of BAD_IDS) {
      out.push({ label: `GET ${base}${id}`, method: 'GET', path: `${base}${id}` });
      out.push({ label: `DELETE ${base}${id}`, method: 'DELETE', path: `${base}${id}` });
      out.push({
        label: `PUT ${base}${id}`,
        method: 'PUT',
        path: `${base}${id}`,
        raw: '{"note":"x","name":"y"}',
        contentType: 'application/json',
      });
    }
  }
  for (const id of BAD_IDS)
    out.push({ label: `GET /stores/${id}/payments`, method: 'GET', path: `/stores/${id}/payments` });
  for (const p of [
    '/assets/../../package.json',
    '/assets/..%2F..%2Fpackage.json',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/assets/%252e%252e%252fpackage.json',
    '/..%2f..%2f..%2fetc%2fpasswd',
    '/assets/..\\..\\package.json',
    '/assets/%c0%ae%c0%ae/package.json',
    '/assets/%00.js',
    '/assets/%',
    '/%2e%2e/secret.txt',
    '/../secret.txt',
    '/admin/../../secret.txt',
    '/assets/app.js%00.html',
    '//etc/passwd',
    '/assets/' + 'a'.repeat(5000),
  ]) {
    out.push({ label: `static ${p}`, method: 'GET', path: p, static: true });
  }
  return out;
}

describe.each(DB_KINDS)('hostile HTTP on %s', (kind) => {
  let s: TestServer;
  let dir: string;
  const reqs = generate();

  async function state() {
    const db = s.t.db;
    const out: Record<string, unknown> = {};
    for (const t of ['payments', 'users', 'stores', 'audit_log']) {
      // failed sign-ins and exports that were answered are
      // audited on purpose: every other audit row must stay as it was
      const q = db(t)
        .select('*')
        .orderBy(t === 'payments' ? 'uuid' : 'id');
      const rows = await (t === 'audit_log' ? q.whereNotIn('action', ['login_failed', 'export']) : q);
      out[t] = { n: rows.length, sum: createHash('sha256').update(JSON.stringify(rows)).digest('hex') };
    }
    return out;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'remit-hostile-http-'));
    const root = join(dir, 'admin');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<p>form</p>');
    writeFileSync(join(root, 'admin.html'), '<p>admin</p>');
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'secret.txt'), 'SECRET-DO-NOT-SERVE');
    s = await startTestServer(kind, { after: [spa({ root, title: 'remit' })] });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`at least 500 requests are generated (${reqs.length})`, () => {
    expect(reqs.length).toBeGreaterThanOrEqual(500);
  });

  it('none is a 5xx, none leaks a stack trace or a file, /api answers in the JSON error shape, nothing is written', async () => {
    const payment = await s.api('POST', '/payments', {
      as: 'admin',
      body: { last_five: '11111', paid_at: '2026-11-20T10:00', amount: 800, store_id: s.stores.A.id },
    });
    expect(payment.status).toBe(201);
    const ids = {
      UUID: payment.body.uuid ?? payment.body.id,
      USERID: String(s.users.branchA.id),
      STOREID: String(s.stores.C.id),
    };
    const before = await state();
    const failures: string[] = [];
    let i = 0;
    const worker = async () => {
      while (i < reqs.length) {
        const r = reqs[i++];
        const path = r.path.replace(/UUID|USERID|STOREID/g, (k) => ids[k as keyof typeof ids]);
        const headers: Record<string, string> = {};
        if (!r.anonymous && !r.static) headers.authorization = `Bearer ${s.tokens.admin}`;
        if (r.contentType) headers['content-type'] = r.contentType;
        let status: number;
        let text: string;
        let type: string;
        let requestId: string | null;
        try {
          const res = await fetch(`${s.url}${r.static ? '' : '/api'}${path}`, {
            method: r.method,
            headers,
            body: r.raw as BodyInit | undefined,
          });
          status = res.status;
          type = res.headers.get('content-type') ?? '';
          requestId = res.headers.get('x-request-id');
          text = await res.text();
        } catch (err) {
          // the server may close the connection on an oversized body: not a 5xx, but say so if it is anything else
          if (r.label.includes('oversized')) continue;
          failures.push(`${r.label}: ${String(err)}`);
          continue;
        }
        const bad = (why: string) => failures.push(`${r.label} → ${status} ${why}: ${text.slice(0, 200)}`);
        if (status >= 500) bad('5xx');
        if (STACK_LIKE.test(text)) bad('stack-like');
        if (text.includes('SECRET-DO-NOT-SERVE') || text.includes('"devDependencies"'))
          bad('file outside the folder served');
        // a list or report may ignore a parameter it does not use (and answer 200); a write must be refused
        if (!r.static && (r.method !== 'GET' || status >= 400)) {
          if (status < 400) bad('accepted');
          let body: any;
          try {
            body = JSON.parse(text);
          } catch {
            bad('not JSON');
            continue;
          }
          if (
            !type.startsWith('application/json') ||
            typeof body?.message !== 'string' ||
            Object.keys(body).some((k) => k !== 'message' && k !== 'errors' && k !== 'request_id') ||
            body.request_id !== requestId
          )
            bad('not the error shape');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(failures, failures.slice(0, 30).join('\n')).toEqual([]);
    expect(({} as any).polluted).toBeUndefined();
    const after = await state();
    expect(after).toEqual(before);
    expect(s.errors).toEqual([]);
  }, 90_000);
});
