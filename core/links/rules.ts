// A store's public link, its pure rules (the back office and the public page import them).
import type { PaymentStatus } from '../paymentStatuses.js';
import type { PublicLimits } from '../context.js';

/** Random bytes of a link token: 128 bits, written as 22 url-safe base64 characters. */
export const LINK_TOKEN_BYTES = 16;
const TOKEN_RE = /^[A-Za-z0-9_-]{22}$/;

/** A malformed token is refused before any lookup. */
export function isLinkToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_RE.test(value);
}

/** A tracking number as the status page takes it: a UUID, any case. */
const TRACKING_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isTrackingNumber(value: unknown): value is string {
  return typeof value === 'string' && TRACKING_RE.test(value);
}

/** Kept by the page while the fields stay, so a resend gets the first report's number back; valid a day, one link. */
export const CLIENT_KEY_BYTES = 16;
const CLIENT_KEY_RE = /^[0-9a-f]{32}$/;
export function isClientKey(value: unknown): value is string {
  return typeof value === 'string' && CLIENT_KEY_RE.test(value);
}

/** Where the public page lives: `/r/TOKEN` the report form, `/r/status/TRACKING` a report's status. */
export const PUBLIC_PAGE_PREFIX = '/r/';
const linkPath = (token: string) => `${PUBLIC_PAGE_PREFIX}${token}`;
export const statusPath = (tracking: string) => `${PUBLIC_PAGE_PREFIX}status/${tracking.toLowerCase()}`;

/** On the public address the shop gave (REMIT_PUBLIC_URL), or the server's. */
export function linkUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, '')}${linkPath(token)}`;
}

/** Only this machine or the shop's network opens it: a link or poster with it reaches no phone on mobile data. */
export function unreachableFromOutside(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    host === '::'
  )
    return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (!v4) return /^f[cd][0-9a-f]{2}:|^fe80:/.test(host);
  const [a, b] = [Number(v4[1]), Number(v4[2])];
  return (
    a === 127 ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    a === 0
  );
}

export const DEFAULT_PUBLIC_LIMITS: PublicLimits = { perAddressMinute: 5, perAddressDay: 30, perLinkDay: 300 };

/** The form's field a person never sees: a bot that fills every field fills this one too. */
export const HONEYPOT_FIELD = 'website';

/** Two reports are probably the same transfer: same store, last five and amount, times this close. */
export const CUSTOMER_DUPLICATE_WINDOW_MS = 10 * 60_000;

/** All a customer sees of a report: never the last five, the note or any id but its own number. */
export interface PublicStatus {
  tracking: string;
  status: PaymentStatus;
  amount: number;
  paid_at: string;
  store_name: string;
}

export interface StoreLink {
  store: string;
  url: string;
  active: boolean;
}
