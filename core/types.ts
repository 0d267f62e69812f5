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
  /** how the money came in: 匯款 (the default), 現金, 刷卡 or 電子支付 */
  method: PaymentMethod;
  /** an e-payment's sub-type (LINE Pay, 街口支付 …), present only when given */
  method_detail?: string;
  /** a staff purchase (員工購物), present only when true */
  employee?: true;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  /** 來源: staff (the form, an import) or customer (a store's public link) */
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
  /** takings by payment method: count and NT$ of each of the four, zero included */
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
  /** the stores' takings by method, added up */
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

/** One audit entry as the API, the CLI and the back office show it. */
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
