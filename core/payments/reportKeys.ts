/**
 * A customer's report attempts by their `client_key`, per link: the same attempt sent again (a lost
 * answer) gets the stored payment's tracking number rather than storing it twice. A key sent again with
 * other fields is refused, so a key alone tells nobody about a report they did not write.
 */
import { createHash } from 'node:crypto';

import { fieldError, problem, ValidationError } from '../errors.js';
import type { Db } from '../context.js';

/** After this a send with the key is a new report. */
const REPORT_KEY_TTL_MS = 24 * 60 * 60_000;

export const keyReused = () =>
  new ValidationError([fieldError('client_key', 'client_key_reused')], problem('client_key_reused'));

export interface ReportKey {
  linkId: number;
  key: string;
  fingerprint: string;
}

interface KeptReport {
  payment_uuid: string;
  fingerprint: string;
}

/** A report's fields as the server checked them, hashed. */
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

export async function findReportKey(db: Db, linkId: number, key: string, now: number): Promise<KeptReport | undefined> {
  return (await db('public_report_keys')
    .where({ link_id: linkId, client_key: key })
    .where('created_at', '>=', now - REPORT_KEY_TTL_MS)
    .first('payment_uuid', 'fingerprint')) as KeptReport | undefined;
}

/** The keys of the writer's batch, by reportKeyId. */
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

/** Call in the transaction that stores the payments; an expired row of the same key gives way. */
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

export async function purgeReportKeys(db: Db, now: number): Promise<void> {
  await db('public_report_keys')
    .where('created_at', '<', now - REPORT_KEY_TTL_MS)
    .delete();
}
