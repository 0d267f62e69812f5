/** The records the core returns: plain JSON-ready data with honest types. */
import type { Permission, Role } from './permissions.js';
import type { PaymentStatus } from './paymentStatuses.js';
import type { PaymentMethod } from './paymentMethods.js';
import type { PaymentSource } from './paymentSources.js';

export interface Store {
  id: number;
  name: string;
  code: string;
  created_at: string;
  updated_at: string;
}

export interface Payment {
  /** equals uuid, for list protocols that key records by `id` */
  id: string;
  uuid: string;
  store_id: number;
  last_five: string;
  paid_at: string;
  amount: number;
  status: PaymentStatus;
  note: string;
  method: PaymentMethod;
  /** an e-payment's sub-type, present only when given */
  method_detail?: string;
  /** a staff purchase (員工購物), present only when true */
  employee?: true;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  source: PaymentSource;
}

/** A payment as the list gives it: the linked bank line (for 取消對帳) and who submitted it. */
export interface ListedPayment extends Payment {
  bank_line_id: number | null;
  /** the submitting account's username; null when that account was removed or for old rows */
  created_by_username: string | null;
}

export interface User {
  id: number;
  username: string;
  role: Role;
  permissions: Permission[];
  store_id: number | null;
  accessible_stores: number[];
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

/** `GET /api/admin/me`: who is signed in, with effective permissions. */
export interface Me {
  id: number;
  username: string;
  role: Role;
  permissions: Permission[];
  store_id: number | null;
  accessible_stores: number[];
}

export interface StoreStats {
  store_id: number;
  store_name: string;
  store_code: string;
  total_payments: number;
  total_amount: number;
  confirmed_payments: number;
  pending_payments: number;
  failed_payments: number;
  by_method: MethodTotals;
}

/** Count and NT$ of each payment method, every method present. */
export type MethodTotals = Record<PaymentMethod, { count: number; amount: number }>;

/** The dashboard (spec section 3). */
export interface StatsSummary {
  totalStores: number;
  totalPayments: number;
  totalAmount: number;
  confirmedPayments: number;
  byMethod: MethodTotals;
  storeStats: StoreStats[];
}

export interface ListResult<T> {
  rows: T[];
  total: number;
  /** the range actually answered, inclusive, for Content-Range */
  start: number;
  end: number;
}

export interface AuditEntry {
  id: number;
  actor_id: number | null;
  actor_username: string;
  action: string;
  entity: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  at: string;
}
