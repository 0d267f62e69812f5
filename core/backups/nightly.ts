// The nightly backup: once a Taiwan day, from 03:00, by whichever instance claims the day first. The claim
// is a compare-and-set under a lock, held for a moment, not for the whole backup.
import type { AppContext } from '../context.js';
import { systemActor } from '../actor.js';
import { lockForTransaction, LOCKS } from '../db/locks.js';
import { taipeiDate, taipeiHourOfDay } from '../time.js';
import { readSetting, SETTING, writeSetting } from './settings.js';
import { automaticBackup } from './service.js';

/** the Taiwan hour from which the day's backup is due: the shops are closed */
const NIGHTLY_HOUR = 3;
/** how often a server looks whether the day's backup is due */
const CHECK_EVERY_MS = 10 * 60_000;

type Outcome = 'taken' | 'already' | 'early' | 'off';

/** Takes the day's backup if it is due and no instance has claimed the day; says what it did. */
export async function runNightlyBackup(app: AppContext, now: number = Date.now()): Promise<Outcome> {
  if (!app.backups) return 'off';
  if (taipeiHourOfDay(now) < NIGHTLY_HOUR) return 'early';
  const today = taipeiDate(now);
  const previous = await app.db.transaction(async (trx) => {
    await lockForTransaction(trx, LOCKS.nightlyBackup);
    const last = await readSetting(trx, SETTING.lastDaily);
    if (last === today) return undefined;
    await writeSetting(trx, SETTING.lastDaily, today);
    return last ?? '';
  });
  if (previous === undefined) return 'already';
  try {
    await automaticBackup({ ...app, actor: systemActor('system'), ip: null }, 'daily');
  } catch (err) {
    // the day is free again: the next look tries again
    await writeSetting(app.db, SETTING.lastDaily, previous).catch(() => undefined);
    throw err;
  }
  return 'taken';
}

/** Looks every ten minutes (the first a minute after start); `stop` waits for a backup under way. */
export function scheduleNightlyBackups(app: AppContext, log: (err: unknown) => void): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const look = () => {
    running ??= runNightlyBackup(app)
      .catch(log)
      .finally(() => (running = null));
  };
  const first = setTimeout(look, 60_000);
  const every = setInterval(look, CHECK_EVERY_MS);
  first.unref();
  every.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(every);
    await running;
  };
}
