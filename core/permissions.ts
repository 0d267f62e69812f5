// Roles, permissions, gates, store scope and account protection (spec sections 3 and 6). Pure: the server
// enforces them and the back office decides what to show with the same functions, so the two agree.
import { problem, type Problem } from './errors.js';
import { MSG } from './messages.js';
import { PERMISSION_LABELS, storeLabel } from './labels.js';

export const PERMISSION_KEYS = [
  'manage_users',
  'manage_stores',
  'manage_payments',
  'view_payments',
  'edit_payments',
  'delete_payments',
  'view_reports',
  'system_admin',
  // The money grants, each its own: a clerk takes cash and closes the day; an accountant confirms.
  'record_takings',
  'record_cash_out',
  'close_day',
  'confirm_payments',
] as const;
export type Permission = (typeof PERMISSION_KEYS)[number];

export const PERMISSIONS: Record<Permission, { label: string; description: string }> = {
  manage_users: { label: PERMISSION_LABELS.manage_users, description: '新增、編輯、刪除會員帳戶' },
  manage_stores: { label: PERMISSION_LABELS.manage_stores, description: '管理分店資料' },
  manage_payments: {
    label: PERMISSION_LABELS.manage_payments,
    description: '完整的匯款管理權限（範例下載、Excel 匯入、匯出全部）',
  },
  view_payments: { label: PERMISSION_LABELS.view_payments, description: '瀏覽所有匯款資料' },
  edit_payments: { label: PERMISSION_LABELS.edit_payments, description: '更新匯款狀態、備註' },
  delete_payments: { label: PERMISSION_LABELS.delete_payments, description: '刪除單筆或多筆匯款記錄' },
  view_reports: { label: PERMISSION_LABELS.view_reports, description: '查看統計報告' },
  system_admin: { label: PERMISSION_LABELS.system_admin, description: '完整的系統設定權限' },
  record_takings: {
    label: PERMISSION_LABELS.record_takings,
    description: '記錄現金、刷卡與電子支付收款（匯款回報不需要）',
  },
  record_cash_out: { label: PERMISSION_LABELS.record_cash_out, description: '記錄店內支出與提領' },
  close_day: { label: PERMISSION_LABELS.close_day, description: '點算現金並完成分店的每日結帳' },
  confirm_payments: {
    label: PERMISSION_LABELS.confirm_payments,
    description: '依銀行紀錄確認入帳、標記未入帳、取消對帳',
  },
};

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSION_KEYS as readonly string[]).includes(value);
}
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export interface Principal {
  id: number;
  username: string;
  role: Role;
  permissions: readonly string[];
  store_id: number | null;
  accessible_stores: readonly number[];
}

interface AccountRef {
  id: number;
  role: Role;
  permissions?: readonly string[];
  store_id?: number | null;
  accessible_stores?: readonly number[];
}

/** A non-admin manages only accounts holding nothing they lack: else resetting its password hands them its powers. */
function outranks(actor: Principal, target: AccountRef): boolean {
  if (isAdmin(actor) || actor.id === target.id) return false;
  if ((target.permissions ?? []).some((p) => isPermission(p) && !can(actor, p))) return true;
  const stores = [...(target.accessible_stores ?? []), ...(target.store_id != null ? [target.store_id] : [])];
  return stores.some((s) => !inScope(actor, s));
}

export function isAdmin(user: Pick<Principal, 'role'>): boolean {
  return user.role === 'admin';
}

export function effectivePermissions(user: Pick<Principal, 'role' | 'permissions'>): Permission[] {
  if (isAdmin(user)) return [...PERMISSION_KEYS];
  return PERMISSION_KEYS.filter((k) => user.permissions.includes(k));
}

export function can(user: Pick<Principal, 'role' | 'permissions'>, permission: Permission): boolean {
  return isAdmin(user) || user.permissions.includes(permission);
}

/** The gates of spec section 6, and the four money grants, named for what they open. */
export const gates = {
  viewPayments: (u: Principal) => can(u, 'view_payments'),
  exportFiltered: (u: Principal) => can(u, 'view_payments'),
  editPayments: (u: Principal) => can(u, 'edit_payments'),
  deletePayments: (u: Principal) => can(u, 'delete_payments'),
  managePayments: (u: Principal) => can(u, 'manage_payments'),
  importPayments: (u: Principal) => can(u, 'manage_payments'),
  exportAll: (u: Principal) => can(u, 'manage_payments'),
  downloadSample: (u: Principal) => can(u, 'manage_payments'),
  manageUsers: (u: Principal) => can(u, 'manage_users'),
  manageStores: (u: Principal) => can(u, 'manage_stores'),
  viewReports: (u: Principal) => can(u, 'view_reports'),
  systemAdmin: (u: Principal) => can(u, 'system_admin'),
  /** a backup holds every store's data: system_admin for every store (only an admin's scope is all of them) */
  backups: (u: Pick<Principal, 'role' | 'permissions'>) => can(u, 'system_admin') && isAdmin(u),
  recordTakings: (u: Principal) => can(u, 'record_takings'),
  recordCashOut: (u: Principal) => can(u, 'record_cash_out'),
  closeDay: (u: Principal) => can(u, 'close_day'),
  confirmPayments: (u: Principal) => can(u, 'confirm_payments'),
};

// What each part of the back office needs per action (spec section 6 "Gates"): a permission, or a list of which
// any will do; `*` is every other action. The payments list is OPEN so it can say 權限不足 itself, as the spec asks.
const OPEN = 'open' as const;
type Rule = Permission | readonly Permission[] | typeof OPEN;
const ACCESS: Record<string, Record<string, Rule>> = {
  payments: {
    '*': 'view_payments',
    list: OPEN,
    edit: 'edit_payments',
    delete: 'delete_payments',
    import: 'manage_payments',
    export_all: 'manage_payments',
    sample: 'manage_payments',
  },
  reconcile: {
    '*': ['confirm_payments', 'manage_payments'],
    import: 'manage_payments',
    decide: 'confirm_payments',
    payers: 'view_payments',
  },
  users: { '*': 'manage_users' },
  stores: { '*': 'manage_stores' },
  dashboard: { '*': 'view_reports' },
  audit: { '*': 'system_admin' },
  backups: { '*': 'system_admin' },
  // a store's day (日結) for those who close or read it; the board for headquarters too
  close: {
    '*': ['close_day', 'view_payments'],
    close: 'close_day',
    reopen: 'manage_payments',
    daybook: 'view_payments',
  },
  closes: { '*': ['view_reports', 'view_payments', 'close_day'] },
  // public-link floods: seen by those who see the list or the links, removed by those who delete
  floods: { '*': ['view_payments', 'manage_stores'], remove: 'delete_payments' },
  // a transfer report is every user's (spec); the drawer's entries are not
  submit: { '*': OPEN, takings: 'record_takings', cash_out: 'record_cash_out' },
  // a cash-out entry is fixed by whoever keeps the till, or by those who edit or delete payments
  cash_out: {
    '*': 'record_cash_out',
    edit: ['record_cash_out', 'edit_payments'],
    delete: ['record_cash_out', 'delete_payments'],
  },
};

/** react-admin's `canAccess`; an unnamed resource is open, and action `menu` asks whether its menu entry shows. */
export function canAccess(user: Pick<Principal, 'role' | 'permissions'>, resource: string, action: string): boolean {
  if (resource === 'backups') return gates.backups(user);
  const rules = ACCESS[resource];
  const rule = rules ? (rules[action] ?? rules['*']) : OPEN;
  if (rule === undefined || rule === OPEN) return true;
  return typeof rule === 'string' ? can(user, rule) : rule.some((p) => can(user, p));
}

type Tab = 'payments' | 'users' | 'dashboard';

/** Initial back-office tab: payments if allowed, else users, else dashboard (spec section 2). */
export function initialTab(u: Principal): Tab | null {
  if (gates.viewPayments(u)) return 'payments';
  if (gates.manageUsers(u)) return 'users';
  if (gates.viewReports(u)) return 'dashboard';
  return null;
}

/** Users with no home store (headquarters) may switch stores; branch users are tied to theirs. */
export function canSwitchStores(u: Pick<Principal, 'store_id'>): boolean {
  return u.store_id === null;
}

export function isBranchUser(u: Pick<Principal, 'store_id'>): boolean {
  return u.store_id !== null;
}

type StoreScope = { all: true } | { all: false; ids: number[] };

export function storeScope(u: Principal): StoreScope {
  if (isAdmin(u)) return { all: true };
  const ids = new Set<number>(u.accessible_stores);
  if (u.store_id !== null) ids.add(u.store_id);
  return { all: false, ids: [...ids].sort((a, b) => a - b) };
}

export function inScope(u: Principal, storeId: number): boolean {
  const scope = storeScope(u);
  return scope.all || scope.ids.includes(storeId);
}

/** Neither a home store nor accessible stores: nothing to submit for or report on. */
export function scopeIsEmpty(u: Principal): boolean {
  const scope = storeScope(u);
  return !scope.all && scope.ids.length === 0;
}

export function storesInScope<S extends { id: number }>(u: Principal, stores: readonly S[]): S[] {
  return stores.filter((s) => inScope(u, s.id));
}

/** Narrows requested store ids to the scope; `undefined` request means "all I may see". */
export function scopedStoreIds(u: Principal, requested?: readonly number[]): number[] | 'all' {
  const scope = storeScope(u);
  if (!requested) return scope.all ? 'all' : scope.ids;
  return scope.all ? [...requested] : requested.filter((id) => scope.ids.includes(id));
}

/** The store a submission goes to when the form sends none: the user's store, then store 1. */
export const DEFAULT_STORE_ID = 1;
export function submissionStoreId(u: Pick<Principal, 'store_id'>, requested: number | null | undefined): number {
  return requested ?? u.store_id ?? DEFAULT_STORE_ID;
}

/** A refusal's sentence, for a screen that shows why a button is off (the `…Denial` functions). */
function said<A extends unknown[]>(refusal: (...a: A) => Problem | null): (...a: A) => string | null {
  return (...a) => refusal(...a)?.message ?? null;
}

/** manage_stores reaches one's own scope only; creating a store touches none, so it needs manage_stores alone. */
export function storeChangeRefusal(actor: Principal, storeId: number): Problem | null {
  if (!can(actor, 'manage_stores')) return problem('forbidden');
  return inScope(actor, storeId) ? null : problem('store_out_of_scope');
}
export const storeChangeDenial = said(storeChangeRefusal);

export function submitStoreRefusal(u: Principal, storeId: number): Problem | null {
  if (isAdmin(u)) return null;
  if (u.store_id !== null && storeId !== u.store_id) return problem('branch_own_store_only');
  return inScope(u, storeId) ? null : problem('store_out_of_scope');
}
export const submitStoreDenial = said(submitStoreRefusal);

/** Admins and headquarters see every account (the spec shows admin rows); a branch, its own stores' non-admins. */
export function userVisibleTo(actor: Principal, target: { id: number; role: Role; store_id: number | null }): boolean {
  if (isAdmin(actor) || target.id === actor.id || actor.store_id === null) return true;
  if (target.role === 'admin' || target.store_id === null) return false;
  return inScope(actor, target.store_id);
}

/** Why `actor` may not delete `target`, or null when allowed. Texts are the spec's tooltips. */
export function deleteUserRefusal(actor: Principal, target: AccountRef): Problem | null {
  if (actor.id === target.id) return problem('cannot_delete_self');
  if (isAdmin(target) && !isAdmin(actor)) return problem('cannot_delete_admin');
  if (outranks(actor, target)) return problem('cannot_manage_stronger');
  return null;
}
export const deleteUserDenial = said(deleteUserRefusal);

export function toggleActiveRefusal(actor: Principal, target: AccountRef): Problem | null {
  if (actor.id === target.id) return problem('cannot_deactivate_self');
  if (isAdmin(target) && !isAdmin(actor)) return problem('cannot_deactivate_admin');
  if (outranks(actor, target)) return problem('cannot_manage_stronger');
  return null;
}
export const toggleActiveDenial = said(toggleActiveRefusal);

export function canChangePasswordOf(actor: Principal, target: AccountRef): boolean {
  return actor.id === target.id;
}

/** A non-admin may not edit an admin account, nor one holding more than they do (else they could take it over). */
export function editUserRefusal(actor: Principal, target: AccountRef): Problem | null {
  if (isAdmin(target) && !isAdmin(actor)) return problem('cannot_edit_admin');
  if (outranks(actor, target)) return problem('cannot_manage_stronger');
  return null;
}
export const editUserDenial = said(editUserRefusal);

type Grantable = {
  role: Role;
  permissions: readonly string[];
  store_id: number | null;
  accessible_stores: readonly number[];
};

/** Whether `actor` may give an account (`before`, null on create) `role`: only admins make admins. */
export function mayGrantRole(actor: Principal, role: Role, before: Pick<Grantable, 'role'> | null): boolean {
  return role !== 'admin' || isAdmin(actor) || before?.role === 'admin';
}

/** Admins grant anything; others only what they hold, or what the account (`before`, null on create) has. */
export function mayGrantPermission(
  actor: Principal,
  permission: string,
  before: Pick<Grantable, 'permissions'> | null,
): boolean {
  return isAdmin(actor) || can(actor, permission as Permission) || Boolean(before?.permissions.includes(permission));
}

export function mayAssignStore(
  actor: Principal,
  storeId: number,
  before: Pick<Grantable, 'store_id' | 'accessible_stores'> | null,
): boolean {
  if (isAdmin(actor) || inScope(actor, storeId)) return true;
  return Boolean(before && (before.store_id === storeId || before.accessible_stores.includes(storeId)));
}

/** No home store makes a headquarters account, which sees all: only admins and headquarters managers make one. */
export function mayLeaveWithoutHomeStore(actor: Principal, next: Pick<Grantable, 'store_id'>): boolean {
  return next.store_id !== null || isAdmin(actor) || actor.store_id === null;
}

/** What a user-management write may grant (`before`: null on create). Taking things away is always allowed. */
export function grantRefusal(actor: Principal, next: Grantable, before: Grantable | null): Problem | null {
  if (isAdmin(actor)) return null;
  if (!mayGrantRole(actor, next.role, before)) return problem('cannot_create_admin');
  if (!mayLeaveWithoutHomeStore(actor, next)) return problem('cannot_make_headquarters');
  const added = next.permissions.filter((p) => !mayGrantPermission(actor, p, before));
  if (added.length)
    return problem('cannot_grant', {
      permissions: added,
      labels: added.map((p) => (isPermission(p) ? PERMISSIONS[p].label : p)),
    });
  const stores = [...next.accessible_stores, ...(next.store_id != null ? [next.store_id] : [])];
  if (stores.some((s) => !mayAssignStore(actor, s, before))) return problem('cannot_assign_store');
  return null;
}
export const grantDenial = said(grantRefusal);

export function permissionLabels(permissions: readonly string[]): string {
  const labels = PERMISSION_KEYS.filter((k) => permissions.includes(k)).map((k) => PERMISSIONS[k].label);
  return labels.length ? labels.join('、') : MSG.noSpecialPermissions;
}

export function activeLabel(isActive: boolean): string {
  return isActive ? MSG.accountActive : MSG.accountInactiveLabel;
}

/** The users list's store column: every store for admins, else each store's `name (code)`, or 無分店權限. */
export function storeAccessLabel(
  user: Pick<Principal, 'role' | 'store_id' | 'accessible_stores'>,
  storeById: (id: number) => { name: string; code: string } | undefined,
): string {
  if (isAdmin(user)) return MSG.allStoresAccessible;
  const ids = [...new Set([...(user.store_id !== null ? [user.store_id] : []), ...user.accessible_stores])];
  if (!ids.length) return MSG.noStoreAccess;
  return ids.map((id) => storeLabel(storeById(id))).join('、');
}
