/**
 * Excel serial dates: days since 1899-12-30 in Taiwan wall-clock time. Excel counts a 29 February 1900
 * that never was, so serials before 61 are one day off; the 1904 system starts 1462 days later.
 */
import { taipeiWallClockToInstant, instantToTaipeiWallClock, DAY_MS } from '../time.js';

const UNIX_EPOCH_SERIAL = 25569; // 1970-01-01
const DATE1904_OFFSET = 1462;
const LEAP_BUG_SERIAL = 60; // "1900-02-29"

/** Rounded to the second; null when not a date. */
export function serialToInstant(serial: number, date1904 = false): number | null {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return null; // 9999-12-31
  let days = date1904 ? serial + DATE1904_OFFSET : serial;
  if (!date1904) {
    if (Math.floor(days) === LEAP_BUG_SERIAL) return null;
    if (days < LEAP_BUG_SERIAL) days += 1;
  }
  const wall = Math.round(((days - UNIX_EPOCH_SERIAL) * DAY_MS) / 1000) * 1000;
  return taipeiWallClockToInstant(wall);
}

/** The serial of its Taiwan wall-clock time, 1900 date system. */
export function instantToSerial(ms: number): number {
  return instantToTaipeiWallClock(ms) / DAY_MS + UNIX_EPOCH_SERIAL;
}

export function instantToDateSerial(ms: number): number {
  return Math.floor(instantToSerial(ms));
}
