/** Runs the built `remit` binary as a child process, as a script, cron or an operator would. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as bytes, for binary output (`-o -`) */
  raw: Buffer;
}

export function assertBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" (npm test does it first)`);
}

/** No terminal on stdin (like cron) unless `input` is given, which is piped in. */
export function remit(args: string[], opts: { env?: Record<string, string>; cwd?: string; input?: string; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH ?? '', REMIT_BCRYPT_COST: '10', ...opts.env },
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d) => (stderr += d));
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`remit ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const raw = Buffer.concat(out);
      resolve({ code, stdout: raw.toString('utf8'), stderr, raw });
    });
  });
}
