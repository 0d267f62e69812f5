import { API_BASE } from '../config';

/** a backup or a restore of a large database takes longer than a list */
export const LONG_MS = 10 * 60_000;

/** The browser's own download of one of the folder's backups: streamed to disk, never held by the page. */
export function downloadBackup(name: string): void {
  const a = document.createElement('a');
  a.href = backupUrl(name);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export const backupUrl = (name: string) => `${API_BASE}/backups/${encodeURIComponent(name)}`;
