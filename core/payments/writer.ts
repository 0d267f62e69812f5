/**
 * The one writer of new payments: every way a payment comes in (the submission form, an import,
 * a customer's public link) makes its rows with `newPaymentRow` and stores them with
 * `insertPayments`, so a column every new payment carries is set in this one place.
 */
import { randomUUID } from 'node:crypto';
import { actorUserId, type Actor } from '../actor.js';
import { insertRows } from '../db/batch.js';
import type { Db } from '../db/connect.js';
import type { PaymentRow } from '../db/rows.js';
import { DEFAULT_STATUS, type PaymentStatus } from './statuses.js';

/** A new payment's fields, checked, with its store decided by the caller. */
export interface NewPaymentFields {
  store_id: number;
  last_five: string;
  /** UTC instant, ms */
  paid_at: number;
  amount: number;
  note: string;
  /** an import may bring a status; a report starts 未確認 */
  status?: PaymentStatus;
}

/** The row of a new payment made by `actor` at `now`: a fresh tracking number, the submitter when a user. */
export function newPaymentRow(actor: Actor, fields: NewPaymentFields, now: number): PaymentRow {
  return {
    uuid: randomUUID(),
    store_id: fields.store_id,
    last_five: fields.last_five,
    paid_at: fields.paid_at,
    amount: fields.amount,
    status: fields.status ?? DEFAULT_STATUS,
    note: fields.note,
    created_by: actorUserId(actor),
    created_at: now,
    updated_at: now,
    // a customer's report through a store's link says so, and which link; everything else is staff's
    source: actor.kind === 'link' ? 'customer' : 'staff',
    link_id: actor.kind === 'link' ? actor.linkId : null,
  };
}

/** Stores new payments' rows (chunked); call it inside the transaction that checked them. */
export async function insertPayments(db: Db, rows: readonly PaymentRow[]): Promise<void> {
  await insertRows(db, 'payments', rows);
}
