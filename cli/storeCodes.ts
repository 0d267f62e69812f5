import { getStoreByCode, NotFoundError, storeIdsByCode, type ServiceContext, type Store } from '../core/index.js';
import { UsageError } from './errors.js';
import { STORES } from './messages.js';

/** Comma-separated store codes of a flag (`--store TPE,TXG`) as a list. */
export const codeList = (v?: string): string[] =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/** Store codes given in a flag to ids: an unknown code is a usage error naming it. */
export async function storeIdsFromFlag(ctx: ServiceContext, codes: readonly string[]): Promise<number[]> {
  try {
    return await storeIdsByCode(ctx, codes);
  } catch (err) {
    if (err instanceof NotFoundError) throw new UsageError(STORES.unknownCode(err.message));
    throw err;
  }
}

/** The store an argument names (`remit stores edit TPE`): an unknown code is a usage error, as in a flag. */
export async function storeFromArgument(ctx: ServiceContext, code: string): Promise<Store> {
  try {
    return await getStoreByCode(ctx, code);
  } catch (err) {
    if (err instanceof NotFoundError) throw new UsageError(STORES.unknownCode(err.message));
    throw err;
  }
}
