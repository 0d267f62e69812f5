/**
 * Excel serial dates: days since 1899-12-30 with the time as the fraction, in the wall clock of
 * whoever typed them (for this product, Taiwan). Excel counts a 29 February 1900 that never
 * was, so serials before 61 are one day off; the 1904 date system starts 1462 days later.
 */
import { taipeiWallClockToInstant, instantToTaipeiWallClock, DAY_MS } from '../time.js';

const UNIX_EPOCH_SERIAL = 25569; // 1970-01-01
const DATE1904_OFFSET = 1462;
const LEAP_BUG_SERIAL = 60; // "1900-02-29"

/** A serial number to a UTC instant (rounded to the second), or null when it is not a date. */
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

/** A UTC instant to the serial number of its Taiwan wall-clock time (1900 system). */
export function instantToSerial(ms: number): number {
  return instantToTaipeiWallClock(ms) / DAY_MS + UNIX_EPOCH_SERIAL;
}

/** The serial number of the Taiwan date an instant falls on (no time part). */
export function instantToDateSerial(ms: number): number {
  return Math.floor(instantToSerial(ms));
}
