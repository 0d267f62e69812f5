// Backups as the 備份 page, `remit` and the import see them: who may, where they go, how long the automatic
// ones stay, and an audit entry for each backup, download and restore.
import { existsSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { AppContext, BackupSettings, Db, ServiceContext } from '../context.js';
import { ConflictError, ForbiddenError, NotFoundError, problem } from '../errors.js';
import { requirePermission } from '../guard.js';
import { isAdmin } from '../permissions.js';
import { DEFAULT_KEEP_DAYS, KEEP_DAYS, RESTORE_WORD } from '../limits.js';
import { recordAudit } from '../audit/service.js';
import { toIso } from '../time.js';
import { backupName, ensureFolder, listFolder, pruneFolder, requireBackupName, type BackupReason } from './folder.js';
import { fieldRefusal } from './refusals.js';
import { openBackup, type BackupInfo } from './open.js';
import { replaceData } from './restore.js';
import { readSetting, SETTING, writeSetting } from './settings.js';
import { writeBackup } from './take.js';

/** system_admin, and every store: a backup holds all of them. */
export function requireBackupAccess(actor: ServiceContext['actor']): void {
  requirePermission(actor, 'system_admin');
  if (!isAdmin(actor)) throw new ForbiddenError(problem('backup_all_stores_required'));
}

function settingsOf(ctx: AppContext): BackupSettings {
  if (!ctx.backups) throw new ConflictError(problem('backups_not_configured'));
  return ctx.backups;
}

/** REMIT_BACKUP_KEEP_DAYS, else the days set on the page or with `remit backups --keep-days`, else 14. */
async function keepDays(ctx: AppContext, db: Db = ctx.db): Promise<number> {
  if (ctx.backups?.keepDays !== undefined) return ctx.backups.keepDays;
  const stored = Number(await readSetting(db, SETTING.keepDays));
  return Number.isInteger(stored) && stored >= KEEP_DAYS.min ? stored : DEFAULT_KEEP_DAYS;
}

export interface TakenBackup {
  name: string;
  at: string;
  reason: BackupReason;
  bytes: number;
  removed: string[];
}

/** A backup into the folder, audited (unless `audited: false`: a restore says it in its own entry), then retention. */
async function takeBackup(
  ctx: ServiceContext,
  reason: BackupReason,
  opts: { via?: Db; audited?: boolean } = {},
): Promise<TakenBackup> {
  const settings = settingsOf(ctx);
  await ensureFolder(settings.dir);
  const now = Date.now();
  const name = backupName(reason, now);
  const taken = await writeBackup(ctx.db, join(settings.dir, name), {
    via: opts.via,
    now,
    keepFree: settings.keepFree,
  });
  const db = opts.via ?? ctx.db;
  await writeSetting(db, SETTING.lastBackupAt, String(now));
  const removed = await pruneFolder(settings.dir, await keepDays(ctx, db), now);
  const c = taken.header.counts;
  if (opts.audited !== false)
    await recordAudit(db, ctx, {
      action: 'backup',
      entity: 'backup',
      entityId: name,
      after: {
        file: name,
        reason,
        bytes: taken.bytes,
        payment_count: c.payments,
        store_count: c.stores,
        user_count: c.users,
        ...(removed.length ? { removed: removed.length } : {}),
      },
    });
  return { name, at: toIso(now), reason, bytes: taken.bytes, removed };
}

/** 下載備份: a backup of the running database into the folder, to be downloaded next. */
export async function takeManualBackup(ctx: ServiceContext): Promise<TakenBackup> {
  requireBackupAccess(ctx.actor);
  return takeBackup(ctx, 'manual');
}

/** Before a bulk import, and nightly; nothing where no folder is set (a program using the library). */
export async function automaticBackup(ctx: ServiceContext, reason: 'import' | 'daily'): Promise<TakenBackup | null> {
  if (!ctx.backups) return null;
  return takeBackup(ctx, reason);
}

export interface BackupOverview {
  dir: string;
  keep_days: number;
  /** set by REMIT_BACKUP_KEEP_DAYS: the page shows it and does not change it */
  keep_days_from_env: boolean;
  last_backup_at: string | null;
  backups: Array<{ name: string; at: string; reason: BackupReason; bytes: number }>;
}

export async function backupOverview(ctx: ServiceContext): Promise<BackupOverview> {
  requireBackupAccess(ctx.actor);
  const settings = settingsOf(ctx);
  const last = await lastBackup(ctx);
  return {
    dir: settings.dir,
    keep_days: await keepDays(ctx),
    keep_days_from_env: settings.keepDays !== undefined,
    last_backup_at: last === null ? null : toIso(last),
    backups: (await listFolder(settings.dir)).map((b) => ({ ...b, at: toIso(b.at) })),
  };
}

/** A backup of the folder to download, by name only (never a path); the download is audited. */
export async function backupForDownload(
  ctx: ServiceContext,
  name: unknown,
): Promise<{ path: string; fileName: string; bytes: number }> {
  requireBackupAccess(ctx.actor);
  const file = requireBackupName(name);
  const path = join(settingsOf(ctx).dir, file);
  if (!existsSync(path)) throw new NotFoundError(problem('backup_file_not_found', { name: file }));
  const bytes = statSync(path).size;
  await recordAudit(ctx.db, ctx, { action: 'download', entity: 'backup', entityId: file, after: { file, bytes } });
  return { path, fileName: file, bytes };
}

/** What a file holds, checked whole as a restore would; nothing is changed. */
export async function inspectBackup(ctx: ServiceContext, file: string, shownAs: string): Promise<BackupInfo> {
  requireBackupAccess(ctx.actor);
  const opened = await openBackup(file, openOptions(ctx, shownAs));
  await opened.close();
  return opened.info;
}

function openOptions(ctx: ServiceContext, shownAs: string) {
  const s = settingsOf(ctx);
  return { workDir: s.dir, shownAs, maxPayloadBytes: s.maxPayloadBytes, keepFree: s.keepFree };
}

export interface RestoreResult {
  info: BackupInfo;
  /** the backup of what the restore replaced */
  pre_restore: string;
  copied: Record<string, number>;
}

/**
 * Replaces the data with a backup's, once `confirm` is RESTORE_WORD: checked whole first, the data it replaces
 * kept as a 還原前 backup, all in one transaction, audited in it.
 */
export async function restoreBackup(
  ctx: ServiceContext,
  file: string,
  opts: { shownAs: string; confirm: unknown },
): Promise<RestoreResult> {
  requireBackupAccess(ctx.actor);
  if (opts.confirm !== RESTORE_WORD) throw fieldRefusal('confirm', 'restore_confirm_required', { word: RESTORE_WORD });
  const settings = settingsOf(ctx);
  await ensureFolder(settings.dir);
  const opened = await openBackup(file, openOptions(ctx, opts.shownAs));
  try {
    const { copied, before } = await replaceData(ctx.db as Knex, opened, {
      before: (trx) => takeBackup(ctx, 'restore', { via: trx, audited: false }),
      discard: (b) => rm(join(settings.dir, b.name), { force: true }),
      after: (trx, _copied, b) => {
        const i = opened.info;
        return recordAudit(trx, ctx, {
          action: 'restore',
          entity: 'backup',
          entityId: opts.shownAs.slice(0, 64),
          after: {
            file: opts.shownAs,
            taken_at: i.taken_at,
            schema: i.schema,
            upgraded: i.upgraded,
            payment_count: i.counts.payments,
            store_count: i.counts.stores,
            user_count: i.counts.users,
            pre_restore: b.name,
          },
        });
      },
    });
    return { info: opened.info, pre_restore: before.name, copied };
  } finally {
    await opened.close();
  }
}

/** The days automatic backups stay (the 備份 page, `remit backups --keep-days`); audited. */
export async function setKeepDays(ctx: ServiceContext, days: unknown): Promise<number> {
  requireBackupAccess(ctx.actor);
  const env = settingsOf(ctx).keepDays;
  if (env !== undefined) throw new ConflictError(problem('backup_keep_days_from_env', { days: env }));
  if (typeof days !== 'number' || !Number.isInteger(days) || days < KEEP_DAYS.min || days > KEEP_DAYS.max)
    throw fieldRefusal('keep_days', 'backup_keep_days_invalid', KEEP_DAYS);
  const before = await keepDays(ctx);
  await ctx.db.transaction(async (trx) => {
    await writeSetting(trx, SETTING.keepDays, String(days));
    await recordAudit(trx, ctx, {
      action: 'update',
      entity: 'backup',
      before: { keep_days: before },
      after: { keep_days: days },
    });
  });
  await pruneFolder(settingsOf(ctx).dir, days);
  return days;
}

/** When the newest backup was taken (ms), whichever instance or command took it; null before the first. */
export async function lastBackup(ctx: AppContext): Promise<number | null> {
  const at = Number(await readSetting(ctx.db, SETTING.lastBackupAt));
  return Number.isFinite(at) && at > 0 ? at : null;
}

/** `remit backup FILE`: the same format to a file of the operator's choosing, audited. */
export async function backupToFile(
  ctx: ServiceContext,
  target: string,
  opts: { force?: boolean } = {},
): Promise<{ file: string; bytes: number }> {
  requireBackupAccess(ctx.actor);
  const now = Date.now();
  const taken = await writeBackup(ctx.db, target, { force: opts.force, now, keepFree: ctx.backups?.keepFree });
  await writeSetting(ctx.db, SETTING.lastBackupAt, String(now));
  const c = taken.header.counts;
  await recordAudit(ctx.db, ctx, {
    action: 'backup',
    entity: 'backup',
    entityId: target.slice(-64),
    after: {
      file: target,
      reason: 'manual',
      bytes: taken.bytes,
      payment_count: c.payments,
      store_count: c.stores,
      user_count: c.users,
    },
  });
  return { file: target, bytes: taken.bytes };
}
