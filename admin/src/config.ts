export const API_BASE = '/api';
export const TIMEOUT_MS = 10_000;
/** Where earlier pages kept the session token; one left here is removed. */
export const LEGACY_TOKEN_KEY = 'adminToken';
export const LOGIN_PATH = '/admin/login';
export const ADMIN_PATH = '/admin';

const DEFAULT_TITLE = '煙具專賣店 匯款回報系統';

/** REMIT_TITLE, written into the page by the server. */
export function appTitle(): string {
  const meta = document.querySelector('meta[name="remit-title"]')?.getAttribute('content') ?? '';
  return meta && !meta.includes('%REMIT_TITLE%') ? meta : DEFAULT_TITLE;
}
