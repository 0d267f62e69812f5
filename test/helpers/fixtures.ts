/**
 * A small business for tests: three stores and one user per role the authorization rules
 * distinguish. Users are created through the core services, like any real account.
 */
import type { Knex } from 'knex';
import { createStore, createUser, systemActor, type Store, type User } from '../../core/index.js';
import { signToken } from '../../core/users/auth.js';
import { PERMISSION_KEYS } from '../../core/permissions.js';
import { type UserRow } from '../../core/users/rows.js';
import { TEST_SECURITY } from './db.js';

export const PASSWORD = 'shop-key-4821';

const BRANCH_STAFF = [
  'view_payments',
  'edit_payments',
  'delete_payments',
  'view_reports',
  'record_takings',
  'record_cash_out',
  'close_day',
  'confirm_payments',
];

export interface Fixture {
  stores: { A: Store; B: Store; C: Store };
  users: Record<string, User>;
  tokens: Record<string, string>;
}

export async function seed(db: Knex): Promise<Fixture> {
  const ctx = { db, security: TEST_SECURITY, actor: systemActor('test'), ip: null };
  const A = await createStore(ctx, { name: '台北店', code: 'TPE' });
  const B = await createStore(ctx, { name: '台中店', code: 'TXG' });
  const C = await createStore(ctx, { name: '高雄店', code: 'KHH' });

  const specs: Record<string, Record<string, unknown>> = {
    admin: { role: 'admin' },
    // A headquarters user (no home store) with access to stores A and B and no permission.
    hq_none: { role: 'user', permissions: [], accessible_stores: [A.id, B.id] },
    // Branch staff of store A and of store B, with the day-to-day permissions (those an account
    // holding 編輯匯款 had before the money grants, which it kept).
    branchA: { role: 'user', store_id: A.id, permissions: [...BRANCH_STAFF] },
    branchB: { role: 'user', store_id: B.id, permissions: [...BRANCH_STAFF] },
    inactive: { role: 'user', store_id: A.id, permissions: ['view_payments'], is_active: false },
  };
  // One headquarters user per single permission: hq_view_payments, hq_manage_users, ...
  for (const p of PERMISSION_KEYS)
    specs[`hq_${p}`] = { role: 'user', permissions: [p], accessible_stores: [A.id, B.id] };

  const users: Record<string, User> = {};
  const tokens: Record<string, string> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const username = name.length > 20 ? name.slice(0, 20) : name;
    users[name] = await createUser(ctx, { username, password: PASSWORD, ...spec });
    const row = (await db<UserRow>('users').where({ id: users[name].id }).first())!;
    tokens[name] = signToken(TEST_SECURITY, row);
  }
  return { stores: { A, B, C }, users, tokens };
}
