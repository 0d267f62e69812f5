/**
 * The session (spec section 4): the server keeps it in an HttpOnly cookie that no
 * script on the page can read, so the pages never hold the token. Signed in once login succeeds;
 * signed out on 登出 (the server revokes the session) or on any 401. Shared by the submission page
 * and the back office.
 */
import { ADMIN_PATH, API_BASE, LEGACY_TOKEN_KEY, LOGIN_PATH } from './config';

/**
 * Removes a token an older version of the pages left in localStorage, where any script could read
 * it. Called when a page starts.
 */
export function forgetStoredToken(): void {
  try {
    localStorage.removeItem(LEGACY_TOKEN_KEY);
  } catch {
    /* storage unavailable: nothing stored either */
  }
}

/**
 * 登出 on the server: the session ends on every instance, and the cookie is cleared. Never fails:
 * a session already gone is signed out too.
 */
export async function signOutOnServer(): Promise<void> {
  try {
    await fetch(`${API_BASE}/admin/logout`, {
      method: 'POST',
      credentials: 'same-origin',
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    /* offline: the cookie stays until it expires, but the page forgets the user */
  }
}

/** `/admin/login?redirect=<full target path>` for a page that needs a session. */
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
 * turns `\` into `/` (`/%09/evil.example` is `//evil.example`, another site);
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
