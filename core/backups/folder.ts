// The backups folder: one file per backup, named for its Taiwan time and why it was taken, so the list,
// the retention and a person with `ls` read the same thing from the name alone.
import { mkdir, readdir, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { problem, ConflictError } from '../errors.js';
import { fieldRefusal } from './refusals.js';
import { DAY_MS, fileStamp, fileStampInstant } from '../time.js';

export const BACKUP_REASONS = ['manual', 'import', 'restore', 'daily'] as const;
export type BackupReason = (typeof BACKUP_REASONS)[number];
/** The ones retention removes: a backup someone asked for stays until they delete it. */
const AUTOMATIC: readonly BackupReason[] = ['import', 'restore', 'daily'];

const BACKUP_EXTENSION = '.backup.gz';
const NAME = /^remit-(\d{8}-\d{6}-\d{3})-(manual|import|restore|daily)\.backup\.gz$/;

export interface ListedBackup {
  name: string;
  /** when it was taken, ms */
  at: number;
  reason: BackupReason;
  bytes: number;
}

export function backupName(reason: BackupReason, at: number): string {
  return `remit-${fileStamp(at)}-${reason}${BACKUP_EXTENSION}`;
}

/** The time and reason a folder's file name says, or null for any other name (never a path). */
function parseBackupName(name: string): { at: number; reason: BackupReason } | null {
  const m = NAME.exec(name);
  const at = m ? fileStampInstant(m[1]) : null;
  return m && at !== null ? { at, reason: m[2] as BackupReason } : null;
}

/** A name from a request, checked to be one of the folder's: nothing outside it is ever read. */
export function requireBackupName(name: unknown): string {
  if (typeof name !== 'string' || !parseBackupName(name))
    throw fieldRefusal('name', 'backup_name_invalid', { name: String(name).slice(0, 100) });
  return name;
}

/** Only its owner reads what it holds (every password hash, every payment). */
export async function ensureFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** The folder's backups, newest first; a folder not made yet holds none. */
export async function listFolder(dir: string): Promise<ListedBackup[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return [];
    throw err;
  }
  const out: ListedBackup[] = [];
  for (const name of names) {
    const parsed = parseBackupName(name);
    if (!parsed) continue;
    const s = await stat(join(dir, name)).catch(() => null);
    if (s?.isFile()) out.push({ name, ...parsed, bytes: s.size });
  }
  return out.sort((a, b) => b.at - a.at || b.name.localeCompare(a.name));
}

/** Removes automatic backups older than `keepDays`; answers the names removed. */
export async function pruneFolder(dir: string, keepDays: number, now: number = Date.now()): Promise<string[]> {
  const before = now - keepDays * DAY_MS;
  const removed: string[] = [];
  for (const b of await listFolder(dir)) {
    if (!AUTOMATIC.includes(b.reason) || b.at >= before) continue;
    await rm(join(dir, b.name), { force: true });
    removed.push(b.name);
  }
  return removed;
}

const MB = 1024 * 1024;

/** Refuses before writing `bytes` into `dir` when the disk holds less, with room to spare for the rest of the system. */
export async function requireFreeSpace(dir: string, bytes: number, keepFree: number = 64 * MB): Promise<void> {
  const s = await statfs(dir);
  const free = Number(s.bavail) * Number(s.bsize);
  const need = bytes + keepFree;
  if (free < need)
    throw new ConflictError(
      problem('backup_disk_full', { path: dir, need_mb: Math.ceil(need / MB), free_mb: Math.floor(free / MB) }),
    );
}
