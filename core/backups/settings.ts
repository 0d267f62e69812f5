// The installation's settings (the `settings` table): one value per key, shared by every instance.
import type { Db } from '../context.js';

export const SETTING = {
  keepDays: 'backup.keep_days',
  /** the Taiwan day the nightly backup was claimed for */
  lastDaily: 'backup.last_daily',
  /** when the newest backup was taken, ms */
  lastBackupAt: 'backup.last_at',
} as const;

export async function readSetting(db: Db, key: string): Promise<string | null> {
  const row = (await db('settings').where({ key }).first('value')) as { value: string } | undefined;
  return row?.value ?? null;
}

export async function writeSetting(db: Db, key: string, value: string): Promise<void> {
  await db('settings').insert({ key, value, updated_at: Date.now() }).onConflict('key').merge();
}
