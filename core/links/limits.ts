// The public link's abuse limits, counted in the database so every instance counts together: a row per
// bucket and fixed window, incremented and read in one statement. Report limits count stored reports only;
// a send refused for a mistake is counted apart, generously, so a customer fixing a typo is never locked out.
import { createHash } from 'node:crypto';

import { addressNetwork, ipv4Block } from '../network.js';
import { taipeiDayNumber, taipeiDayNumberStart } from '../time.js';
import { problem, TooManyRequestsError } from '../errors.js';
import { DEFAULT_PUBLIC_LIMITS } from './rules.js';
import type { Db, PublicLimits, PublicLinkSettings } from '../context.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export function publicLimitsOf(settings: PublicLinkSettings | undefined): PublicLimits {
  return settings?.limits ?? DEFAULT_PUBLIC_LIMITS;
}

/** The row a hit went to, so it can be taken back from that same window. */
interface Window {
  bucket: string;
  start: number;
  endsAt: number;
}

/** A window's start: a clock minute, or a Taiwan day (a shop's day ends at its midnight, not UTC's 08:00). */
const windowStart = (now: number, windowMs: number) =>
  windowMs === DAY ? taipeiDayNumberStart(taipeiDayNumber(now)) : Math.floor(now / windowMs) * windowMs;

/** Counts one hit in the window holding `now`; answers the count so far. */
async function hit(db: Db, bucket: string, windowMs: number, now: number): Promise<{ n: number } & Window> {
  const start = windowStart(now, windowMs);
  const key = bucket.slice(0, 120);
  const result = await db.raw(
    'insert into public_limits (bucket, window_start, n) values (?, ?, 1) on conflict (bucket, window_start) do update set n = public_limits.n + 1 returning n',
    [key, start],
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ n: number | string }>;
  return { n: Number(rows[0]?.n ?? 0), bucket: key, start, endsAt: start + windowMs };
}

/** Takes back hits that stored nothing, each from the window it was counted in (a minute may have ended since). */
async function unhit(db: Db, windows: Window[]): Promise<void> {
  for (const w of windows)
    await db('public_limits').where({ bucket: w.bucket, window_start: w.start }).decrement('n', 1);
}

/** Refused until the window ends: 送出次數過多 for sends, 使用人數過多 for reads (`public_busy`). */
function refuse(endsAt: number, now: number, code: 'public_too_many' | 'public_busy' = 'public_too_many'): never {
  const seconds = Math.max(1, Math.ceil((endsAt - now) / 1000));
  throw new TooManyRequestsError(seconds, problem(code, { seconds }));
}

const addressOf = (ip: string | null | undefined) => addressNetwork(ip) || 'unknown';

/** An IPv4 /24 may send this many times an address's day: one owner's block, or a carrier's shared addresses. */
export const PUBLIC_BLOCK_DAY_FACTOR = 4;

// By token, so 重新產生 starts a budget a leaked link's flood cannot spend; hashed, so no live link is stored.
const linkBudget = (token: string) => `link day ${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;

/** Sends a link's day budget refused: the back office's flood notice counts them (floods.ts). */
export const linkRefusedBucket = (token: string) => `${linkBudget(token)} refused`;

/** Counted before storing, so sends at once cannot pass a limit together; `release` if it is not stored after all. */
export async function holdReport(
  db: Db,
  limits: PublicLimits,
  ip: string | null | undefined,
  linkToken: string,
  now = Date.now(),
): Promise<{ release(): Promise<void> }> {
  await db('public_limits')
    .where('window_start', '<', now - 2 * DAY)
    .delete();
  const address = addressOf(ip);
  const minute = await hit(db, `address minute ${address}`, MINUTE, now);
  const day = await hit(db, `address day ${address}`, DAY, now);
  const held: Window[] = [minute, day];
  const block = ipv4Block(address);
  const blockDay = block ? await hit(db, `block day ${block}`, DAY, now) : null;
  if (blockDay) held.push(blockDay);
  const over =
    day.n > limits.perAddressDay
      ? day
      : minute.n > limits.perAddressMinute
        ? minute
        : blockDay && blockDay.n > limits.perAddressDay * PUBLIC_BLOCK_DAY_FACTOR
          ? blockDay
          : null;
  if (over) {
    await unhit(db, held);
    refuse(over.endsAt, now);
  }
  const link = await hit(db, linkBudget(linkToken), DAY, now);
  held.push(link);
  if (link.n > limits.perLinkDay) {
    await unhit(db, held);
    await hit(db, linkRefusedBucket(linkToken), DAY, now);
    refuse(link.endsAt, now);
  }
  return { release: () => unhit(db, held) };
}

/** Refused sends (a mistake, a dead link) an address may make: generous for typos, yet a bound on scripts. */
export const PUBLIC_REFUSED_PER_MINUTE = 30;
const PUBLIC_REFUSED_PER_DAY = 300;

export async function countRefused(db: Db, ip: string | null | undefined, now = Date.now()): Promise<void> {
  const address = addressOf(ip);
  const minute = await hit(db, `refused minute ${address}`, MINUTE, now);
  const day = await hit(db, `refused day ${address}`, DAY, now);
  if (day.n > PUBLIC_REFUSED_PER_DAY) refuse(day.endsAt, now);
  if (minute.n > PUBLIC_REFUSED_PER_MINUTE) refuse(minute.endsAt, now);
}

const PUBLIC_LOOKUPS_PER_MINUTE = 60;

/** Against trying numbers in bulk; said as 使用人數過多, since on a shop's Wi-Fi the reader may have sent nothing. */
export async function countLookup(db: Db, ip: string | null | undefined, now = Date.now()): Promise<void> {
  const address = addressOf(ip);
  const minute = await hit(db, `lookup minute ${address}`, MINUTE, now);
  if (minute.n > PUBLIC_LOOKUPS_PER_MINUTE) refuse(minute.endsAt, now, 'public_busy');
}
