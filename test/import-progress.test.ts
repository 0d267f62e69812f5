/**
 * `remit import` on a terminal shows rows read and rows written on one line, overwritten as it
 * goes (stderr); off a terminal, and with --json, nothing extra. The terminal is a real pseudo
 * terminal (`script`), as a person running the command has.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTaipei } from '../core/index.js';
import { HEADERS } from '../core/payments/sheetFile.js';
import { assertBuilt, BIN, remit } from './helpers/cli.js';

const N = 12_000;

describe.skipIf(!existsSync('/usr/bin/script'))('remit import progress', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'remit-progress-'));
    file = join(dir, '匯款.csv');
    const base = Date.UTC(2026, 0, 1);
    const lines = [HEADERS.join(',')];
    for (let i = 0; i < N; i++) {
      const t = formatTaipei(base + i * 60_000);
      lines.push(`${t.slice(0, 10)},="${String(i % 100000).padStart(5, '0')}",${t},${100 + (i % 900)},,TPE,`);
    }
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect((await remit(['--db', join(dir, 'a.db'), 'migrate'])).code).toBe(0); // only migrate creates a database
    expect((await remit(['--db', join(dir, 'a.db'), 'stores', 'add', '--name', '台北店', '--code', 'TPE'])).code).toBe(
      0,
    );
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const onTerminal = (db: string, extra: string[] = []) => {
    const cmd = [process.execPath, BIN, '--db', db, 'import', file, ...extra].map((a) => `'${a}'`).join(' ');
    const r = spawnSync('/usr/bin/script', ['-qec', cmd, '/dev/null'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm' },
    });
    expect(r.status, r.stdout).toBe(0);
    return r.stdout;
  };

  it('on a terminal: rows read and written, overwritten in place, ending at the whole file', () => {
    const db = join(dir, 'a.db');
    const out = onTerminal(db);
    const updates = out
      .split('\r\x1b[K')
      .slice(1)
      .map((s) => s.split(/\r?\n/)[0].replace(/\r$/, ''));
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.at(-1)).toBe(`已讀取 ${N} 行，已寫入 ${N} 筆`);
    expect(out).toContain(`成功匯入 ${N} 筆記錄`);
    // --json on a terminal: the JSON alone
    const json = onTerminal(db, ['--json', '--dry-run']);
    expect(json).not.toContain('已讀取');
  }, 180_000);

  it('off a terminal: no progress line', () => {
    const r = spawnSync(process.execPath, [BIN, '--db', join(dir, 'a.db'), 'import', file, '--dry-run'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(r.status).toBe(0);
    expect(r.stderr).not.toContain('已讀取');
    expect(r.stdout).toContain(`共 ${N} 筆資料`);
    expect(r.stdout).toContain('檔案：');
  }, 180_000);
});
