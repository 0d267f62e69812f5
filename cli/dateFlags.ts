import { instantRange, MSG, taipeiDayStart, ValidationError } from '../core/index.js';
import { UsageError } from './errors.js';
import { DATES } from './messages.js';

type Flag = [flag: string, value: string | undefined];

/** A command's start and end date flags (Taiwan dates), checked by core's date-range rule before the database opens. */
export function checkDateFlags(from: Flag, to: Flag): void {
  for (const [flag, value] of [from, to]) {
    if (value !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(value))
      throw new UsageError(`${flag} ${MSG.badDate(value)}`);
    // written right, yet no such day (2026-02-30): said so, not as a format to fix
    if (value !== undefined && taipeiDayStart(value) === null) throw new UsageError(DATES.noSuchDay(flag, value));
    // each flag alone first, so a date out of range (9999-12-31) is said with its flag
    usage(() => instantRange(value, undefined, { from: flag, to: flag }), `${flag} `);
  }
  usage(() => instantRange(from[1], to[1], { from: from[0], to: to[0] }));
}

function usage(check: () => unknown, prefix = ''): void {
  try {
    check();
  } catch (err) {
    if (err instanceof ValidationError) throw new UsageError(`${prefix}${err.errors[0].message}`);
    throw err;
  }
}
