import { toIso } from '../time.js';
import type { Store } from '../types.js';

export interface StoreRow {
  id: number;
  name: string;
  code: string;
  created_at: number;
  updated_at: number;
}

export function toStore(r: StoreRow): Store {
  return {
    id: Number(r.id),
    name: r.name,
    code: r.code,
    created_at: toIso(Number(r.created_at)),
    updated_at: toIso(Number(r.updated_at)),
  };
}
