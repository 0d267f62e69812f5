#!/usr/bin/env node
/**
 * `npm start`: builds when the build is missing or older than the sources, then runs
 * `remit serve` (extra arguments are passed on: `npm start -- --port 8080`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const top = resolve(import.meta.dirname, '..');
const outputs = ['dist/cli/main.js', 'dist/admin/index.html', 'dist/admin/admin.html'].map((f) => join(top, f));
const sources = [
  'core',
  'cli',
  'http',
  'migrations',
  'admin/src',
  'admin/index.html',
  'admin/admin.html',
  'admin/vite.config.ts',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

const built = outputs.every(existsSync) ? Math.min(...outputs.map((f) => statSync(f).mtimeMs)) : 0;
const changed = Math.max(...sources.map((s) => newest(join(top, s))));
if (built === 0 || changed > built) {
  console.log(built === 0 ? '尚未建置，正在建置…' : '原始碼已更新，正在重新建置…');
  const r = spawnSync('npm', ['run', 'build'], { cwd: top, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const main = join(top, 'dist', 'cli', 'main.js');
process.argv = [process.argv[0], main, 'serve', ...process.argv.slice(2)];
await import(pathToFileURL(main).href);
