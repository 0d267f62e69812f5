// What the form keeps from one entry to the next (鎖定), and the clock an untouched time follows.
import { useEffect, useState } from 'react';
import { taipeiInputValue } from '../../../core/browser';

export type LockKey = 'method' | 'paid_at' | 'amount' | 'store_id';
export type Locks = Record<LockKey, boolean>;

const STORAGE_KEY = 'remit.submit.locks';
// a run of cash sales keeps its method, as the form always did; the rest start each entry afresh
const DEFAULT_LOCKS: Locks = { method: true, paid_at: false, amount: false, store_id: false };

function storedLocks(): Locks {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Locks>;
    const keys = Object.keys(DEFAULT_LOCKS) as LockKey[];
    return Object.fromEntries(
      keys.map((k) => [k, typeof saved[k] === 'boolean' ? saved[k] : DEFAULT_LOCKS[k]]),
    ) as Locks;
  } catch {
    return { ...DEFAULT_LOCKS };
  }
}

/** Kept in this browser: the same clerk at the same counter tomorrow wants the same run. */
export function useLocks() {
  const [locks, setLocks] = useState<Locks>(storedLocks);
  const toggle = (key: LockKey) =>
    setLocks((l) => {
      const next = { ...l, [key]: !l[key] };
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // private browsing: the toggle still holds until the page closes
      }
      return next;
    });
  return { locks, toggle };
}

/** Now as a datetime-local value, renewed when the minute turns. */
export function useClock(): string {
  const [now, setNow] = useState(() => taipeiInputValue(Date.now()));
  useEffect(() => {
    const timer = setInterval(() => setNow(taipeiInputValue(Date.now())), 5_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
