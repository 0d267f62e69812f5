/** The audit log over HTTP: system_admin only, the list protocol, honest shapes and filters. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taipeiDate } from '../../core/index.js';
import { DB_KINDS } from '../helpers/db.js';
import { listParams, startTestServer, type TestServer } from '../helpers/server.js';

const KEYS = ['action', 'actor_id', 'actor_username', 'after', 'at', 'before', 'entity', 'entity_id', 'id', 'ip'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(DB_KINDS)('audit API on %s', (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(kind);
  });
  afterAll(async () => s?.close());

  it('is for system_admin only: 401 without a token, 403 for others', async () => {
    expect((await s.api('GET', '/audit')).status).toBe(401);
    for (const who of ['hq_manage_users', 'hq_view_payments', 'branchA', 'hq_none']) {
      const res = await s.api('GET', '/audit', { as: who });
      expect(res.status, who).toBe(403);
      expect(res.body.message).toMatch(/^權限不足/);
    }
    expect((await s.api('GET', '/audit', { as: 'admin' })).status).toBe(200);
    expect((await s.api('GET', '/audit', { as: 'hq_system_admin' })).status).toBe(200);
  });

  it('lists an update with actor, address, before and after, newest first', async () => {
    const target = s.users.hq_none;
    const put = await s.api('PUT', `/users/${target.id}`, {
      as: 'admin',
      body: { is_active: false },
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(put.status).toBe(200);
    const res = await s.api('GET', `/audit${listParams({ range: [0, 4] })}`, { as: 'admin' });
    expect(res.status).toBe(200);
    const total = Number(((await s.t.db('audit_log').count({ n: '*' }).first()) as { n: number | string }).n);
    expect(res.headers.get('content-range')).toBe(`audit 0-4/${total}`);
    const [top] = res.body;
    expect(Object.keys(top).sort()).toEqual(KEYS);
    expect(top).toMatchObject({
      action: 'update',
      entity: 'user',
      entity_id: String(target.id),
      actor_username: 'admin',
      actor_id: s.users.admin.id,
    });
    expect(top.before).toMatchObject({ id: target.id, is_active: true });
    expect(top.after).toMatchObject({ id: target.id, is_active: false });
    expect(top.at).toMatch(ISO);
    expect(typeof top.id).toBe('number');
    expect(top.ip === null || typeof top.ip === 'string').toBe(true);
    const times = res.body.map((e: any) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // a create has no before
    const created = await s.api(
      'GET',
      `/audit${listParams({ filter: { action: 'create', entity: 'user' }, range: [0, 0] })}`,
      { as: 'admin' },
    );
    expect(created.body[0].before).toBeNull();
    expect(created.body[0].after).toHaveProperty('username');
  });

  it('filters by action, entity, entity_id, user, text and Taiwan dates', async () => {
    const get = async (filter: Record<string, unknown>, sort?: [string, string]) => {
      const res = await s.api('GET', `/audit${listParams({ filter, sort, range: [0, 999] })}`, { as: 'admin' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as any[];
    };
    const updates = await get({ action: 'update' });
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.every((e) => e.action === 'update')).toBe(true);
    expect((await get({ action: ['update', 'create'] })).length).toBeGreaterThan(updates.length);
    expect((await get({ entity: 'store' })).every((e) => e.entity === 'store')).toBe(true);
    const byId = await get({ entity: 'user', entity_id: String(s.users.hq_none.id) });
    expect(byId.length).toBeGreaterThanOrEqual(2);
    expect((await get({ actor_username: 'ADMIN' })).every((e) => e.actor_username === 'admin')).toBe(true);
    expect(await get({ actor_username: 'nobody_here' })).toEqual([]);
    expect((await get({ q: 'adm' })).length).toBeGreaterThan(0);
    expect(await get({ q: '%' })).toEqual([]);
    const today = taipeiDate(Date.now());
    const all = await get({});
    expect((await get({ at_gte: today, at_lte: today })).length).toBe(all.length);
    expect(await get({ at_gte: '2001-01-01', at_lte: '2001-01-02' })).toEqual([]);
    const asc = await get({}, ['id', 'ASC']);
    expect(asc.map((e) => e.id)).toEqual([...asc.map((e) => e.id)].sort((a, b) => a - b));
  });

  it('answers 400 for bad list parameters', async () => {
    for (const q of [
      listParams({ filter: { nope: 1 } }),
      listParams({ filter: { at_gte: '2026-13-45' } }),
      listParams({ filter: { at_gte: 5 } }),
      listParams({ filter: { action: {} } }),
      listParams({ filter: { q: [] } }),
      listParams({ sort: ['before', 'ASC'] }),
      '?range=[5,1]',
      '?filter={bad',
    ]) {
      const res = await s.api('GET', `/audit${q}`, { as: 'admin' });
      expect(res.status, q).toBe(400);
    }
    expect(s.errors).toEqual([]);
  });
});
