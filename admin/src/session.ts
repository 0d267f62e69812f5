/**
 * The session (spec section 4): signed in once login stores the token; signed out on logout or
 * on any 401. Shared by the submission page and the back office.
 */
import { ADMIN_PATH, LOGIN_PATH, TOKEN_KEY } from './config';

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

/** The username a token carries, or null (the payload is read, not verified: display only). */
export function tokenUsername(token: string | null = getToken()): string | null {
  if (!token) return null;
  try {
    const part = token.split('.')[1];
    const json = decodeURIComponent(
      atob(part.replace(/-/g, '+').replace(/_/g, '/'))
        .split('')
        .map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
        .join(''),
    );
    const name = JSON.parse(json).username;
    return typeof name === 'string' && name ? name : null;
  } catch {
    return null;
  }
}

/** `/admin/login?redirect=<full target path>` for a page that needs a token. */
export function loginUrlFor(target: string): string {
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(target)}`;
}

export function currentPath(loc: Location = window.location): string {
  return `${loc.pathname}${loc.search}${loc.hash}`;
}

/**
 * Where to go after login: the redirect value when present and not the login route itself
 * (and a path on this site, never another one), otherwise /admin. The value is resolved
 * against the page's origin as the browser will resolve it, which drops tabs and newlines and
 * turns `\` into `/` (`/%09/evil.example` is `//evil.example`, another site: issue 10, item 5);
 * only the same origin and the product's own pages (`/` and `/admin...`) are accepted.
 */
export function afterLoginTarget(redirect: string | null | undefined, origin: string = window.location.origin): string {
  if (!redirect || !redirect.startsWith('/')) return ADMIN_PATH;
  let url: URL;
  try {
    url = new URL(redirect, origin);
  } catch {
    return ADMIN_PATH;
  }
  if (url.origin !== new URL(origin).origin) return ADMIN_PATH;
  const path = url.pathname.replace(/\/+$/, '');
  const own = path === '' || path === ADMIN_PATH || path.startsWith(`${ADMIN_PATH}/`);
  if (!own || path === LOGIN_PATH) return ADMIN_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}
