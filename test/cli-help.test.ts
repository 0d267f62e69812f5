/**
 * No English from commander reaches a person: every command and subcommand
 * of the real tree is asked for its help and given each kind of wrong usage commander refuses,
 * in-process, and whatever it prints is searched for English words. What may stay in Latin
 * letters is what a person types or names, decided by rule rather than by listing sentences:
 * flags (`--db`, `-o`), placeholders in angle or square brackets, UPPER_CASE names (environment
 * variables, store codes, format acronyms), paths and file names, command names, the example
 * lines (typed as shown), and a short list of proper names and typed values below.
 */
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { localizeTree } from '../cli/help.js';
import { handleError } from '../cli/errors.js';
import { buildProgram } from '../cli/program.js';
import { displayWidth } from '../cli/table.js';
import { runRemit } from './helpers/cliInProcess.js';
import { PERMISSION_KEYS } from '../core/permissions.js';

/** Names of products and formats, and values a person types (roles, permission keys, --format values). */
// permission keys are names a script types, listed with their meaning in `users add --help`
const PROPER_NAMES = new Set<string>([
  'remit',
  'Excel',
  'SQLite',
  'PostgreSQL',
  'Big5',
  'admin',
  'user',
  ...PERMISSION_KEYS,
  'pg_dump',
  'pg_restore',
  'psql',
  'xlsx',
  'csv',
  'json',
]);

/** Nobody's database: any command that got as far as opening one would refuse (and create nothing). */
const ENV = { REMIT_DB: '/nonexistent/remit-help-test/remit.sqlite' };

interface Node {
  path: string[];
  cmd: Command;
}

function walk(cmd: Command, path: string[] = []): Node[] {
  return cmd.commands.flatMap((sub) => [
    { path: [...path, sub.name()], cmd: sub },
    ...walk(sub, [...path, sub.name()]),
  ]);
}

const tree = buildProgram({ env: {}, stdout: () => {}, stderr: () => {} });
const nodes = walk(tree);
// a hyphenated command (cash-out) is a name as typed: its parts are not English prose
const commandNames = new Set(['help', ...nodes.flatMap((n) => [n.cmd.name(), ...n.cmd.name().split('-')])]);
/** Placeholders remit itself writes: its arguments' names and its options' value names (commander's `[options]` is not one). */
const placeholders = new Set(
  [tree, ...nodes.map((n) => n.cmd)].flatMap((c) => [
    ...c.registeredArguments.map((a) => a.name()),
    ...c.options.flatMap((o) => [...o.flags.matchAll(/[<[]([^>\]]+)[>\]]/g)].map((m) => m[1])),
  ]),
);

/** The English words left in `text` once everything a person types or names is taken out. */
function englishWords(text: string): string[] {
  const prose = text
    .split(/\n範例：\n/)[0] // example lines are command lines, typed as shown
    .replace(/「[^」]*」/g, ' ') // what the person typed, quoted back
    .replace(/\b[a-z]+:\/\/\S+/g, ' ') // URLs
    .replace(/<([^>\s]*)>|\[([^\]\s]*)\]/g, (all, a, b) =>
      placeholders.has((a ?? b).replace(/\.\.\.$/, '')) ? ' ' : all,
    ) // our placeholders
    .replace(/(^|[^\w-])--?[A-Za-z][\w-]*/g, '$1 ') // flags
    .replace(/[\w.~$-]*\/[\w.\\%$/()-]*/g, ' ') // paths
    .replace(/[\w-]*\.(xlsx|xls|csv|sqlite|jsonl|json|dump)\b/g, ' ') // file names and extensions
    .replace(/\b[A-Z][A-Z0-9_]*\b/g, ' '); // environment variables, codes, acronyms
  return (prose.match(/[A-Za-z][A-Za-z0-9_]*/g) ?? []).filter(
    (w) => !commandNames.has(w) && !PROPER_NAMES.has(w) && !/^[A-Z]$/.test(w),
  );
}

/** Values that satisfy a command's required arguments and mandatory options, so one more mistake is the only one. */
function filler(cmd: Command): string[] {
  return [
    ...cmd.registeredArguments.filter((a) => a.required).map(() => 'x'),
    ...cmd.options.filter((o) => o.mandatory).flatMap((o) => [o.long!, 'x']),
  ];
}

type Case = { args: string[]; code: number; says?: string };

function casesFor({ path, cmd }: Node): Case[] {
  const cases: Case[] = [{ args: [...path, '--help'], code: 0 }];
  const hint = `用 remit ${path.join(' ')} --help 查看用法`;
  cases.push({ args: [...path, ...filler(cmd), '--bogus'], code: 2, says: `錯誤：未知的選項 --bogus\n${hint}\n` });
  if (cmd.commands.length) {
    cases.push({ args: [...path, 'help', cmd.commands[0].name()], code: 0 });
    if (!cmd.registeredArguments.length) {
      cases.push({ args: [...path, 'frob'], code: 2, says: '錯誤：未知的指令「frob」（可用的指令：' });
      cases.push({ args: path, code: 2 }); // no subcommand: its help, on stderr
    }
    return cases;
  }
  const required = cmd.registeredArguments.filter((a) => a.required);
  if (required.length)
    cases.push({
      args: path,
      code: 2,
      says: `錯誤：缺少參數 <${required[0].name()}${required[0].variadic ? '...' : ''}>`,
    });
  if (!cmd.registeredArguments.some((a) => a.variadic)) {
    const extra = [...filler(cmd), 'extra1', 'extra2'];
    cases.push({
      args: [...path, ...extra],
      code: 2,
      says: cmd.registeredArguments.length
        ? '錯誤：參數過多：'
        : `錯誤：remit ${path.join(' ')} 不接受參數「extra1 extra2」`,
    });
  }
  for (const o of cmd.options.filter((o) => o.required && o.long)) {
    cases.push({
      args: [...path, ...filler(cmd), o.long!],
      code: 2,
      says: `錯誤：選項 ${o.flags} 需要一個值\n用 remit `,
    });
  }
  const mandatory = cmd.options.filter((o) => o.mandatory);
  if (mandatory.length)
    cases.push({
      args: [...path, ...cmd.registeredArguments.filter((a) => a.required).map(() => 'x')],
      code: 2,
      says: `錯誤：缺少必要選項 ${mandatory.map((o) => o.flags).join('、')}`,
    });
  return cases;
}

/** A program with one more command using what remit's own commands do not (yet): choices and conflicts. */
async function runExtra(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io = { env: ENV, stdout: (s: string) => void (stdout += s), stderr: (s: string) => void (stderr += s) };
  const program = buildProgram(io);
  program
    .command('extra')
    .description('測試用')
    .addOption(new Option('--kind <kind>', '種類').choices(['a', 'b']))
    .addOption(new Option('--one', '其一').conflicts('two'))
    .option('--two', '其二')
    .action(() => {});
  localizeTree(program);
  let code = 0;
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (err) {
    code = handleError(err, io);
  }
  return { code, stdout, stderr };
}

describe('remit says everything in Chinese', () => {
  it('walks the whole command tree', () => {
    // the tree the binary runs: every command of the README is in it
    expect(nodes.map((n) => n.path.join(' '))).toEqual(
      expect.arrayContaining([
        'serve',
        'migrate',
        'import',
        'users add',
        'stores remove',
        'reconcile forget',
        'backup',
        'restore',
      ]),
    );
  });

  it.each(nodes.map((n) => [n.path.join(' '), n] as const))(
    'remit %s: help and every usage error in Chinese',
    async (_name, node) => {
      for (const c of casesFor(node)) {
        const r = await runRemit(c.args, ENV);
        const label = `remit ${c.args.join(' ')}`;
        expect(r.code, `${label}\n${r.stderr}`).toBe(c.code);
        if (c.says) expect(r.stderr, label).toContain(c.says);
        expect(englishWords(r.stdout + r.stderr), `${label}\n${r.stdout}${r.stderr}`).toEqual([]);
        if (c.code === 0) {
          expect(r.stdout, label).toContain('用法：remit');
          // Chinese descriptions wrap within 80 columns (commander wrapped at spaces only, which Chinese has none of)
          const wide = r.stdout
            .split('\n範例：\n')[0]
            .split('\n')
            .filter((line) => displayWidth(line) > 80);
          expect(wide, label).toEqual([]);
        }
      }
    },
  );

  it('remit --help and remit help and an unknown command at the top', async () => {
    for (const args of [['--help'], ['help'], ['frob'], ['--bogus'], []]) {
      const r = await runRemit(args, ENV);
      expect(englishWords(r.stdout + r.stderr), args.join(' ')).toEqual([]);
      // help where it was asked for (or nothing was given), a short pointer to it after an error
      expect(r.stdout + r.stderr).toContain(
        ['frob', '--bogus'].includes(args[0]) ? '用 remit --help 查看用法' : '用法：remit [選項] <指令>',
      );
    }
    expect((await runRemit(['frob'], ENV)).stderr).toMatch(
      /^錯誤：未知的指令「frob」（可用的指令：serve、migrate、import/,
    );
  });

  it('a typo in a command or an option is answered with the nearest one', async () => {
    expect((await runRemit(['expotr'], ENV)).stderr).toMatch(
      /^錯誤：未知的指令「expotr」，您是要用「export」嗎？（可用的指令：/,
    );
    expect((await runRemit(['users', 'lsit'], ENV)).stderr).toMatch(/^錯誤：未知的指令「lsit」，您是要用「list」嗎？/);
    expect((await runRemit(['export', '--formt', 'csv'], ENV)).stderr).toBe(
      '錯誤：未知的選項 --formt，您是要用 --format 嗎？\n用 remit export --help 查看用法\n',
    );
  });

  it('usage lines show placeholders only for what a command takes', async () => {
    const usage = async (args: string[]) => (await runRemit([...args, '--help'], ENV)).stdout.split('\n')[0];
    expect(await usage(['migrate'])).toBe('用法：remit migrate');
    expect(await usage(['users', 'unlock'])).toBe('用法：remit users unlock <username>');
    expect(await usage(['users'])).toBe('用法：remit users <指令>');
    expect(await usage(['import'])).toBe('用法：remit import [選項] <file>');
    expect(await usage(['reconcile'])).toBe('用法：remit reconcile [選項] <files...>');
    // a command without subcommands has no help command to list
    expect((await runRemit(['migrate', '--help'], ENV)).stdout).not.toContain('help [');
    expect((await runRemit(['users', '--help'], ENV)).stdout).toContain('help [指令]');
  });

  it('says an option default once (remit audit --limit)', async () => {
    const help = (await runRemit(['audit', '--help'], ENV)).stdout;
    expect(help).toMatch(/--limit <n> +最多列出幾筆（預設 1000）\n/);
    expect(help.match(/預設 1000/g)).toHaveLength(1);
    const users = (await runRemit(['users', 'add', '--help'], ENV)).stdout;
    expect(users).toContain('角色：admin 或 user（預設 user）');
  });

  it('an invalid choice and two options that exclude each other', async () => {
    const choice = await runExtra(['extra', '--kind', 'c']);
    expect([choice.code, choice.stderr]).toEqual([
      2,
      '錯誤：選項 --kind <kind> 的值不正確（可選：a、b）\n用 remit extra --help 查看用法\n',
    ]);
    const both = await runExtra(['extra', '--one', '--two']);
    expect([both.code, both.stderr]).toEqual([
      2,
      '錯誤：選項 --one 與 --two 不能一起使用\n用 remit extra --help 查看用法\n',
    ]);
    const help = await runExtra(['extra', '--help']);
    expect(help.stdout).toMatch(/--kind <kind> +種類（可選：a、b）/);
    // the test command's name and its choices are typed by whoever uses it
    for (const r of [choice, both, help])
      expect(englishWords(r.stdout + r.stderr).filter((w) => !['extra', 'a', 'b', 'kind'].includes(w))).toEqual([]);
  });

  it('the English check itself finds English', () => {
    expect(englishWords('Usage: remit [options] [command]\nOptions:\n  -h, --help  display help for command')).toEqual([
      'Usage',
      'options',
      'command',
      'Options',
      'display',
      'for',
      'command',
    ]);
    expect(englishWords("error: unknown option '--bogus'")).toEqual(['error', 'unknown', 'option']);
    // commander's placeholders are not ours, even in brackets; ours are
    expect(
      englishWords(
        '  list [options]  列出會員帳戶\n  help [command]  顯示指令的說明\n用法：remit import [選項] <file>',
      ),
    ).toEqual(['options', 'command']);
    expect(englishWords('--db <file>  SQLite 資料庫檔案（預設 REMIT_DB 或 ./data/remit.sqlite）')).toEqual([]);
  });
});
