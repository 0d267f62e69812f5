import { randomBytes } from 'node:crypto';
import { ConflictError, ValidationError } from './errors.js';
import { passwordWeakness } from './users/password.js';
import { PERMISSION_KEYS } from './permissions.js';
import type { Store, User } from './types.js';
import type { AppContext } from './context.js';
import { systemActor } from './context.js';
import { createStore } from './stores/service.js';
import { createUser } from './users/service.js';

const FIRST_ADMIN = 'admin';
const FIRST_STORE = { name: '總店', code: 'HQ' } as const;

/** With no users: the admin (configured password, else a random one to print; never a default) and a head store. */
export async function ensureFirstRun(
  app: AppContext,
  opts: { adminPassword?: string } = {},
): Promise<{ admin?: { user: User; password: string; generated: boolean }; store?: Store }> {
  const ctx = { ...app, actor: systemActor('system'), ip: null };
  const out: { admin?: { user: User; password: string; generated: boolean }; store?: Store } = {};
  const hasUser = await app.db('users').first('id');
  if (hasUser) return out;
  // Another instance starting at once may create them first: the loser's insert is a conflict, and fine.
  const alreadyThere = (err: unknown) => {
    if (!(err instanceof ConflictError)) throw err;
  };
  if (!(await app.db('stores').first('id')))
    out.store = await createStore(ctx, FIRST_STORE).catch((err) => void alreadyThere(err));
  if (opts.adminPassword !== undefined) {
    const weak = passwordWeakness(opts.adminPassword, FIRST_ADMIN);
    if (weak) throw ValidationError.single('REMIT_ADMIN_PASSWORD', 'admin_password_weak', { reason: weak });
  }
  const password = opts.adminPassword ?? generatedPassword();
  const user = await createUser(ctx, {
    username: FIRST_ADMIN,
    password,
    role: 'admin',
    permissions: [...PERMISSION_KEYS],
  }).catch((err) => void alreadyThere(err));
  if (user) out.admin = { user, password, generated: opts.adminPassword === undefined };
  if (!out.store) delete out.store;
  return out;
}

/** 16 random characters, drawn again in the astronomically rare case the rule calls them weak. */
export function generatedPassword(): string {
  for (;;) {
    const p = randomBytes(12).toString('base64url');
    if (!passwordWeakness(p, FIRST_ADMIN)) return p;
  }
}
