// Who is signed in, loaded once and reloaded after a self-edit.
import type { Me } from '../../../core/browser';
import { api } from '../http';

let current: Promise<Me> | null = null;

export function loadMe(): Promise<Me> {
  current ??= api<Me>('GET', '/admin/me').catch((err) => {
    current = null;
    throw err;
  });
  return current;
}

/** As the server wrote it into the page (http/firstScreen.ts). */
export function seedMe(me: Me): void {
  current ??= Promise.resolve(me);
}

export function reloadMe(): Promise<Me> {
  current = null;
  return loadMe();
}

export function forgetMe(): void {
  current = null;
}
