/** A bench child (build/bench/child.js, e.g. `export-cli` or `import-cli`) in a fresh process. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const CHILD = join(import.meta.dirname, '..', '..', 'build', 'bench', 'child.js');

/** Runs `mode` with `args` alone in its own process: its peak RSS (as the child reports it) and what it printed. */
export function benchChild(mode: string, args: string[]): Promise<{ maxRSS: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CHILD, mode, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '' },
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d));
    p.stderr.on('data', (d: Buffer) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code) => {
      const m = /BENCH (\{.*\})/.exec(stderr);
      if (code !== 0 || !m) return reject(new Error(`${mode} failed (${code}): ${stderr.slice(0, 2000)}`));
      resolve({ maxRSS: (JSON.parse(m[1]) as { maxRSS: number }).maxRSS, stdout });
    });
  });
}
