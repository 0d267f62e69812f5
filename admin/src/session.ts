// The session, for the submission page and the back office: an HttpOnly cookie no script can read, so the
// pages never hold the token.
import { ADMIN_PATH, API_BASE, LEGACY_TOKEN_KEY, LOGIN_PATH } from './config';

/** A token left in localStorage by earlier pages, where any script could read it. */
export function forgetStoredToken(): void {
  try {
    localStorage.removeItem(LEGACY_TOKEN_KEY);
  } catch {
    /* storage unavailable: nothing stored either */
  }
}

/** Never fails: a session already gone is signed out too. */
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

export function loginUrlFor(target: string): string {
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(target)}`;
}

export function currentPath(loc: Location = window.location): string {
  return `${loc.pathname}${loc.search}${loc.hash}`;
}

// Resolved as the browser will, which drops tabs and turns `\` into `/` (`/%09/evil.example` is another
// site): only this origin's own pages (`/`, `/admin...`) are accepted, else /admin.
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
