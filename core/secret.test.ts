import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { readSecret, resolveJwtSecret, secretFileFor } from './secret.js';

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
    writeFileSync(secretFileFor(db), '', { mode: 0o600 });
    expect(() => resolveJwtSecret(loadConfig({}, { db }))).toThrow(ConfigError);
    expect(() => resolveJwtSecret(loadConfig({}, { db }))).toThrow(/至少需要 32 個/);
  });

  it('refuses a short secret file', () => {
    const db = dbIn();
    writeFileSync(secretFileFor(db), 'abc\n', { mode: 0o600 });
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

  it('refuses a secret with too little variety, from the file or the environment', () => {
    const db = dbIn();
    writeFileSync(secretFileFor(db), `${'a'.repeat(32)}\n`, { mode: 0o600 });
    expect(() => resolveJwtSecret(loadConfig({}, { db }))).toThrow(/變化太少：只用了 1 種不同的字元/);
    for (const weak of [
      'a'.repeat(32),
      'x'.repeat(40),
      'abcd'.repeat(10),
      'test-secret-'.repeat(4),
      '0123456789'.repeat(4),
    ]) {
      expect(() => loadConfig({ REMIT_JWT_SECRET: weak })).toThrow(/REMIT_JWT_SECRET 的簽章密鑰變化太少/);
    }
    expect(() => loadConfig({ REMIT_JWT_SECRET: 'a'.repeat(32) })).toThrow(/openssl rand/);
    // what people generate passes: hex, base64, a long phrase
    for (const good of [
      '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'q3Jx9vR2mT7wYbK1pL5sZ8nD0cF4gH6j',
      'the-shop-on-zhongshan-road-keeps-its-books',
    ]) {
      expect(loadConfig({ REMIT_JWT_SECRET: good }).jwtSecret).toBe(good);
    }
  });

  it('refuses a secret file other users may read, saying chmod 600, and leaves it as it was', () => {
    const db = dbIn();
    const file = secretFileFor(db);
    const first = resolveJwtSecret(loadConfig({}, { db }));
    chmodSync(file, 0o644);
    expect(() => resolveJwtSecret(loadConfig({}, { db }))).toThrow(ConfigError);
    expect(() => resolveJwtSecret(loadConfig({}, { db }))).toThrow(/權限是 0644.*chmod 600/);
    chmodSync(file, 0o640);
    expect(() => resolveJwtSecret(loadConfig({}, { db }))).toThrow(/權限是 0640/);
    chmodSync(file, 0o600);
    expect(resolveJwtSecret(loadConfig({}, { db }))).toBe(first);
  });

  it('refuses a secret file owned by another user, saying how to fix it', () => {
    const db = dbIn();
    resolveJwtSecret(loadConfig({}, { db }));
    const file = secretFileFor(db);
    const owner = statSync(file).uid;
    expect(() => readSecret(file, owner + 1)).toThrow(/擁有者不是執行 remit 的使用者.*chown.*chmod 600/);
    expect(readSecret(file, owner)).toMatch(/^\S{32,}$/);
  });
});
