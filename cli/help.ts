/**
 * Help and usage errors in Traditional Chinese, built from commander's data and error codes, never by translating
 * its English: an upgrade that rewords it changes nothing here (a new error code gets the generic sentence).
 */
import type { Command, CommanderError, Help, Option } from 'commander';
import { UsageError } from './errors.js';
import { HELP, USAGE } from './messages.js';
import { displayWidth } from './table.js';

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

const isHelpOrVersion = (o: Option) => o.long === '--help' || o.long === '--version';
/** The command's own options, beyond -h (and the root's -V). */
const ownOptions = (cmd: Command) => cmd.options.filter((o) => !o.hidden && !isHelpOrVersion(o));
const argText = (a: { name(): string; required: boolean; variadic: boolean }) => {
  const name = `${a.name()}${a.variadic ? '...' : ''}`;
  return a.required ? `<${name}>` : `[${name}]`;
};

/** `<file>` or `[選項] <file>`: what follows a command's name, in its usage line and in its parent's list. */
function commandArgs(cmd: Command): string {
  return [
    ownOptions(cmd).length ? HELP.optionsPlaceholder : '',
    ...cmd.registeredArguments.map(argText),
    // a command with subcommands and no arguments of its own (`remit users`) needs one
    cmd.commands.length && !cmd.registeredArguments.length ? HELP.commandPlaceholder : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function optionDescription(option: Option): string {
  const extras: string[] = [];
  if (option.argChoices) extras.push(HELP.choices(option.argChoices));
  if (option.defaultValue !== undefined && option.defaultValue !== false && !option.negate) {
    extras.push(HELP.defaultValue(option.defaultValueDescription ?? String(option.defaultValue)));
  }
  if (option.envVar !== undefined) extras.push(HELP.envVar(option.envVar));
  return HELP.extras(option.description, extras);
}

/** Punctuation that never starts a line (it closes what came before). */
const CLOSING = /^[，。、；：）」』！？…]/;

/**
 * Wraps to `width` columns as Chinese is written: between Chinese characters or at spaces, never inside an ASCII word
 * nor before closing punctuation (commander's own wrapping breaks at spaces only, which Chinese has none of).
 */
export function boxWrap(str: string, width: number): string {
  if (width < 40) return str;
  return str
    .split('\n')
    .map((line) => {
      const chunks = line.match(/\s*(?:[\x21-\x7e]+|\S)/gu) ?? [];
      const lines: string[] = [];
      let current: string[] = [];
      for (const chunk of chunks) {
        if (current.length && displayWidth(current.join('') + chunk) > width) {
          // closing punctuation takes the chunk before it to the next line
          const carried = CLOSING.test(chunk.trimStart()) && current.length > 1 ? current.pop()! : '';
          lines.push(current.join(''));
          current = [carried.trimStart() || chunk.trimStart(), ...(carried ? [chunk] : [])].filter(Boolean);
        } else current.push(chunk);
      }
      lines.push(current.join(''));
      return lines.join('\n');
    })
    .join('\n');
}

function formatHelp(cmd: Command, helper: Help): string {
  const termWidth = helper.padWidth(cmd, helper);
  const helpWidth = helper.helpWidth ?? 80;
  const item = (term: string, description: string) => helper.formatItem(term, termWidth, description, helper);
  const section = (title: string, items: string[]) => (items.length ? [title, ...items, ''] : []);
  const out = [`${HELP.usage}${helper.commandUsage(cmd)}`, ''];
  const description = helper.commandDescription(cmd);
  if (description) out.push(helper.boxWrap(description, helpWidth), '');
  out.push(
    ...section(
      HELP.arguments,
      helper.visibleArguments(cmd).map((a) => item(helper.argumentTerm(a), helper.argumentDescription(a))),
    ),
  );
  out.push(
    ...section(
      HELP.options,
      helper.visibleOptions(cmd).map((o) => item(helper.optionTerm(o), helper.optionDescription(o))),
    ),
  );
  out.push(
    ...section(
      HELP.globalOptions,
      helper.visibleGlobalOptions(cmd).map((o) => item(helper.optionTerm(o), helper.optionDescription(o))),
    ),
  );
  out.push(
    ...section(
      HELP.commands,
      helper.visibleCommands(cmd).map((c) => item(helper.subcommandTerm(c), helper.subcommandDescription(c))),
    ),
  );
  return out.join('\n');
}

function usageMessage(cmd: Command, err: CommanderError): string {
  const path = commandPath(cmd);
  const known: Option[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) known.push(...c.options);
  // the option commander's message names
  const named = known.filter((o) => err.message.includes(`'${o.flags}'`));
  // commander's own guess at a typo, said in English after its message
  const nearest = /\(Did you mean (\S+?)\?\)/.exec(err.message)?.[1];
  switch (err.code) {
    case 'commander.unknownCommand':
      return USAGE.unknownCommand(
        cmd.args[0] ?? '',
        cmd.commands.map((c) => c.name()),
        nearest,
      );
    case 'commander.unknownOption': {
      // commander puts the first unknown option and what follows it after the operands
      const flag = cmd.args.find((a) => a.startsWith('-') && a !== '-' && a !== '--');
      return flag ? USAGE.unknownOption(flag, nearest) : USAGE.unknownOptionUnnamed;
    }
    case 'commander.missingArgument': {
      const missing = cmd.registeredArguments.find((a, i) => a.required && cmd.args[i] === undefined);
      return missing ? USAGE.missingArgument(argText(missing), missing.description) : USAGE.unknownUsage;
    }
    case 'commander.optionMissingArgument':
      return named[0] ? USAGE.optionValueMissing(named[0].flags) : USAGE.optionValueMissingUnnamed;
    case 'commander.missingMandatoryOptionValue': {
      const missing = cmd.options.filter((o) => o.mandatory && cmd.getOptionValue(o.attributeName()) === undefined);
      return USAGE.mandatoryOption(missing.map((o) => o.flags));
    }
    case 'commander.excessArguments': {
      const expected = cmd.registeredArguments.length;
      return expected ? USAGE.tooManyArguments(path, expected, cmd.args.length) : USAGE.excessArguments(path, cmd.args);
    }
    case 'commander.invalidArgument':
      return named[0] ? USAGE.invalidValue(named[0].flags, named[0].argChoices) : USAGE.invalidValueUnnamed;
    case 'commander.conflictingOption':
      return named.length === 2 ? USAGE.conflicting(named.map((o) => o.long ?? o.flags)) : USAGE.unknownUsage;
    default:
      return USAGE.unknownUsage;
  }
}

/** Help and usage errors in Chinese for `cmd` and every command under it; run once the tree is built. */
export function localizeTree(cmd: Command): Command {
  cmd
    .configureHelp({
      formatHelp,
      displayWidth,
      boxWrap,
      showGlobalOptions: true,
      commandUsage: (c) => [commandPath(c), commandArgs(c)].filter(Boolean).join(' '),
      subcommandTerm: (c) => [c.name(), commandArgs(c)].filter(Boolean).join(' '),
      optionDescription,
      argumentTerm: argText,
    })
    // errors are said once, in Chinese, by the error handler; help goes where it was asked for
    .configureOutput({ outputError: () => {} })
    .showHelpAfterError(false)
    .helpOption(HELP.helpFlags, HELP.helpOption)
    .exitOverride((err) => {
      // help and the version pass through (commander.help: a command given without its subcommand)
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        throw err;
      throw new UsageError(`${usageMessage(cmd, err)}\n${USAGE.seeHelp(commandPath(cmd))}`);
    });
  if (cmd.commands.length) cmd.helpCommand(HELP.helpCommand, HELP.helpCommandDescription);
  else cmd.helpCommand(false);
  for (const sub of cmd.commands) localizeTree(sub);
  return cmd;
}
