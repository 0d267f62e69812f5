import { describe, expect, it } from 'vitest';
import { ROLE_LABELS } from './labels.js';
import { MSG } from './messages.js';
import {
  DEFAULT_STORE_ID,
  PERMISSIONS,
  PERMISSION_KEYS,
  can,
  canAccess,
  canChangePasswordOf,
  canSwitchStores,
  deleteUserDenial,
  editUserDenial,
  effectivePermissions,
  gates,
  grantDenial,
  mayLeaveWithoutHomeStore,
  inScope,
  initialTab,
  isBranchUser,
  isPermission,
  isRole,
  mayAssignStore,
  mayGrantPermission,
  mayGrantRole,
  permissionLabels,
  scopeIsEmpty,
  scopedStoreIds,
  storeScope,
  storesInScope,
  submissionStoreId,
  submitStoreDenial,
  toggleActiveDenial,
  type Permission,
  type Principal,
} from './permissions.js';

let nextId = 1;
function user(over: Partial<Principal> = {}): Principal {
  return {
    id: nextId++,
    username: `u${nextId}`,
    role: 'user',
    permissions: [],
    store_id: null,
    accessible_stores: [],
    ...over,
  };
}
const admin = (over: Partial<Principal> = {}) => user({ role: 'admin', ...over });
const withPerms = (...permissions: Permission[]) => user({ permissions });

const SPEC_KEYS = [
  'manage_users',
  'manage_stores',
  'manage_payments',
  'view_payments',
  'edit_payments',
  'delete_payments',
  'view_reports',
  'system_admin',
];
const MONEY_KEYS = ['record_takings', 'record_cash_out', 'close_day', 'confirm_payments'];

describe('permission keys, labels and roles (spec sections 3 and 6)', () => {
  it("has the spec's eight keys first, then the four that move money", () => {
    expect([...PERMISSION_KEYS]).toEqual([...SPEC_KEYS, ...MONEY_KEYS]);
  });

  it('labels each key as the spec does', () => {
    expect(Object.fromEntries(PERMISSION_KEYS.map((k) => [k, PERMISSIONS[k].label]))).toEqual({
      manage_users: '會員管理',
      manage_stores: '分店管理',
      manage_payments: '匯款管理',
      view_payments: '查看匯款',
      edit_payments: '編輯匯款',
      delete_payments: '刪除匯款',
      view_reports: '查看報告',
      system_admin: '系統管理',
      record_takings: '記錄收款',
      record_cash_out: '記錄現金支出',
      close_day: '日結',
      confirm_payments: '銀行對帳',
    });
  });

  it('gives each key a description', () => {
    for (const k of PERMISSION_KEYS) expect(PERMISSIONS[k].description.length).toBeGreaterThan(0);
  });

  it('labels the roles 管理員 and 用戶', () => {
    expect(ROLE_LABELS).toEqual({ admin: '管理員', user: '用戶' });
    expect(isRole('admin')).toBe(true);
    expect(isRole('user')).toBe(true);
    expect(isRole('root')).toBe(false);
    expect(isPermission('view_reports')).toBe(true);
    expect(isPermission('view_everything')).toBe(false);
  });
});

describe('admin gets all, others what was chosen', () => {
  it('an admin holds every permission even when none is stored', () => {
    const a = admin({ permissions: [] });
    expect(effectivePermissions(a)).toEqual([...PERMISSION_KEYS]);
    for (const k of PERMISSION_KEYS) expect(can(a, k)).toBe(true);
  });

  it('a user holds only the chosen permissions', () => {
    const u = withPerms('view_payments', 'edit_payments');
    expect(effectivePermissions(u).sort()).toEqual(['edit_payments', 'view_payments']);
    expect(can(u, 'view_payments')).toBe(true);
    expect(can(u, 'edit_payments')).toBe(true);
    expect(can(u, 'delete_payments')).toBe(false);
    expect(can(u, 'manage_users')).toBe(false);
  });

  it('unknown stored permissions are not effective', () => {
    expect(effectivePermissions(user({ permissions: ['fly', 'view_reports'] }))).toEqual(['view_reports']);
  });
});

describe('gates (spec section 6)', () => {
  // backups needs more than a permission: below
  const gateKey: Record<Exclude<keyof typeof gates, 'backups'>, Permission> = {
    viewPayments: 'view_payments',
    exportFiltered: 'view_payments',
    editPayments: 'edit_payments',
    deletePayments: 'delete_payments',
    managePayments: 'manage_payments',
    importPayments: 'manage_payments',
    exportAll: 'manage_payments',
    downloadSample: 'manage_payments',
    manageUsers: 'manage_users',
    manageStores: 'manage_stores',
    viewReports: 'view_reports',
    systemAdmin: 'system_admin',
    recordTakings: 'record_takings',
    recordCashOut: 'record_cash_out',
    closeDay: 'close_day',
    confirmPayments: 'confirm_payments',
  };

  it.each(Object.entries(gateKey))('%s opens with %s and nothing else', (gate, key) => {
    const g = gates[gate as keyof typeof gates];
    expect(g(withPerms(key))).toBe(true);
    const others = PERMISSION_KEYS.filter((k) => k !== key);
    expect(g(withPerms(...others))).toBe(false);
    expect(g(user())).toBe(false);
    expect(g(admin())).toBe(true);
  });

  it('backups: system_admin for every store, so an admin only; a store-scoped system_admin never', () => {
    expect(gates.backups(admin())).toBe(true);
    expect(gates.backups(withPerms('system_admin'))).toBe(false);
    expect(gates.backups(withPerms(...PERMISSION_KEYS))).toBe(false);
    expect(gates.backups(user())).toBe(false);
    for (const k of PERMISSION_KEYS) expect(canAccess(withPerms(k), 'backups', 'menu')).toBe(false);
    expect(canAccess(admin(), 'backups', 'menu')).toBe(true);
  });
});

describe("canAccess: the back office's access map", () => {
  // resource, action, the permissions any one of which opens it ([] = open to everyone signed in)
  const cases: Array<[string, string, Permission[]]> = [
    ['payments', 'list', []],
    ['payments', 'menu', ['view_payments']],
    ['payments', 'show', ['view_payments']],
    ['payments', 'edit', ['edit_payments']],
    ['payments', 'delete', ['delete_payments']],
    ['payments', 'import', ['manage_payments']],
    ['payments', 'export_all', ['manage_payments']],
    ['payments', 'sample', ['manage_payments']],
    ['reconcile', 'list', ['confirm_payments', 'manage_payments']],
    ['reconcile', 'menu', ['confirm_payments', 'manage_payments']],
    ['reconcile', 'import', ['manage_payments']],
    ['reconcile', 'decide', ['confirm_payments']],
    ['reconcile', 'payers', ['view_payments']],
    ['close', 'list', ['close_day', 'view_payments']],
    ['close', 'close', ['close_day']],
    ['close', 'reopen', ['manage_payments']],
    ['close', 'daybook', ['view_payments']],
    ['closes', 'list', ['view_reports', 'view_payments', 'close_day']],
    ['floods', 'list', ['view_payments', 'manage_stores']],
    ['floods', 'remove', ['delete_payments']],
    ['submit', 'report', []],
    ['submit', 'takings', ['record_takings']],
    ['submit', 'cash_out', ['record_cash_out']],
    ['users', 'list', ['manage_users']],
    ['users', 'edit', ['manage_users']],
    ['stores', 'list', ['manage_stores']],
    ['dashboard', 'list', ['view_reports']],
    ['audit', 'list', ['system_admin']],
    ['anything-else', 'list', []],
  ];
  it.each(cases)('%s %s opens with %j and nothing else', (resource, action, keys) => {
    for (const k of PERMISSION_KEYS)
      expect(canAccess(withPerms(k), resource, action), k).toBe(keys.length === 0 || keys.includes(k));
    expect(canAccess(user(), resource, action)).toBe(keys.length === 0);
    expect(canAccess(admin(), resource, action)).toBe(true);
  });
});

describe('initialTab: payments, else users, else dashboard', () => {
  it('follows the spec order', () => {
    expect(initialTab(admin())).toBe('payments');
    expect(initialTab(withPerms('view_payments', 'manage_users', 'view_reports'))).toBe('payments');
    expect(initialTab(withPerms('manage_users', 'view_reports'))).toBe('users');
    expect(initialTab(withPerms('view_reports'))).toBe('dashboard');
    expect(initialTab(withPerms('edit_payments', 'delete_payments', 'manage_payments'))).toBeNull();
    expect(initialTab(user())).toBeNull();
  });
});

describe('store switching and scope', () => {
  it('only users with no store may switch stores', () => {
    expect(canSwitchStores(user({ store_id: null }))).toBe(true);
    expect(canSwitchStores(admin({ store_id: null }))).toBe(true);
    expect(canSwitchStores(user({ store_id: 2 }))).toBe(false);
    expect(isBranchUser(user({ store_id: 2 }))).toBe(true);
    expect(isBranchUser(user({ store_id: null }))).toBe(false);
  });

  it('an admin sees all stores', () => {
    const a = admin({ store_id: null, accessible_stores: [] });
    expect(storeScope(a)).toEqual({ all: true });
    expect(inScope(a, 999)).toBe(true);
  });

  it('others see their store plus their accessible stores', () => {
    const u = user({ store_id: 2, accessible_stores: [5, 3, 2] });
    expect(storeScope(u)).toEqual({ all: false, ids: [2, 3, 5] });
    expect(inScope(u, 2)).toBe(true);
    expect(inScope(u, 3)).toBe(true);
    expect(inScope(u, 4)).toBe(false);
  });

  it('a headquarters user with no accessible stores sees none', () => {
    const u = user({ store_id: null, accessible_stores: [] });
    expect(storeScope(u)).toEqual({ all: false, ids: [] });
    expect(inScope(u, 1)).toBe(false);
    expect(scopedStoreIds(u)).toEqual([]);
  });

  it('scopedStoreIds narrows a request to the scope', () => {
    const u = user({ store_id: null, accessible_stores: [1, 3] });
    expect(scopedStoreIds(u)).toEqual([1, 3]);
    expect(scopedStoreIds(u, [1, 2, 3, 4])).toEqual([1, 3]);
    expect(scopedStoreIds(u, [2])).toEqual([]);
    expect(scopedStoreIds(admin())).toBe('all');
    expect(scopedStoreIds(admin(), [7, 8])).toEqual([7, 8]);
  });
});

describe('submission store', () => {
  it('uses the store the form sent', () => {
    expect(submissionStoreId(user({ store_id: 2 }), 2)).toBe(2);
    expect(submissionStoreId(user({ store_id: null }), 4)).toBe(4);
  });

  it("falls back to the user's store, then to store 1", () => {
    expect(submissionStoreId(user({ store_id: 3 }), null)).toBe(3);
    expect(submissionStoreId(user({ store_id: 3 }), undefined)).toBe(3);
    expect(submissionStoreId(user({ store_id: null }), null)).toBe(1);
    expect(DEFAULT_STORE_ID).toBe(1);
  });

  it('a branch user may submit only for their own store, with the spec hint', () => {
    const branch = user({ store_id: 2, accessible_stores: [3] });
    expect(submitStoreDenial(branch, 2)).toBeNull();
    expect(submitStoreDenial(branch, 3)).toBe('您是分店員工，只能提交本分店的匯款資料');
    expect(submitStoreDenial(branch, 9)).toBe('您是分店員工，只能提交本分店的匯款資料');
  });

  it('a headquarters user may submit within their scope only', () => {
    const hq = user({ store_id: null, accessible_stores: [1, 3] });
    expect(submitStoreDenial(hq, 1)).toBeNull();
    expect(submitStoreDenial(hq, 3)).toBeNull();
    expect(submitStoreDenial(hq, 2)).toBe(MSG.storeOutOfScope);
  });

  it('an admin may submit for any store', () => {
    expect(submitStoreDenial(admin(), 42)).toBeNull();
    expect(submitStoreDenial(admin({ store_id: 2 }), 5)).toBeNull();
  });
});

describe('account protection', () => {
  it('nobody may delete themselves', () => {
    const a = admin();
    const u = withPerms('manage_users');
    expect(deleteUserDenial(a, { id: a.id, role: 'admin' })).toBe('無法刪除自己的帳戶');
    expect(deleteUserDenial(u, { id: u.id, role: 'user' })).toBe('無法刪除自己的帳戶');
  });

  it('only admins may delete admins', () => {
    const u = withPerms('manage_users');
    const other = admin();
    expect(deleteUserDenial(u, { id: other.id, role: 'admin' })).toBe('權限不足：無法刪除管理員帳戶');
    expect(deleteUserDenial(admin(), { id: other.id, role: 'admin' })).toBeNull();
    expect(deleteUserDenial(u, { id: 9999, role: 'user' })).toBeNull();
  });

  it('nobody may deactivate themselves; only admins may deactivate admins', () => {
    const a = admin();
    const u = withPerms('manage_users');
    expect(toggleActiveDenial(a, { id: a.id, role: 'admin' })).toBe(MSG.cannotDeactivateSelf);
    expect(toggleActiveDenial(u, { id: u.id, role: 'user' })).toBe(MSG.cannotDeactivateSelf);
    expect(toggleActiveDenial(u, { id: a.id, role: 'admin' })).toBe(MSG.cannotDeactivateAdmin);
    expect(toggleActiveDenial(a, { id: 9999, role: 'admin' })).toBeNull();
    expect(toggleActiveDenial(u, { id: 9999, role: 'user' })).toBeNull();
  });

  it('the deactivation messages say what was refused', () => {
    expect(MSG.cannotDeactivateSelf).toContain('自己');
    expect(MSG.cannotDeactivateAdmin).toContain('管理員');
  });

  it('a non-admin may not edit an admin', () => {
    const u = withPerms('manage_users');
    expect(editUserDenial(u, { id: 9999, role: 'admin' })).toBe(MSG.cannotEditAdmin);
    expect(editUserDenial(u, { id: 9999, role: 'user' })).toBeNull();
    expect(editUserDenial(admin(), { id: 9999, role: 'admin' })).toBeNull();
  });

  it("only one's own password may be changed from the list", () => {
    const a = admin();
    expect(canChangePasswordOf(a, { id: a.id, role: 'admin' })).toBe(true);
    expect(canChangePasswordOf(a, { id: 9999, role: 'user' })).toBe(false);
  });
});

describe('accounts holding more than a non-admin manager', () => {
  const manager = user({ permissions: ['manage_users', 'view_payments'], store_id: 1, accessible_stores: [2] });
  const target = (over: Record<string, unknown>) => ({
    id: 9999,
    role: 'user' as const,
    permissions: [],
    store_id: 1,
    accessible_stores: [],
    ...over,
  });

  it('refuses editing, deactivating and deleting an account with a permission the manager lacks', () => {
    const stronger = target({ permissions: ['delete_payments'] });
    for (const rule of [editUserDenial, toggleActiveDenial, deleteUserDenial])
      expect(rule(manager, stronger)).toBe('權限不足：此帳戶擁有您沒有的權限或分店');
  });

  it('refuses an account with a store outside the manager scope', () => {
    expect(editUserDenial(manager, target({ accessible_stores: [3] }))).toBe('權限不足：此帳戶擁有您沒有的權限或分店');
    expect(editUserDenial(manager, target({ store_id: 3 }))).toBe('權限不足：此帳戶擁有您沒有的權限或分店');
  });

  it('allows accounts holding no more than the manager, the manager themselves, and everything for admins', () => {
    expect(editUserDenial(manager, target({ permissions: ['view_payments'], accessible_stores: [2] }))).toBeNull();
    expect(editUserDenial(manager, { ...target({ permissions: ['system_admin'] }), id: manager.id })).toBeNull();
    expect(deleteUserDenial(admin(), target({ permissions: ['system_admin'], store_id: 3 }))).toBeNull();
  });
});

describe('grantDenial', () => {
  const fresh = {
    role: 'user' as const,
    permissions: [] as string[],
    store_id: null,
    accessible_stores: [] as number[],
  };

  it('admins may grant anything', () => {
    expect(
      grantDenial(
        admin(),
        { ...fresh, role: 'admin', permissions: [...SPEC_KEYS, ...MONEY_KEYS], accessible_stores: [1, 2, 3] },
        null,
      ),
    ).toBeNull();
    expect(grantDenial(admin(), { ...fresh, role: 'admin' }, { ...fresh })).toBeNull();
  });

  it('a store-scoped manager never makes an account headquarters, their own included', () => {
    const branch = user({ id: 7, store_id: 2, permissions: ['manage_users'] });
    expect(grantDenial(branch, { ...fresh, store_id: null, accessible_stores: [2] }, { ...fresh, store_id: 2 })).toBe(
      MSG.cannotMakeHeadquarters,
    );
    expect(grantDenial(branch, { ...fresh, store_id: null }, null)).toBe(MSG.cannotMakeHeadquarters);
    expect(grantDenial(branch, { ...fresh, store_id: 2 }, null)).toBeNull();
    // headquarters managers and admins still make headquarters accounts
    expect(
      grantDenial(
        user({ permissions: ['manage_users'], accessible_stores: [2] }),
        { ...fresh, accessible_stores: [2] },
        null,
      ),
    ).toBeNull();
    expect(mayLeaveWithoutHomeStore(admin({ store_id: 2 }), { store_id: null })).toBe(true);
  });

  it('a non-admin may not create an admin', () => {
    const u = withPerms('manage_users');
    expect(grantDenial(u, { ...fresh, role: 'admin' }, null)).toBe(MSG.cannotCreateAdmin);
  });

  it('a non-admin may not promote a user to admin', () => {
    const u = withPerms(...(PERMISSION_KEYS as readonly Permission[]));
    expect(grantDenial(u, { ...fresh, role: 'admin' }, { ...fresh, role: 'user' })).toBe(MSG.cannotCreateAdmin);
  });

  it('a non-admin may grant only permissions they hold', () => {
    const u = withPerms('manage_users', 'view_payments');
    expect(grantDenial(u, { ...fresh, permissions: ['view_payments'] }, null)).toBeNull();
    const denial = grantDenial(u, { ...fresh, permissions: ['view_payments', 'delete_payments'] }, null);
    expect(denial).toBe(MSG.cannotGrant(['刪除匯款']));
    expect(denial).toContain('刪除匯款');
  });

  it('a non-admin may keep permissions the target already had', () => {
    const u = withPerms('manage_users');
    const before = { ...fresh, permissions: ['delete_payments'] };
    expect(grantDenial(u, { ...fresh, permissions: ['delete_payments'] }, before)).toBeNull();
    expect(grantDenial(u, { ...fresh, permissions: ['delete_payments', 'view_reports'] }, before)).toBe(
      MSG.cannotGrant(['查看報告']),
    );
  });

  it('taking permissions away is always allowed', () => {
    const u = withPerms('manage_users');
    expect(
      grantDenial(u, { ...fresh, permissions: [] }, { ...fresh, permissions: ['system_admin', 'view_reports'] }),
    ).toBeNull();
  });

  it('a non-admin may not assign stores outside their own scope', () => {
    const u = user({ permissions: ['manage_users'], store_id: null, accessible_stores: [1, 2] });
    expect(grantDenial(u, { ...fresh, store_id: 2, accessible_stores: [1] }, null)).toBeNull();
    expect(grantDenial(u, { ...fresh, accessible_stores: [3] }, null)).toBe('權限不足：無法指派您沒有權限的分店');
    expect(grantDenial(u, { ...fresh, store_id: 3 }, null)).toBe(MSG.cannotAssignStore);
  });

  it('a non-admin may keep stores the target already had', () => {
    const u = user({ permissions: ['manage_users'], store_id: null, accessible_stores: [1] });
    const before = { ...fresh, store_id: 7, accessible_stores: [8] };
    expect(grantDenial(u, { ...fresh, store_id: 7, accessible_stores: [8, 1] }, before)).toBeNull();
    expect(grantDenial(u, { ...fresh, store_id: 7, accessible_stores: [8, 9] }, before)).toBe(MSG.cannotAssignStore);
  });
});

describe('permissionLabels', () => {
  it('shows 無特殊權限 when there are none', () => {
    expect(permissionLabels([])).toBe('無特殊權限');
    expect(permissionLabels(['unknown'])).toBe('無特殊權限');
  });

  it('translates keys into the spec labels', () => {
    expect(permissionLabels(['view_reports'])).toBe('查看報告');
    const text = permissionLabels(['view_payments', 'manage_users']);
    expect(text).toContain('查看匯款');
    expect(text).toContain('會員管理');
    expect(text).not.toContain('view_payments');
  });
});

describe('what an actor may grant on an account (the user dialog and the server ask the same)', () => {
  const hq = user({ role: 'user', permissions: ['manage_users', 'view_payments'], accessible_stores: [1, 2] });
  const admin = user({ role: 'admin' });
  const target = {
    role: 'user' as const,
    permissions: ['delete_payments'],
    store_id: 3,
    accessible_stores: [] as number[],
  };

  it('a non-admin grants only what they hold, or what the account already has', () => {
    expect(mayGrantPermission(hq, 'view_payments', null)).toBe(true);
    expect(mayGrantPermission(hq, 'edit_payments', null)).toBe(false);
    expect(mayGrantPermission(hq, 'delete_payments', target)).toBe(true);
    expect(mayGrantPermission(admin, 'system_admin', null)).toBe(true);
  });

  it('a non-admin assigns only stores in their scope, or ones the account already has', () => {
    expect(mayAssignStore(hq, 2, null)).toBe(true);
    expect(mayAssignStore(hq, 3, null)).toBe(false);
    expect(mayAssignStore(hq, 3, target)).toBe(true);
    expect(mayAssignStore(admin, 99, null)).toBe(true);
  });

  it('only admins make admins; an admin account may stay one', () => {
    expect(mayGrantRole(hq, 'admin', null)).toBe(false);
    expect(mayGrantRole(hq, 'admin', { role: 'admin' })).toBe(true);
    expect(mayGrantRole(hq, 'user', null)).toBe(true);
    expect(mayGrantRole(admin, 'admin', null)).toBe(true);
  });

  it('grantDenial refuses exactly what the predicates refuse', () => {
    expect(grantDenial(hq, { ...target, permissions: ['delete_payments', 'view_payments'] }, target)).toBeNull();
    expect(grantDenial(hq, { ...target, permissions: ['edit_payments'] }, target)).toBe(MSG.cannotGrant(['編輯匯款']));
    expect(grantDenial(hq, { ...target, store_id: 4 }, target)).toBe(MSG.cannotAssignStore);
    expect(grantDenial(hq, { ...target, role: 'admin' }, target)).toBe(MSG.cannotCreateAdmin);
  });
});

describe('an empty scope', () => {
  const stores = [
    { id: 1, name: '台北店' },
    { id: 2, name: '台中店' },
    { id: 3, name: '高雄店' },
  ];
  it('a user with neither a home store nor accessible stores has nothing in scope', () => {
    const nobody = user({ permissions: ['view_reports'] });
    expect(scopeIsEmpty(nobody)).toBe(true);
    expect(storesInScope(nobody, stores)).toEqual([]);
  });
  it('an admin, a branch user and a headquarters user with stores are not empty, and see only their stores', () => {
    expect(scopeIsEmpty(admin())).toBe(false);
    expect(storesInScope(admin(), stores).map((s) => s.id)).toEqual([1, 2, 3]);
    expect(scopeIsEmpty(user({ store_id: 2 }))).toBe(false);
    expect(storesInScope(user({ store_id: 2 }), stores).map((s) => s.id)).toEqual([2]);
    expect(storesInScope(user({ accessible_stores: [1, 3] }), stores).map((s) => s.id)).toEqual([1, 3]);
  });
});
