import type { Db } from '../db/connect.js';
import type { ServiceContext } from './context.js';

export type AuditAction = 'create' | 'update' | 'delete' | 'import' | 'password';
export type AuditEntity = 'payment' | 'user' | 'store';

/** Writes one audit entry; call it inside the transaction of the change it records. */
export async function recordAudit(
  db: Db,
  ctx: Pick<ServiceContext, 'actor' | 'ip'>,
  entry: { action: AuditAction; entity: AuditEntity; entityId?: string | number | null; before?: unknown; after?: unknown },
): Promise<void> {
  await db('audit_log').insert(auditRow(ctx, entry, Date.now()));
}

/** Many entries in one statement (batch deletes), chunked to stay under SQL variable limits. */
export async function recordAuditMany(
  db: Db,
  ctx: Pick<ServiceContext, 'actor' | 'ip'>,
  entries: Array<{ action: AuditAction; entity: AuditEntity; entityId?: string | number | null; before?: unknown; after?: unknown }>,
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
    actor_id: ctx.actor.id > 0 ? ctx.actor.id : null,
    actor_username: ctx.actor.username.slice(0, 40),
    action: e.action,
    entity: e.entity,
    entity_id: e.entityId === undefined || e.entityId === null ? null : String(e.entityId),
    before: e.before === undefined ? null : JSON.stringify(e.before),
    after: e.after === undefined ? null : JSON.stringify(e.after),
    ip: ctx.ip ?? null,
    at,
  };
}
