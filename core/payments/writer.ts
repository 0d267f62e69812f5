/** The one writer of new payments (form, import, public link), so a column every new one carries is set here. */
import { randomUUID } from 'node:crypto';
import { actorUserId, type Actor } from '../actor.js';
import { insertRows } from '../db/batch.js';

import type { PaymentRow } from './rows.js';
import type { PaymentStatus } from '../paymentStatuses.js';
import { DEFAULT_METHOD, initialStatus, type PaymentMethod } from '../paymentMethods.js';
import type { Db } from '../context.js';

/** A new payment's fields, checked, with its store decided by the caller. */
export interface NewPaymentFields {
  store_id: number;
  last_five: string;
  /** UTC instant, ms */
  paid_at: number;
  amount: number;
  note: string;
  /** an import may bring a status; else the method's first: a transfer 未確認, takings in hand 已入帳 */
  status?: PaymentStatus;
  method?: PaymentMethod;
  method_detail?: string | null;
  employee?: boolean;
  /** made in 對帳 from a bank credit nobody reported (來源 銀行對帳), whoever the actor */
  fromBank?: boolean;
}

/** The row of a new payment made by `actor` at `now`: a fresh tracking number, the submitter when a user. */
export function newPaymentRow(actor: Actor, fields: NewPaymentFields, now: number): PaymentRow {
  return {
    uuid: randomUUID(),
    store_id: fields.store_id,
    last_five: fields.last_five,
    paid_at: fields.paid_at,
    amount: fields.amount,
    status: fields.status ?? initialStatus(fields.method ?? DEFAULT_METHOD),
    note: fields.note,
    method: fields.method ?? DEFAULT_METHOD,
    method_detail: fields.method_detail ?? null,
    employee: fields.employee ?? false,
    created_by: actorUserId(actor),
    created_at: now,
    updated_at: now,
    source: actor.kind === 'link' ? 'customer' : fields.fromBank ? 'bank' : 'staff',
    link_id: actor.kind === 'link' ? actor.linkId : null,
  };
}

/** Stores new payments' rows (chunked); call it inside the transaction that checked them. */
export async function insertPayments(db: Db, rows: readonly PaymentRow[]): Promise<void> {
  await insertRows(db, 'payments', rows);
}
