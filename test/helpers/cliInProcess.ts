/**
 * Runs a `remit` command in this process (`parseAsync([...], { from: 'user' })`): the same
 * command tree as the binary, without spawning node, for commands where a process adds nothing.
 */
import { handleError } from '../../cli/errors.js';
import { buildProgram } from '../../cli/program.js';

interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runRemit(args: string[], env: Record<string, string | undefined>): Promise<InProcessRun> {
  let stdout = '';
  let stderr = '';
  const io = { env, stdout: (s: string) => void (stdout += s), stderr: (s: string) => void (stderr += s) };
  const before = process.exitCode;
  process.exitCode = undefined;
  let code: number;
  try {
    await buildProgram(io).parseAsync(args, { from: 'user' });
    code = Number(process.exitCode ?? 0);
  } catch (err) {
    code = handleError(err, io);
  } finally {
    process.exitCode = before;
  }
  return { code, stdout, stderr };
}
