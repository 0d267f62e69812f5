/** Runs the built `remit` binary as a child process, as a script, cron or an operator would. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const BASE_ENV = () => ({ PATH: process.env.PATH ?? '', REMIT_BCRYPT_COST: '10' });

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as bytes, for binary output (`-o -`) */
  raw: Buffer;
  /** how long it ran */
  ms: number;
}

export function assertBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" (npm test does it first)`);
}

/**
 * No terminal on stdin, like cron. `input`: text piped in (then closed), or 'open' for a pipe
 * never written nor closed (a script that forgot it); default /dev/null.
 */
export function remit(
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string; input?: string | 'open'; timeoutMs?: number } = {},
): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd,
      env: { ...BASE_ENV(), ...opts.env },
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d) => (stderr += d));
    if (opts.input !== undefined && opts.input !== 'open') child.stdin!.end(opts.input);
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`remit ${args.join(' ')} did not finish in ${timeoutMs} ms (waiting for input?)\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin?.destroy();
      const raw = Buffer.concat(out);
      resolve({ code, stdout: raw.toString('utf8'), stderr, raw, ms: Date.now() - started });
    });
  });
}

interface Serving {
  child: ChildProcess;
  /** resolves with the address once the server says it is listening */
  ready: Promise<{ url: string; stdout: string }>;
  exited: Promise<number | null>;
}

/** Starts `remit <args> serve --port 0` and waits for the address it prints. */
export function serve(args: string[], env: Record<string, string> = {}): Serving {
  const child = spawn(process.execPath, [BIN, ...args, 'serve', '--port', '0'], {
    env: { ...BASE_ENV(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const ready = new Promise<{ url: string; stdout: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${stdout}\n${stderr}`)), 20_000);
    child.stdout!.on('data', (d) => {
      stdout += d;
      const m = /已啟動：(http:\/\/\S+)/.exec(stdout);
      // serve prints its banner (the address and any first-admin lines) in one write
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stdout });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${stdout}\n${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, exited };
}
