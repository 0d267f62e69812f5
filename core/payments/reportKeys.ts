/**
 * A customer's report attempts by their key (`client_key`, rules.ts): the payment a link and key
 * stored, so that the same attempt sent again (no answer within 15 s, a lost answer) is answered
 * with that payment's tracking number instead of storing it twice or asking 您可能已經回報過.
 *
 * - A key is looked up through its link only: with another link, or unknown, it finds nothing and
 *   the report is a new one. Rows older than REPORT_KEY_TTL_MS are ignored, and cleared.
 * - A key remembers a fingerprint of what it carried: sent again with other fields it is refused
 *   (client_key_reused), never answered with the number of a report that says something else,
 *   so a key alone tells nobody anything about a report they did not write.
 * - The key is written by the payment writer (payments/write.ts) in the transaction that stores
 *   the payment, after looking for it under the same lock; two sends of one key at once, to one
 *   instance or several, store one payment and both get its number.
 */
import { createHash } from 'node:crypto';

import { fieldError, problem, ValidationError } from '../errors.js';
import type { Db } from '../context.js';

/** How long a key is answered; after that a send with it is a new report. */
const REPORT_KEY_TTL_MS = 24 * 60 * 60_000;

/** The same key sent again with other fields: refused, never answered with the other report's number. */
export const keyReused = () =>
  new ValidationError([fieldError('client_key', 'client_key_reused')], problem('client_key_reused'));

/** A report attempt: its link, its key and the fingerprint of its fields. */
export interface ReportKey {
  linkId: number;
  key: string;
  fingerprint: string;
}

/** What a key stored: the payment, and the fingerprint of the fields it came with. */
interface KeptReport {
  payment_uuid: string;
  fingerprint: string;
}

/** A report's fields as the server checked them, made into one short text (sha-256, hex). */
export function reportFingerprint(fields: {
  last_five: string;
  paid_at: number;
  amount: number;
  note: string;
}): string {
  return createHash('sha256')
    .update(JSON.stringify([fields.last_five, fields.paid_at, fields.amount, fields.note]))
    .digest('hex');
}

/** The payment a link's key stored within the last REPORT_KEY_TTL_MS, if any. */
export async function findReportKey(db: Db, linkId: number, key: string, now: number): Promise<KeptReport | undefined> {
  return (await db('public_report_keys')
    .where({ link_id: linkId, client_key: key })
    .where('created_at', '>=', now - REPORT_KEY_TTL_MS)
    .first('payment_uuid', 'fingerprint')) as KeptReport | undefined;
}

/** The keys of many attempts at once (the writer's batch), by `${linkId} ${key}`. */
export async function findReportKeys(
  db: Db,
  keys: readonly ReportKey[],
  now: number,
): Promise<Map<string, KeptReport>> {
  const found = new Map<string, KeptReport>();
  if (!keys.length) return found;
  const rows = (await db('public_report_keys')
    .whereIn('client_key', [...new Set(keys.map((k) => k.key))])
    .where('created_at', '>=', now - REPORT_KEY_TTL_MS)
    .select('link_id', 'client_key', 'payment_uuid', 'fingerprint')) as Array<
    KeptReport & { link_id: number | string; client_key: string }
  >;
  for (const r of rows)
    found.set(reportKeyId({ linkId: Number(r.link_id), key: r.client_key }), {
      payment_uuid: r.payment_uuid,
      fingerprint: r.fingerprint,
    });
  return found;
}

export const reportKeyId = (k: { linkId: number; key: string }) => `${k.linkId} ${k.key}`;

/** Keeps the keys of payments just stored (in the transaction that stores them); an expired row of the same key gives way. */
export async function saveReportKeys(
  db: Db,
  kept: ReadonlyArray<{ key: ReportKey; paymentUuid: string }>,
  now: number,
): Promise<void> {
  for (const { key, paymentUuid } of kept) {
    await db('public_report_keys')
      .where({ link_id: key.linkId, client_key: key.key })
      .where('created_at', '<', now - REPORT_KEY_TTL_MS)
      .delete();
    await db('public_report_keys').insert({
      link_id: key.linkId,
      client_key: key.key,
      payment_uuid: paymentUuid,
      fingerprint: key.fingerprint,
      created_at: now,
    });
  }
}

/** Clears keys no one will be answered for any more. */
export async function purgeReportKeys(db: Db, now: number): Promise<void> {
  await db('public_report_keys')
    .where('created_at', '<', now - REPORT_KEY_TTL_MS)
    .delete();
}
