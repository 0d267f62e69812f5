import { mkdtempSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { resolveJwtSecret, secretFileFor } from './secret.js';

const dirs: string[] = [];
function dbIn(): string {
  const dir = mkdtempSync(join(tmpdir(), 'remit-secret-'));
  dirs.push(dir);
  return join(dir, 'remit.sqlite');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('resolveJwtSecret', () => {
  it('refuses an empty secret file (left by a full disk) instead of signing with an empty key', () => {
    const db = dbIn();
    writeFileSync(secretFileFor(db), '');
    expect(() => resolveJwtSecret(loadConfig({}, { db }))).toThrow(ConfigError);
    expect(() => resolveJwtSecret(loadConfig({}, { db }))).toThrow(/至少需要 32 個/);
  });

  it('refuses a short secret file', () => {
    const db = dbIn();
    writeFileSync(secretFileFor(db), 'abc\n');
    expect(() => resolveJwtSecret(loadConfig({}, { db }))).toThrow(ConfigError);
  });

  it('writes a new secret whole, mode 0600, leaves no temporary file, and reads the same one back', () => {
    const db = dbIn();
    const first = resolveJwtSecret(loadConfig({}, { db }));
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(secretFileFor(db)).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(db, '..')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(resolveJwtSecret(loadConfig({}, { db }))).toBe(first);
  });
});
