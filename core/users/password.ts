// How guessable a new password is, one rule for every edge: the username (any case, reversed, or with only
// digits or symbols after), repetitive (aaaaaa, 121212, abcabc, 123456, qwerty), or common (commonPasswords.ts).
import { MSG } from '../messages.js';
import { COMMON_PASSWORDS } from './commonPasswords.js';

type PasswordWeakness = 'username' | 'repetitive' | 'common';

const COMMON = new Set(COMMON_PASSWORDS);
/** Runs a password may not be a piece of, forwards or backwards. */
const RUNS = [
  '01234567890',
  'abcdefghijklmnopqrstuvwxyz',
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm',
  '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p',
  'zaq1xsw2cde3vfr4bgt5nhy6mju7',
];
const RUNS_BOTH = [...RUNS, ...RUNS.map((r) => [...r].reverse().join(''))];
/** Digits and symbols at the end: what people add to a word to pass a rule. */
const TAIL = /[\d\s!@#$%^&*()_+\-=[\]{};':"\\|,.<>/?~`]+$/u;

const chars = (s: string) => [...s];

function isRepetitive(p: string): boolean {
  const cs = chars(p);
  if (new Set(cs).size <= 2) return true;
  for (let size = 1; size <= cs.length / 2; size++) {
    if (cs.length % size) continue;
    const block = cs.slice(0, size).join('');
    if (block.repeat(cs.length / size) === cs.join('')) return true;
  }
  return RUNS_BOTH.some((run) => run.includes(p));
}

function isCommon(p: string): boolean {
  if (COMMON.has(p)) return true;
  const stem = p.replace(TAIL, '');
  return stem.length >= 3 && stem !== p && COMMON.has(stem);
}

function isUsername(p: string, username: string): boolean {
  const name = username.trim().toLowerCase();
  if (!name) return false;
  if (p === name || p === chars(name).reverse().join('')) return true;
  const rest = p.startsWith(name) ? p.slice(name.length) : null;
  return rest !== null && rest.replace(TAIL, '') === '';
}

/** Why a password is too easy to guess, or null. `username`: the account's, when known. */
export function passwordWeakness(password: string, username?: unknown): PasswordWeakness | null {
  const p = password.trim().toLowerCase();
  if (typeof username === 'string' && isUsername(p, username)) return 'username';
  if (isRepetitive(p)) return 'repetitive';
  if (isCommon(p)) return 'common';
  return null;
}

export function checkPasswordStrength(password: string, username?: unknown): string | null {
  const why = passwordWeakness(password, username);
  return why === null ? null : MSG.passwordWeak[why];
}
