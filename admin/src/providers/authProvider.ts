/**
 * The session for react-admin (spec sections 2 and 4): the server keeps it in an HttpOnly cookie
 * (issue 22, item 1), so "signed in" is what `GET /api/admin/me` says. A 401 leads to
 * /admin/login with a way back; a 403 logs nobody out; 登出 ends the session on the server.
 * `canAccess` is the core's rules.
 */
import type { AuthProvider } from 'react-admin';
import { can } from '../../../core/browser';
import type { Permission } from '../../../core/browser';
import { api, ApiError } from '../http';
import { LOGIN_PATH } from '../config';
import { currentPath, loginUrlFor, signOutOnServer } from '../session';
import { forgetMe, loadMe } from './me';

/**
 * The router of the back office has no basename of its own (react-admin is mounted at /admin/*
 * under a BrowserRouter), so redirects name the full path; the query carries the target back.
 */
let returnTo: string | null = null;
const loginRedirect = () => {
  returnTo = currentPath();
  return { redirectTo: loginUrlFor(returnTo), message: false as const };
};

/** The permission each resource and action needs (spec section 6 "Gates"). */
export function requiredPermission(resource: string, action: string): Permission | null {
  switch (resource) {
    case 'payments':
      // The list itself is open: without view_payments it shows the spec's 權限不足 notice.
      if (action === 'list') return null;
      if (action === 'delete') return 'delete_payments';
      if (action === 'edit') return 'edit_payments';
      if (action === 'import' || action === 'export_all' || action === 'sample') return 'manage_payments';
      return 'view_payments';
    case 'users':
      return 'manage_users';
    case 'stores':
      return 'manage_stores';
    case 'dashboard':
      return 'view_reports';
    case 'audit':
      return 'system_admin';
    default:
      return null;
  }
}

export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    // The answer's token is for scripts; the page's session is the cookie the answer sets.
    await api<{ token: string }>('POST', '/admin/login', { username, password });
    forgetMe();
    return { redirectTo: false };
  },
  async logout() {
    forgetMe();
    await signOutOnServer();
    // Sent away by a failed check: come back afterwards. Logged out by the user: just the login page.
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
    // 403 and everything else: stay signed in.
  },
  async getIdentity() {
    const me = await loadMe();
    return { ...me, fullName: me.username };
  },
  async getPermissions() {
    return loadMe();
  },
  async canAccess({ resource, action }: { resource: string; action: string }) {
    const permission = requiredPermission(resource, action);
    if (!permission) return true;
    try {
      return can(await loadMe(), permission);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) throw err;
      return false;
    }
  },
};
