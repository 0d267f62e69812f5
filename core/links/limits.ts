/**
 * The public link's abuse limits (issue 25), counted in the database so that every instance
 * sharing it counts together: one row per bucket (an address's minute, an address's day, a
 * link's day) and fixed window, incremented and read in one statement. Addresses are counted
 * as sign-in counts them: the request's address, REMIT_TRUST_PROXY deciding whether a proxy's
 * X-Forwarded-For is believed (http/app.ts).
 */
import type { Db } from '../db/connect.js';
import { problem, TooManyRequestsError } from '../errors.js';
import { DEFAULT_PUBLIC_LIMITS, type PublicLimits, type PublicLinkSettings } from './rules.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export function publicLimitsOf(settings: PublicLinkSettings | undefined): PublicLimits {
  return settings?.limits ?? DEFAULT_PUBLIC_LIMITS;
}

/** Counts one hit on a bucket in the window holding `now`; answers the count so far and when the window ends. */
async function hit(db: Db, bucket: string, windowMs: number, now: number): Promise<{ n: number; endsAt: number }> {
  const start = Math.floor(now / windowMs) * windowMs;
  const result = await db.raw(
    'insert into public_limits (bucket, window_start, n) values (?, ?, 1) on conflict (bucket, window_start) do update set n = public_limits.n + 1 returning n',
    [bucket.slice(0, 120), start],
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ n: number | string }>;
  return { n: Number(rows[0]?.n ?? 0), endsAt: start + windowMs };
}

function refuse(endsAt: number, now: number): never {
  const seconds = Math.max(1, Math.ceil((endsAt - now) / 1000));
  throw new TooManyRequestsError(seconds, problem('public_too_many', { seconds }));
}

/** One more report from this address: refused (429) past its limit a minute or a day. */
export async function countAddress(db: Db, limits: PublicLimits, ip: string | null | undefined, now = Date.now()): Promise<void> {
  // windows two days old are of no use to anyone
  await db('public_limits').where('window_start', '<', now - 2 * DAY).delete();
  const address = (ip ?? '').slice(0, 64) || 'unknown';
  const minute = await hit(db, `address minute ${address}`, MINUTE, now);
  const day = await hit(db, `address day ${address}`, DAY, now);
  if (day.n > limits.perAddressDay) refuse(day.endsAt, now);
  if (minute.n > limits.perAddressMinute) refuse(minute.endsAt, now);
}

/** Public reads (a link's store name, a report's status) an address may make a minute, across instances. */
export const PUBLIC_LOOKUPS_PER_MINUTE = 60;

/** One more public read from this address: refused (429) past PUBLIC_LOOKUPS_PER_MINUTE, so tracking numbers and tokens cannot be tried in bulk. */
export async function countLookup(db: Db, ip: string | null | undefined, now = Date.now()): Promise<void> {
  const address = (ip ?? '').slice(0, 64) || 'unknown';
  const minute = await hit(db, `lookup minute ${address}`, MINUTE, now);
  if (minute.n > PUBLIC_LOOKUPS_PER_MINUTE) refuse(minute.endsAt, now);
}

/** One more report through this link: refused (429) past its limit a day. */
export async function countLink(db: Db, limits: PublicLimits, linkId: number, now = Date.now()): Promise<void> {
  const day = await hit(db, `link day ${linkId}`, DAY, now);
  if (day.n > limits.perLinkDay) refuse(day.endsAt, now);
}
