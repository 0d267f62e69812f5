// The session lives in an HttpOnly cookie, so "signed in" is what `GET /api/admin/me` says. A 401 leads to
// sign-in with a way back; a 403 logs nobody out.
import type { AuthProvider } from 'react-admin';
import { canAccess } from '../../../core/browser';
import { api, ApiError } from '../http';
import { LOGIN_PATH } from '../config';
import { currentPath, loginUrlFor, signOutOnServer } from '../session';
import { forgetMe, loadMe } from './me';

// The router has no basename (react-admin is mounted at /admin/*), so redirects name the full path.
let returnTo: string | null = null;
const loginRedirect = () => {
  returnTo = currentPath();
  return { redirectTo: loginUrlFor(returnTo), message: false as const };
};

export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    // the token is for scripts; the page's session is the cookie the answer sets
    await api<{ token: string }>('POST', '/admin/login', { username, password });
    forgetMe();
    return { redirectTo: false };
  },
  async logout() {
    forgetMe();
    await signOutOnServer();
    // sent away by a failed check: come back afterwards; logged out by the user: just the login page
    const target = returnTo && !returnTo.startsWith(LOGIN_PATH) ? loginUrlFor(returnTo) : LOGIN_PATH;
    returnTo = null;
    return target;
  },
  async checkAuth() {
    try {
      await loadMe();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) throw loginRedirect();
      // offline or a server error: not a sign-out; the pages show their own errors
    }
  },
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      forgetMe();
      throw loginRedirect();
    }
    // 403 and everything else: stay signed in
  },
  async getIdentity() {
    const me = await loadMe();
    return { ...me, fullName: me.username };
  },
  async getPermissions() {
    return loadMe();
  },
  async canAccess({ resource, action }: { resource: string; action: string }) {
    try {
      return canAccess(await loadMe(), resource, action);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) throw err;
      return false;
    }
  },
};
