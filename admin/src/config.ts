/** Constants of spec section 9 and the title the server puts into the page. */
export const API_BASE = '/api';
export const TIMEOUT_MS = 10_000;
/**
 * Where older versions kept the session token (the spec's "admin token key"). The session now
 * lives in an HttpOnly cookie; a token left here is removed.
 */
export const LEGACY_TOKEN_KEY = 'adminToken';
export const LOGIN_PATH = '/admin/login';
export const ADMIN_PATH = '/admin';

const DEFAULT_TITLE = '煙具專賣店 匯款回報系統';

/** The configured title (REMIT_TITLE), written into the page by the server. */
export function appTitle(): string {
  const meta = document.querySelector('meta[name="remit-title"]')?.getAttribute('content') ?? '';
  return meta && !meta.includes('%REMIT_TITLE%') ? meta : DEFAULT_TITLE;
}
