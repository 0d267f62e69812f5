#!/usr/bin/env node
/**
 * Soak (npm run soak, after the memory tests; CI runs it after npm test): mixed traffic for a few minutes against two API instances on
 * one PostgreSQL database: submissions, list reads, imports, user edits racing password
 * resets, sign-ins right and wrong, wrong current passwords on the change-password form, and
 * back-office sessions in the HttpOnly cookie (sign in, read, submit, a forged cross-site write,
 * sign out). At the end it checks that every accepted payment is stored exactly once, that
 * importing the same rows again and again stored them once, that no user edit was lost, that
 * the change-password form let no more than 10 wrong guesses through and never answered 503,
 * that every signed-out cookie was refused on the other instance and every forged write refused,
 * and that no answer was a 5xx. Exits 1 on any failure.
 *
 *   REMIT_SOAK_PG_URL   PostgreSQL to use (default postgres://postgres@127.0.0.1:5432/test);
 *                       a private schema is made and dropped
 *   REMIT_SOAK_SECONDS  how long to run (default 180)
 * Traffic goes to 127.0.0.1 only.
 */
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { loadConfig } from '../dist/core/index.js';
import { startServer } from '../dist/http/server.js';

const PG = process.env.REMIT_SOAK_PG_URL || process.env.REMIT_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.REMIT_SOAK_SECONDS || 180);
const schema = `remit_soak_${randomBytes(4).toString('hex')}`;
const ADMIN_PW = 'soak-admin-pw';

const admin = knexFactory({ client: 'pg', connection: PG, pool: { min: 0, max: 1 } });
await admin.raw('create schema ??', [schema]);

const base = loadConfig({
  DATABASE_URL: PG,
  REMIT_JWT_SECRET: randomBytes(32).toString('hex'),
  REMIT_ADMIN_PASSWORD: ADMIN_PW,
  REMIT_TRUST_PROXY: '1',
  REMIT_BCRYPT_COST: '10',
});
const config = { ...base, host: '127.0.0.1', port: 0, db: { client: 'pg', connectionString: PG, searchPath: schema } };
const servers = await Promise.all([
  startServer(config, { log: (m, e) => console.error(m, e) }),
  startServer(config, { log: (m, e) => console.error(m, e) }),
]);
const urls = servers.map((s) => s.url);

const fivexx = [];
const counts = {};
let seq = 0;
async function call(method, path, { token, body, ip, cookie, headers: extra, via } = {}) {
  const url = via ?? urls[seq++ % urls.length];
  const headers = { 'x-forwarded-for': ip ?? '127.0.0.1', ...(extra ?? {}) };
  if (token) headers.authorization = `Bearer ${token}`;
  if (cookie) headers.cookie = `remit_session=${cookie}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const key = `${method} ${path.split('?')[0].replace(/\/\d+$|\/[0-9a-f-]{36}$/, '/:id')} ${res.status}`;
  counts[key] = (counts[key] ?? 0) + 1;
  if (res.status >= 500) fivexx.push(`${key}: ${text.slice(0, 200)}`);
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('remit_session='));
  return {
    status: res.status,
    body: text ? JSON.parse(text) : undefined,
    cookie: setCookie ? setCookie.split(';')[0].slice('remit_session='.length) : undefined,
  };
}

const adminToken = (await call('POST', '/admin/login', { body: { username: 'admin', password: ADMIN_PW } })).body.token;
const store = (await call('GET', '/stores', { token: adminToken })).body[0];
const USERS = 4;
const users = [];
for (let i = 0; i < USERS; i++) {
  users.push(
    (
      await call('POST', '/users', {
        token: adminToken,
        body: {
          username: `soak${i}`,
          password: 'soak-pass-1',
          role: 'user',
          permissions: ['view_payments'],
          store_id: store.id,
        },
      })
    ).body,
  );
}

// their own accounts, so the wrong sign-ins above do not slow them
await call('POST', '/users', {
  token: adminToken,
  body: { username: 'soakpw', password: 'soak-pass-1', role: 'user', permissions: [], store_id: store.id },
});
const pwToken = (
  await call('POST', '/admin/login', { ip: '192.0.2.1', body: { username: 'soakpw', password: 'soak-pass-1' } })
).body.token;
const COOKIE_USERS = 2;
for (let i = 0; i < COOKIE_USERS; i++) {
  await call('POST', '/users', {
    token: adminToken,
    body: {
      username: `soakweb${i}`,
      password: 'soak-pass-1',
      role: 'user',
      permissions: ['view_payments'],
      store_id: store.id,
    },
  });
}
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };
const CROSS_SITE = {
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'navigate',
  origin: 'https://evil.example',
  'content-type': 'text/plain',
};
const passwordAnswers = {};
let cookieSessions = 0;

const until = Date.now() + SECONDS * 1000;
const accepted = new Set();
const lastPermissions = new Map();
const IMPORT_ROWS = Array.from({ length: 20 }, (_, i) => ({
  last_five: String(80000 + i),
  paid_at: '2026-11-01T10:00',
  amount: 9000 + i,
  store_id: store.id,
  note: 'soak-import',
}));
const PERMS = ['view_payments', 'edit_payments', 'delete_payments', 'view_reports'];

const loops = {
  async submit() {
    const n = seq;
    const r = await call('POST', '/payments', {
      token: adminToken,
      body: {
        last_five: String(10000 + (n % 90000)),
        paid_at: '2026-11-18T09:15',
        amount: 1 + (n % 100000),
        note: `soak-${n}`,
        store_id: store.id,
      },
    });
    if (r.status === 201) accepted.add(r.body.uuid);
  },
  async read() {
    await call(
      'GET',
      `/payments?range=${encodeURIComponent('[0,49]')}&sort=${encodeURIComponent('["paid_at","DESC"]')}`,
      { token: adminToken },
    );
  },
  async importSame() {
    await call('POST', '/payments/bulk-import', { token: adminToken, body: { payments: IMPORT_ROWS } });
  },
  async editUser(i) {
    const u = users[i % USERS];
    const perms = PERMS.filter(() => Math.random() < 0.5);
    const r = await call('PUT', `/users/${u.id}`, { token: adminToken, body: { permissions: perms } });
    if (r.status === 200) lastPermissions.set(u.id, perms);
  },
  async resetPassword(i) {
    const u = users[(i + 1) % USERS];
    await call('PUT', `/users/${u.id}`, {
      token: adminToken,
      body: { password: 'soak-pass-1', confirmPassword: 'soak-pass-1' },
    });
  },
  /** someone holding a session guesses the current password, from two addresses */
  async wrongChangePassword(i) {
    const r = await call('POST', '/users/change-password', {
      token: pwToken,
      ip: `192.0.2.${1 + (i % 2)}`,
      body: { currentPassword: `guess-${i}`, newPassword: 'never-set-1', confirmNewPassword: 'never-set-1' },
    });
    passwordAnswers[r.status] = (passwordAnswers[r.status] ?? 0) + 1;
  },
  /** the back office: a cookie session from sign-in to sign-out, on both instances */
  async cookieSession(i) {
    const ip = `203.0.114.${i % 250}`;
    const signedIn = await call('POST', '/admin/login', {
      ip,
      via: urls[i % 2],
      headers: SAME_ORIGIN,
      body: { username: `soakweb${i % COOKIE_USERS}`, password: 'soak-pass-1' },
    });
    if (signedIn.status !== 200 || !signedIn.cookie)
      return void failuresLive.push(`cookie sign-in answered ${signedIn.status} without a cookie`);
    const cookie = signedIn.cookie;
    const me = await call('GET', '/admin/me', { cookie, ip, via: urls[(i + 1) % 2] });
    if (me.status !== 200) failuresLive.push(`a fresh cookie session got ${me.status} on /admin/me`);
    await call('GET', `/payments?range=${encodeURIComponent('[0,9]')}`, { cookie, ip });
    const forged = await call('POST', '/admin/logout', { cookie, ip, headers: CROSS_SITE });
    if (forged.status !== 403) failuresLive.push(`a forged cross-site sign-out answered ${forged.status}`);
    const out = await call('POST', '/admin/logout', { cookie, ip, via: urls[i % 2], headers: SAME_ORIGIN });
    if (out.status !== 204) failuresLive.push(`sign-out answered ${out.status}`);
    const after = await call('GET', '/admin/me', { cookie, ip, via: urls[(i + 1) % 2] });
    if (after.status !== 401) failuresLive.push(`a signed-out cookie got ${after.status} on the other instance`);
    cookieSessions++;
  },
  async signIn(i) {
    const wrong = Math.random() < 0.5;
    const ip = wrong ? `198.51.100.${i % 200}` : `203.0.113.${seq % 250}`;
    await call('POST', '/admin/login', {
      ip,
      body: { username: `soak${i % USERS}`, password: wrong ? 'guess' : 'soak-pass-1' },
    });
  },
};

async function worker(name, index) {
  let i = index;
  while (Date.now() < until) await loops[name](i++);
}
// One editor per user (edits of one user are sequential, so "the last accepted" is well defined).
const failuresLive = [];
const started = Date.now();
await Promise.all([
  ...[0, 1, 2, 3].map((i) => worker('submit', i)),
  worker('read', 0),
  worker('read', 1),
  worker('importSame', 0),
  worker('importSame', 1),
  ...users.map((_, i) => worker('editUser', i).then(() => undefined)),
  worker('resetPassword', 0),
  worker('signIn', 0),
  worker('signIn', 1),
  worker('wrongChangePassword', 0),
  worker('cookieSession', 0),
  worker('cookieSession', 1),
]);

const db = knexFactory({ client: 'pg', connection: PG, searchPath: [schema], pool: { min: 0, max: 2 } });
const failures = [];
const stored = await db('payments')
  .whereIn('uuid', [...accepted])
  .select('uuid');
if (stored.length !== accepted.size) failures.push(`accepted ${accepted.size} submissions, stored ${stored.length}`);
const soakRows = Number(
  (await db('payments').where('note', 'like', 'soak-%').whereNot('note', 'soak-import').count({ n: '*' }).first()).n,
);
if (soakRows !== accepted.size) failures.push(`${soakRows} submission rows stored for ${accepted.size} accepted`);
const imported = await db('payments').where({ note: 'soak-import' }).select('last_five');
if (imported.length !== IMPORT_ROWS.length)
  failures.push(`the same ${IMPORT_ROWS.length} rows imported again and again: ${imported.length} stored`);
for (const u of users) {
  const row = await db('users').where({ id: u.id }).first();
  const want = lastPermissions.get(u.id);
  if (want && JSON.stringify(JSON.parse(row.permissions)) !== JSON.stringify(want))
    failures.push(`user ${u.username}: permissions ${row.permissions}, last accepted edit ${JSON.stringify(want)}`);
}
failures.push(...new Set(failuresLive));
if ((passwordAnswers[400] ?? 0) > 10)
  failures.push(`the change-password form let ${passwordAnswers[400]} wrong guesses through (limit 10 in 15 minutes)`);
if (passwordAnswers[503])
  failures.push(`the change-password form answered 503 ${passwordAnswers[503]} times: a full queue is not the limit`);
if (!passwordAnswers[429]) failures.push('the change-password form never answered 429');
if (fivexx.length) failures.push(`${fivexx.length} answers were 5xx, first: ${fivexx[0]}`);

await db.destroy();
for (const s of servers) await s.close();
await admin.raw('drop schema ?? cascade', [schema]);
await admin.destroy();

const total = Object.values(counts).reduce((a, b) => a + b, 0);
console.log(
  `soak: ${Math.round((Date.now() - started) / 1000)} s, ${total} requests against 2 instances on PostgreSQL`,
);
for (const [k, n] of Object.entries(counts).sort()) console.log(`  ${k.padEnd(40)} ${n}`);
console.log(
  `  accepted submissions ${accepted.size}, all stored once: ${!failures.some((f) => f.includes('submission'))}`,
);
console.log(
  `  wrong change-passwords: ${JSON.stringify(passwordAnswers)}; cookie sessions signed in and out: ${cookieSessions}`,
);
if (failures.length) {
  console.error(`SOAK FAILED:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log(
  'soak passed: every accepted payment stored exactly once, imports never doubled, no user edit lost, password guesses limited, signed-out cookies refused, forged writes refused, no 5xx',
);
