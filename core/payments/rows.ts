/** The payments table's row, and the record the core returns for it. */
import type { PaymentStatus } from '../paymentStatuses.js';
import { DEFAULT_METHOD, type PaymentMethod } from '../paymentMethods.js';
import { DEFAULT_SOURCE, type PaymentSource } from '../paymentSources.js';
import { toIso } from '../time.js';
import type { Payment } from '../types.js';

export interface PaymentRow {
  uuid: string;
  store_id: number;
  last_five: string;
  paid_at: number;
  amount: number;
  status: PaymentStatus;
  note: string;
  /** a row written without these three gets the column defaults: 匯款, null, false */
  method?: PaymentMethod;
  /** an e-payment's sub-type, else null */
  method_detail?: string | null;
  /** a staff purchase (員工購物); SQLite gives 0 or 1 */
  employee?: boolean | number;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  /** who reported it (core/paymentSources.ts); absent on rows read before the public links' migration */
  source?: PaymentSource;
  link_id?: number | null;
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
