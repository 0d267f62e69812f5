/** Row types of every table, and the one mapping from rows to the records the core returns. */
import { PERMISSION_KEYS, type Permission, type Role } from '../users/permissions.js';
import type { PaymentStatus } from '../payments/statuses.js';
import { DEFAULT_METHOD, type PaymentMethod } from '../payments/methods.js';
import { toIso } from '../time.js';
import type { Payment, Store, User } from '../types.js';
import { DEFAULT_SOURCE, type PaymentSource } from '../payments/sources.js';

export interface StoreRow {
  id: number;
  name: string;
  code: string;
  created_at: number;
  updated_at: number;
}

export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  role: Role;
  permissions: string;
  store_id: number | null;
  accessible_stores: string;
  is_active: boolean | number;
  token_version: number;
  created_at: number;
  updated_at: number;
}

export interface PaymentRow {
  uuid: string;
  store_id: number;
  last_five: string;
  paid_at: number;
  amount: number;
  status: PaymentStatus;
  note: string;
  /** how the money came in; '匯款' for every payment stored before */
  /** a row written without these gets the column defaults: 匯款, null, false */
  method?: PaymentMethod;
  /** an e-payment's sub-type, else null */
  method_detail?: string | null;
  /** a staff purchase (員工購物); SQLite gives 0 or 1 */
  employee?: boolean | number;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  /** who reported it (core/payments/sources.ts); absent on rows read before the public links' migration */
  source?: PaymentSource;
  /** the store link a customer's report came through */
  link_id?: number | null;
}

export interface AuditRow {
  id: number;
  actor_id: number | null;
  actor_username: string;
  action: string;
  entity: string;
  entity_id: string | null;
  before: string | null;
  after: string | null;
  ip: string | null;
  at: number;
}

function parseList<T>(text: string, keep: (v: unknown) => v is T): T[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter(keep) : [];
  } catch {
    return [];
  }
}

const isPermissionKey = (v: unknown): v is Permission => (PERMISSION_KEYS as readonly unknown[]).includes(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

export function toStore(r: StoreRow): Store {
  return {
    id: Number(r.id),
    name: r.name,
    code: r.code,
    created_at: toIso(Number(r.created_at)),
    updated_at: toIso(Number(r.updated_at)),
  };
}

export function toUser(r: UserRow): User {
  return {
    id: Number(r.id),
    username: r.username,
    role: r.role,
    permissions: parseList(r.permissions, isPermissionKey),
    store_id: r.store_id === null ? null : Number(r.store_id),
    accessible_stores: parseList(r.accessible_stores, isId),
    is_active: Boolean(r.is_active),
    created_at: toIso(Number(r.created_at)),
    updated_at: toIso(Number(r.updated_at)),
  };
}

export function toPayment(r: PaymentRow): Payment {
  return {
    id: r.uuid,
    uuid: r.uuid,
    store_id: Number(r.store_id),
    last_five: r.last_five,
    paid_at: toIso(Number(r.paid_at)),
    amount: Number(r.amount),
    status: r.status,
    note: r.note ?? '',
    method: r.method ?? DEFAULT_METHOD,
    ...(r.method_detail ? { method_detail: r.method_detail } : {}),
    ...(r.employee ? { employee: true as const } : {}),
    created_by: r.created_by === null ? null : Number(r.created_by),
    created_at: toIso(Number(r.created_at)),
    updated_at: toIso(Number(r.updated_at)),
    source: r.source ?? DEFAULT_SOURCE,
  };
}
