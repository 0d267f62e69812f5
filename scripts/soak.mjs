#!/usr/bin/env node
/**
 * Soak (npm run soak; not in CI): mixed traffic for a few minutes against two API instances on
 * one PostgreSQL database: submissions, list reads, imports, user edits racing password
 * resets, sign-ins right and wrong. At the end it checks that every accepted payment is stored
 * exactly once, that importing the same rows again and again stored them once, that no user edit
 * was lost, and that no answer was a 5xx. Exits 1 on any failure.
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

const base = loadConfig({ DATABASE_URL: PG, REMIT_JWT_SECRET: randomBytes(32).toString('hex'), REMIT_ADMIN_PASSWORD: ADMIN_PW, REMIT_TRUST_PROXY: '1', REMIT_BCRYPT_COST: '10' });
const config = { ...base, host: '127.0.0.1', port: 0, db: { client: 'pg', connectionString: PG, searchPath: schema } };
const servers = await Promise.all([startServer(config, { log: (m, e) => console.error(m, e) }), startServer(config, { log: (m, e) => console.error(m, e) })]);
const urls = servers.map((s) => s.url);

const fivexx = [];
const counts = {};
let seq = 0;
async function call(method, path, { token, body, ip } = {}) {
  const url = urls[seq++ % urls.length];
  const headers = { 'x-forwarded-for': ip ?? '127.0.0.1' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const key = `${method} ${path.split('?')[0].replace(/\/\d+$|\/[0-9a-f-]{36}$/, '/:id')} ${res.status}`;
  counts[key] = (counts[key] ?? 0) + 1;
  if (res.status >= 500) fivexx.push(`${key}: ${text.slice(0, 200)}`);
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const adminToken = (await call('POST', '/admin/login', { body: { username: 'admin', password: ADMIN_PW } })).body.token;
const store = (await call('GET', '/stores', { token: adminToken })).body[0];
const USERS = 4;
const users = [];
for (let i = 0; i < USERS; i++) {
  users.push((await call('POST', '/users', { token: adminToken, body: { username: `soak${i}`, password: 'soak-pass-1', role: 'user', permissions: ['view_payments'], store_id: store.id } })).body);
}

const until = Date.now() + SECONDS * 1000;
const accepted = new Set();
const lastPermissions = new Map();
const IMPORT_ROWS = Array.from({ length: 20 }, (_, i) => ({ last_five: String(80000 + i), paid_at: '2026-11-01T10:00', amount: 9000 + i, store_id: store.id, note: 'soak-import' }));
const PERMS = ['view_payments', 'edit_payments', 'delete_payments', 'view_reports'];

const loops = {
  async submit() {
    const n = seq;
    const r = await call('POST', '/payments', { token: adminToken, body: { last_five: String(10000 + (n % 90000)), paid_at: '2026-11-18T09:15', amount: 1 + (n % 100000), note: `soak-${n}`, store_id: store.id } });
    if (r.status === 201) accepted.add(r.body.uuid);
  },
  async read() {
    await call('GET', `/payments?range=${encodeURIComponent('[0,49]')}&sort=${encodeURIComponent('["paid_at","DESC"]')}`, { token: adminToken });
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
    await call('PUT', `/users/${u.id}`, { token: adminToken, body: { password: 'soak-pass-1', confirmPassword: 'soak-pass-1' } });
  },
  async signIn(i) {
    const wrong = Math.random() < 0.5;
    const ip = wrong ? `198.51.100.${i % 200}` : `203.0.113.${seq % 250}`;
    await call('POST', '/admin/login', { ip, body: { username: `soak${i % USERS}`, password: wrong ? 'guess' : 'soak-pass-1' } });
  },
};

async function worker(name, index) {
  let i = index;
  while (Date.now() < until) await loops[name](i++);
}
// One editor per user (edits of one user are sequential, so "the last accepted" is well defined).
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
].map((p, k) => p));

const db = knexFactory({ client: 'pg', connection: PG, searchPath: [schema], pool: { min: 0, max: 2 } });
const failures = [];
const stored = await db('payments').whereIn('uuid', [...accepted]).select('uuid');
if (stored.length !== accepted.size) failures.push(`accepted ${accepted.size} submissions, stored ${stored.length}`);
const soakRows = Number((await db('payments').where('note', 'like', 'soak-%').whereNot('note', 'soak-import').count({ n: '*' }).first()).n);
if (soakRows !== accepted.size) failures.push(`${soakRows} submission rows stored for ${accepted.size} accepted`);
const imported = await db('payments').where({ note: 'soak-import' }).select('last_five');
if (imported.length !== IMPORT_ROWS.length) failures.push(`the same ${IMPORT_ROWS.length} rows imported again and again: ${imported.length} stored`);
for (const u of users) {
  const row = await db('users').where({ id: u.id }).first();
  const want = lastPermissions.get(u.id);
  if (want && JSON.stringify(JSON.parse(row.permissions)) !== JSON.stringify(want)) failures.push(`user ${u.username}: permissions ${row.permissions}, last accepted edit ${JSON.stringify(want)}`);
}
if (fivexx.length) failures.push(`${fivexx.length} answers were 5xx, first: ${fivexx[0]}`);

await db.destroy();
for (const s of servers) await s.close();
await admin.raw('drop schema ?? cascade', [schema]);
await admin.destroy();

const total = Object.values(counts).reduce((a, b) => a + b, 0);
console.log(`soak: ${Math.round((Date.now() - started) / 1000)} s, ${total} requests against 2 instances on PostgreSQL`);
for (const [k, n] of Object.entries(counts).sort()) console.log(`  ${k.padEnd(40)} ${n}`);
console.log(`  accepted submissions ${accepted.size}, all stored once: ${!failures.some((f) => f.includes('submission'))}`);
if (failures.length) {
  console.error(`SOAK FAILED:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('soak passed: every accepted payment stored exactly once, imports never doubled, no user edit lost, no 5xx');
