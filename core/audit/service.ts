import { isPostgres } from '../db/connect.js';
import { storeScope } from '../permissions.js';
import { ValidationError } from '../errors.js';
import { assertFilterFields, filterIds, filterStrings, likeEscape, runList, type ListQuery } from '../listQuery.js';
import { instantRange } from '../dateRange.js';
import { toIso } from '../time.js';
import type { AuditEntry, ListResult } from '../types.js';
import type { ServiceContext, Db } from '../context.js';
import { requirePermission } from '../guard.js';
import { actorUserId } from '../actor.js';

export interface AuditRow {
  id: number;
  actor_id: number | null;
  actor_username: string;
  action: string;
  entity: string;
  entity_id: string | null;
  before: string | null;
  after: string | null;
  ip: string | null;
  at: number;
}

type AuditAction =
  | 'create'
  | 'update'
  | 'delete'
  | 'import'
  | 'export'
  | 'password'
  | 'login'
  | 'login_failed'
  | 'logout'
  | 'reconcile'
  | 'unreconcile'
  | 'close'
  | 'reopen'
  | 'after_close'
  | 'backup'
  | 'download'
  | 'restore';
type AuditEntity = 'payment' | 'user' | 'store' | 'statement' | 'payer' | 'cash_out' | 'day_close' | 'backup';

/** Writes one audit entry; call it inside the transaction of the change it records. */
export async function recordAudit(
  db: Db,
  ctx: Pick<ServiceContext, 'actor' | 'ip'>,
  entry: {
    action: AuditAction;
    entity: AuditEntity;
    entityId?: string | number | null;
    before?: unknown;
    after?: unknown;
  },
): Promise<void> {
  await db('audit_log').insert(auditRow(ctx, entry, Date.now()));
}

/** Many entries in one statement (batch deletes), chunked to stay under SQL variable limits. */
export async function recordAuditMany(
  db: Db,
  ctx: Pick<ServiceContext, 'actor' | 'ip'>,
  entries: Array<{
    action: AuditAction;
    entity: AuditEntity;
    entityId?: string | number | null;
    before?: unknown;
    after?: unknown;
  }>,
): Promise<void> {
  const at = Date.now();
  const rows = entries.map((e) => auditRow(ctx, e, at));
  for (let i = 0; i < rows.length; i += 100) await db('audit_log').insert(rows.slice(i, i + 100));
}

export type AuditRowInput = ReturnType<typeof auditRow>;

/** The audit_log row of one entry, for callers that write it in a batch of their own. */
export function auditRow(
  ctx: Pick<ServiceContext, 'actor' | 'ip'>,
  e: { action: AuditAction; entity: AuditEntity; entityId?: string | number | null; before?: unknown; after?: unknown },
  at: number,
) {
  return {
    actor_id: actorUserId(ctx.actor),
    actor_username: ctx.actor.username.slice(0, 40),
    action: e.action,
    entity: e.entity,
    entity_id: e.entityId === undefined || e.entityId === null ? null : String(e.entityId),
    before: e.before === undefined ? null : JSON.stringify(e.before),
    after: e.after === undefined ? null : JSON.stringify(e.after),
    ip: ctx.ip ? ctx.ip.slice(0, 64) : null, // X-Forwarded-For is whatever the client sent
    at,
  };
}

function parseJsonText(text: string | null): unknown {
  if (text === null || text === undefined) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: Number(row.id),
    actor_id: row.actor_id === null ? null : Number(row.actor_id),
    actor_username: row.actor_username,
    action: row.action,
    entity: row.entity,
    entity_id: row.entity_id,
    before: parseJsonText(row.before),
    after: parseJsonText(row.after),
    ip: row.ip,
    at: toIso(Number(row.at)),
  };
}

const AUDIT_SORTABLE = {
  id: 'id',
  at: 'at',
  action: 'action',
  entity: 'entity',
  entity_id: 'entity_id',
  actor_username: 'actor_username',
  ip: 'ip',
};
const AUDIT_FILTERS = ['id', 'action', 'entity', 'entity_id', 'actor_username', 'q', 'at_gte', 'at_lte'];
const WORD = (s: string) => s.length > 0 && s.length <= 200;
/** Entities whose entries record a store_id: a scoped reader sees only their stores'. */
const STORE_ENTITIES: AuditEntity[] = ['payment', 'statement', 'payer', 'cash_out', 'day_close'];

/** actor_username matches whole, any case; q is text in the username, entity id or address. */
export async function listAudit(
  ctx: ServiceContext,
  query: ListQuery = { filter: {} },
): Promise<ListResult<AuditEntry>> {
  requirePermission(ctx.actor, 'system_admin');
  const f = query.filter;
  assertFilterFields(f, AUDIT_FILTERS);
  const base = ctx.db<AuditRow>('audit_log').select('*');
  // A store-scoped system_admin reads no other store's payments or takings through the log: the store is
  // the entry's after, or (a delete) before; an entry for every store is for those who see every store.
  const scope = storeScope(ctx.actor);
  if (!scope.all) {
    const pg = isPostgres(ctx.db);
    const field = (col: string, key: string) =>
      pg ? `(${col}::jsonb->>'${key}')` : `json_extract(${col}, '$.${key}')`;
    const storeOf = `coalesce(${field('after', 'store_id')}, ${field('before', 'store_id')})`;
    const ids = scope.ids.map(String);
    const marks = ids.map(() => '?').join(',');
    const inStores = (expr: string) => (ids.length ? `cast(${expr} as text) in (${marks})` : '1 = 0');
    // Account entries by userVisibleTo's rule. One recording the account is judged by every version it
    // shows, so no reader sees it as it was elsewhere; one only naming it (sign-in, password), by the
    // account now. A failed sign-in under an unknown name is for those who see every store.
    const recorded = (col: string) => `${field(col, 'role')} is not null`;
    const versionOk = (col: string) =>
      `(not (${recorded(col)}) or (${inStores(field(col, 'store_id'))} and ${field(col, 'role')} <> 'admin'))`;
    const accountNow = `exists (select 1 from users u where cast(u.id as text) = audit_log.entity_id and u.role <> 'admin' and ${ids.length ? `cast(u.store_id as text) in (${marks})` : '1 = 0'})`;
    const userVisible =
      `(entity_id = ? or ((${recorded('after')} or ${recorded('before')}) and ${versionOk('after')} and ${versionOk('before')})` +
      ` or (not (${recorded('after')}) and not (${recorded('before')}) and ${accountNow}))`;
    base.where((w) =>
      w
        .whereNotIn('entity', [...STORE_ENTITIES, 'user'])
        .orWhere((x) => x.whereIn('entity', STORE_ENTITIES).whereRaw(inStores(storeOf), ids))
        .orWhere((x) =>
          x.where('entity', 'user').whereRaw(userVisible, [String(ctx.actor.id), ...ids, ...ids, ...ids]),
        ),
    );
  }
  const ids = filterIds(f, 'id');
  if (ids) base.whereIn('id', ids);
  const actions = filterStrings(f, 'action', WORD);
  if (actions) base.whereIn('action', actions);
  const entities = filterStrings(f, 'entity', WORD);
  if (entities) base.whereIn('entity', entities);
  const entityIds = filterStrings(f, 'entity_id', WORD);
  if (entityIds) base.whereIn('entity_id', entityIds);
  const users = filterStrings(f, 'actor_username', WORD);
  if (users)
    base.whereRaw(
      `lower(actor_username) in (${users.map(() => '?').join(',')})`,
      users.map((u) => u.toLowerCase()),
    );

  const from = f.at_gte,
    to = f.at_lte;
  const range = instantRange(from, to);
  if (range.gte !== undefined) base.where('at', '>=', range.gte);
  if (range.lt !== undefined) base.where('at', '<', range.lt);

  if (typeof f.q === 'string' && f.q.trim()) {
    const like = `%${likeEscape(f.q.trim().toLowerCase())}%`;
    base.where((w) =>
      w
        .whereRaw("lower(actor_username) like ? escape '\\'", [like])
        .orWhereRaw("lower(entity_id) like ? escape '\\'", [like])
        .orWhereRaw("lower(ip) like ? escape '\\'", [like]),
    );
  } else if (f.q !== undefined && f.q !== null && typeof f.q !== 'string') {
    throw ValidationError.single('filter', 'bad_list_param', { param: 'filter.q' });
  }
  return runList(base, query, { sortable: AUDIT_SORTABLE, defaultSort: ['at', 'DESC'], tiebreak: 'id' }, toAuditEntry);
}
