// A store's public link: staff make, rotate and turn it off; a customer with no account reports a transfer
// through it and reads its status. The store always comes from the link, never from what the customer sends.
import { randomBytes, randomUUID } from 'node:crypto';
import { linkActor } from '../actor.js';
import type { AppContext, ServiceContext, Db } from '../context.js';
import type { StoreRow } from '../stores/rows.js';
import { ConflictError, DomainError, fieldError, NotFoundError, problem, ValidationError } from '../errors.js';
import { deny, requirePermission, valid } from '../guard.js';
import { recordAudit } from '../audit/service.js';
import { validatePayment } from '../payments/validate.js';
import { STATUS_PENDING } from '../paymentStatuses.js';
import { nearRows, submitPayment } from '../payments/write.js';
import { storeChangeRefusal } from '../permissions.js';
import { isPlainObject, toId } from '../validation.js';
import { toIso } from '../time.js';
import { countLookup, countRefused, holdReport, publicLimitsOf } from './limits.js';
import {
  findReportKey,
  keyReused,
  purgeReportKeys,
  reportFingerprint,
  reportKeyId,
  saveReportKeys,
  type ReportKey,
} from '../payments/reportKeys.js';
import {
  CUSTOMER_DUPLICATE_WINDOW_MS,
  HONEYPOT_FIELD,
  isClientKey,
  isLinkToken,
  isTrackingNumber,
  LINK_TOKEN_BYTES,
  linkUrl,
  statusPath,
  type PublicStatus,
  type StoreLink,
} from './rules.js';
import { lockForTransaction } from '../db/locks.js';

interface LinkRow {
  id: number;
  store_id: number;
  token: string;
  active: boolean | number;
  created_at: number;
  updated_at: number;
}

export type LinkAction = 'show' | 'rotate' | 'off';

const newToken = () => randomBytes(LINK_TOKEN_BYTES).toString('base64url');

/** REMIT_PUBLIC_URL, else the server's own address, which the caller gives. */
function baseOf(ctx: AppContext, fallback: string): string {
  return ctx.security.publicLinks?.url || fallback;
}

/** `show` makes the link on first use; `rotate` replaces its token (the old one stops at once) and turns it on. */
export async function storeLink(
  ctx: ServiceContext,
  rawStoreId: unknown,
  action: LinkAction,
  fallbackBase: string,
): Promise<StoreLink> {
  requirePermission(ctx.actor, 'manage_stores');
  const storeId = toId(rawStoreId);
  const store =
    storeId === null
      ? undefined
      : ((await ctx.db<StoreRow>('stores').where({ id: storeId }).first()) as StoreRow | undefined);
  if (!store) throw new NotFoundError(problem('store_not_found'));
  deny(storeChangeRefusal(ctx.actor, Number(store.id)));
  const row = await ctx.db.transaction(async (trx) => {
    const now = Date.now();
    const find = async () =>
      (await trx<LinkRow>('store_links').where({ store_id: store.id }).first()) as LinkRow | undefined;
    let link = await find();
    if (!link && action === 'off') return undefined;
    if (!link) {
      const made = { store_id: Number(store.id), token: newToken(), active: true, created_at: now, updated_at: now };
      // two callers making it at once (two instances): one row stands, and one audit entry
      const inserted = (await trx('store_links')
        .insert(made)
        .onConflict(['store_id'])
        .ignore()
        .returning('id')) as unknown[];
      if (inserted.length)
        await recordAudit(trx, ctx, {
          action: 'update',
          entity: 'store',
          entityId: store.id,
          after: { store_id: Number(store.id), public_link: 'created' },
        });
      link = (await find())!;
      if (action === 'show') return link;
    }
    if (action === 'show' || (action === 'off' && !link.active)) return link;
    const change =
      action === 'rotate' ? { token: newToken(), active: true, updated_at: now } : { active: false, updated_at: now };
    await trx('store_links').where({ id: link.id }).update(change);
    await recordAudit(trx, ctx, {
      action: 'update',
      entity: 'store',
      entityId: store.id,
      after: { store_id: Number(store.id), public_link: action === 'rotate' ? 'rotated' : 'off' },
    });
    return { ...link, ...change };
  });
  const url = row ? linkUrl(baseOf(ctx, fallbackBase), row.token) : '';
  return { store: store.code, url, active: !!row && !!row.active };
}

/** The link behind a token, with its store, or a refusal a customer can read (連結已失效…). */
async function activeLink(db: Db, token: unknown): Promise<{ link: LinkRow; store: StoreRow }> {
  if (isLinkToken(token)) {
    const row = (await db('store_links')
      .join('stores', 'stores.id', 'store_links.store_id')
      .where('store_links.token', token)
      .first('store_links.*', 'stores.name as store_name', 'stores.code as store_code')) as
      | (LinkRow & { store_name: string; store_code: string })
      | undefined;
    if (row && row.active)
      return { link: row, store: { id: row.store_id, name: row.store_name, code: row.store_code } as StoreRow };
  }
  throw new NotFoundError(problem('link_inactive'));
}

/** The report page before anything is sent: the store's name, nothing else. */
export async function publicLinkInfo(
  app: AppContext,
  token: unknown,
  ip: string | null = null,
): Promise<{ store_name: string }> {
  await countLookup(app.db, ip);
  const { store } = await activeLink(app.read ?? app.db, token);
  return { store_name: store.name };
}

interface ReportReceipt {
  tracking: string;
  status_path: string;
}

/**
 * A probable duplicate asks first (409, unless `confirm_duplicate`): it counts as a report and looks only at
 * customers' reports, so it tries no numbers freely and tells nothing of staff's. A filled honeypot is kept
 * as a decoy; a `client_key` that stored a report already gets its receipt (`replayed`).
 */
export async function reportThroughLink(
  app: AppContext,
  token: unknown,
  body: unknown,
  ip: string | null,
): Promise<{ receipt: ReportReceipt; replayed: boolean }> {
  try {
    return await storeReport(app, token, body, ip);
  } catch (err) {
    if (err instanceof ValidationError || (err instanceof NotFoundError && err.code === 'link_inactive'))
      await countRefused(app.db, ip);
    throw err;
  }
}

const receiptOf = (tracking: string): ReportReceipt => ({ tracking, status_path: statusPath(tracking) });

async function storeReport(
  app: AppContext,
  token: unknown,
  body: unknown,
  ip: string | null,
): Promise<{ receipt: ReportReceipt; replayed: boolean }> {
  const limits = publicLimitsOf(app.security.publicLinks);
  const { link, store } = await activeLink(app.db, token);
  const input = isPlainObject(body) ? body : null;
  const trap = input?.[HONEYPOT_FIELD];
  const trapped = trap !== undefined && trap !== null && trap !== '';
  const now = Date.now();
  // only the report's own fields: a store, a status or anything else in the body is not read
  const fields = input
    ? { last_five: input.last_five, paid_at: input.paid_at, amount: input.amount, note: input.note ?? '' }
    : body;
  const value = valid(validatePayment(fields, { now }));
  const rawKey = input?.client_key;
  if (rawKey !== undefined && rawKey !== null && !isClientKey(rawKey))
    throw new ValidationError([fieldError('client_key', 'client_key_invalid')], problem('client_key_invalid'));
  const reportKey: ReportKey | null = isClientKey(rawKey)
    ? { linkId: Number(link.id), key: rawKey, fingerprint: reportFingerprint(value) }
    : null;
  if (reportKey) {
    await purgeReportKeys(app.db, now);
    // the primary database, never a replica: a report stored a moment ago must be found
    const kept = await findReportKey(app.db, reportKey.linkId, reportKey.key, now);
    if (kept) {
      if (kept.fingerprint !== reportKey.fingerprint) throw keyReused();
      // sent again: no send counted, but a read, as reading its status would be
      await countLookup(app.db, ip, now);
      return { receipt: receiptOf(kept.payment_uuid), replayed: true };
    }
  }
  const storeId = Number(store.id);
  const confirmed = input?.confirm_duplicate === true;
  const ctx: ServiceContext = { ...app, actor: linkActor({ id: Number(link.id), storeId, storeCode: store.code }), ip };
  // a bot's report is counted, checked and answered as a customer's would be: only what is kept differs
  const held = await holdReport(app.db, limits, ip, link.token, now);
  try {
    // the near and key checks run in the writer's transaction, so two near reports sent at once store one
    const opts = { allowDuplicate: confirmed, now, nearWindowMs: CUSTOMER_DUPLICATE_WINDOW_MS };
    const written = trapped
      ? await storeDecoy(app.db, storeId, value, opts, reportKey)
      : reportKey
        ? await submitPayment(ctx, { ...value, store_id: storeId }, { ...opts, reportKey })
        : await submitPayment(ctx, { ...value, store_id: storeId }, opts);
    if ('replayOf' in written) {
      // the same attempt sent at the same time, stored by the other send: off the limits again
      await held.release().catch(() => undefined);
      return { receipt: receiptOf(written.replayOf), replayed: true };
    }
    return { receipt: receiptOf(written.uuid), replayed: false };
  } catch (err) {
    // the writer's own duplicate answer names the other payment: a customer never reads that
    if (err instanceof DomainError && err.code === 'possible_duplicate')
      throw new ConflictError(problem('public_possible_duplicate'));
    // not stored: off the limits again (should that fail, the count errs on the safe side)
    await held.release().catch(() => undefined);
    throw err;
  }
}

/** How long a decoy answers its status page: long after any bot looks again. */
const DECOY_TTL_MS = 90 * 24 * 60 * 60_000;

// A bot's report, kept as a decoy and answered as the writer answers (near reports, its key); near decoys
// and one key take turns (PostgreSQL: advisory locks), as in the writer.
async function storeDecoy(
  db: Db,
  storeId: number,
  value: { last_five: string; paid_at: number; amount: number },
  opts: { allowDuplicate: boolean; now: number; nearWindowMs: number },
  reportKey: ReportKey | null,
): Promise<{ uuid: string } | { replayOf: string }> {
  const report = { ...value, store_id: storeId };
  return db.transaction(async (trx) => {
    await lockForTransaction(trx, [
      `decoy|${storeId}|${value.last_five}|${value.amount}`,
      ...(reportKey ? [`report key|${reportKeyId(reportKey)}`] : []),
    ]);
    if (reportKey) {
      const kept = await findReportKey(trx, reportKey.linkId, reportKey.key, opts.now);
      if (kept) {
        if (kept.fingerprint !== reportKey.fingerprint) throw keyReused();
        return { replayOf: kept.payment_uuid };
      }
    }
    await trx('public_decoys')
      .where('created_at', '<', opts.now - DECOY_TTL_MS)
      .delete();
    if (!opts.allowDuplicate) {
      const before = ((await nearRows(trx, 'public_decoys', report, opts.nearWindowMs).first('uuid')) ??
        (await nearRows(trx, 'payments', report, opts.nearWindowMs).where('source', 'customer').first('uuid'))) as
        | { uuid: string }
        | undefined;
      if (before) throw new ConflictError(problem('possible_duplicate', { duplicate_of: before.uuid }));
    }
    const uuid = randomUUID();
    await trx('public_decoys').insert({
      uuid,
      store_id: storeId,
      last_five: value.last_five,
      paid_at: value.paid_at,
      amount: value.amount,
      created_at: opts.now,
    });
    if (reportKey) await saveReportKeys(trx, [{ key: reportKey, paymentUuid: uuid }], opts.now);
    return { uuid };
  });
}

/** Status, amount, time and store name only; staff's own entries are not answered here. */
export async function publicReportStatus(
  app: AppContext,
  tracking: unknown,
  ip: string | null = null,
): Promise<PublicStatus> {
  await countLookup(app.db, ip);
  if (isTrackingNumber(tracking)) {
    const row = (await (app.read ?? app.db)('payments')
      .join('stores', 'stores.id', 'payments.store_id')
      .where({ 'payments.uuid': tracking.toLowerCase(), 'payments.source': 'customer' })
      .first(
        'payments.uuid',
        'payments.status',
        'payments.amount',
        'payments.paid_at',
        'stores.name as store_name',
      )) as
      | {
          uuid: string;
          status: PublicStatus['status'];
          amount: number | string;
          paid_at: number | string;
          store_name: string;
        }
      | undefined;
    if (row)
      return {
        tracking: row.uuid,
        status: row.status,
        amount: Number(row.amount),
        paid_at: toIso(Number(row.paid_at)),
        store_name: row.store_name,
      };
    // a decoy answers as a report nobody has looked at yet
    const decoy = (await (app.read ?? app.db)('public_decoys')
      .join('stores', 'stores.id', 'public_decoys.store_id')
      .where({ 'public_decoys.uuid': tracking.toLowerCase() })
      .first('public_decoys.uuid', 'public_decoys.amount', 'public_decoys.paid_at', 'stores.name as store_name')) as
      | { uuid: string; amount: number | string; paid_at: number | string; store_name: string }
      | undefined;
    if (decoy)
      return {
        tracking: decoy.uuid,
        status: STATUS_PENDING,
        amount: Number(decoy.amount),
        paid_at: toIso(Number(decoy.paid_at)),
        store_name: decoy.store_name,
      };
  }
  throw new NotFoundError(problem('public_report_not_found'));
}
