/** Values not given as flags: prompted on a terminal (on stderr: stdout is for --json), else a usage error. */
import { confirm, input, password } from '@inquirer/prompts';
import { CancelledError, UsageError } from './errors.js';
import { HELP, INPUT } from './messages.js';

const promptContext = { output: process.stderr };

function interactive(): boolean {
  return Boolean(process.stdin.isTTY);
}

/** A prompt left with Ctrl+C is a cancellation, not a crash. */
async function ask<T>(prompt: Promise<T>): Promise<T> {
  try {
    return await prompt;
  } catch (err) {
    if ((err as Error)?.name === 'ExitPromptError' || (err as Error)?.name === 'AbortPromptError')
      throw new CancelledError(INPUT.cancelled);
    throw err;
  }
}

function missing(what: string, flags: string): UsageError {
  return new UsageError(INPUT.missing(what, flags));
}

export async function textOrPrompt(value: string | undefined, flag: string, label: string): Promise<string> {
  if (value !== undefined) return value;
  if (!interactive()) throw missing(label, flag);
  return ask(input({ message: INPUT.prompt(label) }, promptContext));
}

/** The first line of stdin, without its line ending; stops reading after it. */
function readFirstLine(stream: NodeJS.ReadStream = process.stdin): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.pause();
    };
    const onEnd = () => {
      cleanup();
      const nl = buf.indexOf('\n');
      resolve((nl >= 0 ? buf.slice(0, nl) : buf).replace(/\r$/, ''));
    };
    const onData = (chunk: string) => {
      buf += chunk;
      if (buf.includes('\n')) onEnd();
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    stream.setEncoding('utf8');
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

interface PasswordFlags {
  password?: string;
  passwordStdin?: boolean;
}

interface NewPassword {
  password: string;
  /** set when typed twice at a prompt, so the core checks that both match */
  confirmPassword?: string;
}

const PASSWORD_FLAG_WARNING = INPUT.passwordFlagWarning;

/**
 * A new password from a prompt typed twice, stdin's first line, or `--password` (old scripts only, warned about: the
 * process list shows it). Flag problems are said at once, before the database opens; the value is read when needed.
 */
export function passwordSource(
  opts: PasswordFlags,
  label: string = INPUT.password,
  warn: (text: string) => void = (t) => process.stderr.write(t),
): () => Promise<NewPassword> {
  if (opts.password !== undefined && opts.passwordStdin) throw new UsageError(INPUT.passwordFlagsBoth);
  if (opts.passwordStdin) {
    return async () => {
      const line = await readFirstLine();
      if (!line) throw new UsageError(INPUT.passwordStdinEmpty);
      return { password: line };
    };
  }
  if (opts.password !== undefined) {
    warn(PASSWORD_FLAG_WARNING);
    return async () => ({ password: opts.password! });
  }
  if (!interactive()) throw missing(label, '--password-stdin');
  return async () => {
    const first = await ask(password({ message: INPUT.prompt(label), theme: hiddenTheme }, promptContext));
    const again = await ask(password({ message: INPUT.promptAgain(label), theme: hiddenTheme }, promptContext));
    return { password: first, confirmPassword: again };
  };
}

/** The password prompt's hint in Chinese: inquirer's help style is where it writes `[input is masked]`. */
const hiddenTheme = { style: { help: () => INPUT.passwordHidden } };

/** Destructive commands: without a terminal nobody can confirm, so `--yes` is required. */
export function requireYesOrTerminal(yes: boolean | undefined): void {
  if (!yes && !interactive()) throw new UsageError(INPUT.needsYes);
}

export async function confirmOrCancel(yes: boolean | undefined, message: string): Promise<void> {
  if (yes) return;
  requireYesOrTerminal(yes);
  if (
    !(await ask(
      confirm({ message, default: false, transformer: (yes) => (yes ? INPUT.yes : INPUT.no) }, promptContext),
    ))
  )
    throw new CancelledError(INPUT.cancelledNothingDone);
}

/** The 範例 section every command's `--help` ends with. */
export function examples(...lines: string[]): string {
  return `\n${HELP.examples}\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}
