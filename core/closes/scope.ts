// The store a day or a cash entry belongs to, checked the same way by every closes/ service.
import { ForbiddenError, ValidationError, problem } from '../errors.js';
import { inScope } from '../permissions.js';
import { toId } from '../validation.js';
import type { Db, ServiceContext } from '../context.js';

export interface StoreRef {
  id: number;
  code: string;
  name: string;
}

/** Refused as a field error: store_id is a field of what was sent. */
export async function storeById(db: Db, id: unknown): Promise<StoreRef> {
  const storeId = toId(id);
  if (id === undefined || id === null || id === '') throw ValidationError.single('store_id', 'store_required');
  if (storeId === null) throw ValidationError.single('store_id', 'store_invalid');
  const s = (await db('stores').where({ id: storeId }).first('id', 'code', 'name')) as StoreRef | undefined;
  if (!s) throw ValidationError.single('store_id', 'store_not_found');
  return { id: Number(s.id), code: s.code, name: s.name };
}

export function requireStoreInScope(ctx: ServiceContext, storeId: number): void {
  if (!inScope(ctx.actor, storeId)) throw new ForbiddenError(problem('store_out_of_scope'));
}
