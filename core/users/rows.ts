import { PERMISSION_KEYS, type Permission, type Role } from '../permissions.js';
import { toIso } from '../time.js';
import type { User } from '../types.js';

export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  role: Role;
  permissions: string;
  store_id: number | null;
  accessible_stores: string;
  is_active: boolean | number;
  token_version: number;
  created_at: number;
  updated_at: number;
}

function parseList<T>(text: string, keep: (v: unknown) => v is T): T[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter(keep) : [];
  } catch {
    return [];
  }
}

const isPermissionKey = (v: unknown): v is Permission => (PERMISSION_KEYS as readonly unknown[]).includes(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

export function toUser(r: UserRow): User {
  return {
    id: Number(r.id),
    username: r.username,
    role: r.role,
    permissions: parseList(r.permissions, isPermissionKey),
    store_id: r.store_id === null ? null : Number(r.store_id),
    accessible_stores: parseList(r.accessible_stores, isId),
    is_active: Boolean(r.is_active),
    created_at: toIso(Number(r.created_at)),
    updated_at: toIso(Number(r.updated_at)),
  };
}
