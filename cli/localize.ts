/**
 * commander speaks English; the people running remit read Traditional Chinese. Help headings
 * are restyled and commander's usage errors translated on their way to stderr.
 */
import type { Command, Option } from 'commander';

const TITLES: Record<string, string> = {
  'Usage:': '用法：',
  'Options:': '選項：',
  'Commands:': '指令：',
  'Arguments:': '參數：',
  'Global Options:': '共用選項：',
};

const ERRORS: Array<[RegExp, (...m: string[]) => string]> = [
  [/^error: required option '(.+)' not specified/, (f) => `錯誤：缺少必要選項 ${f}`],
  [/^error: missing required argument '(.+)'/, (a) => `錯誤：缺少參數 <${a}>`],
  [/^error: option '(.+)' argument missing/, (f) => `錯誤：選項 ${f} 需要一個值`],
  [/^error: unknown option '([^']+)'(?:\s*\(Did you mean (.+)\?\))?/, (f, s) => `錯誤：未知的選項 ${f}${s ? `（是否要用 ${s}？）` : ''}`],
  [/^error: unknown command '([^']+)'(?:\s*\(Did you mean (.+)\?\))?/, (c, s) => `錯誤：未知的指令 ${c}${s ? `（是否要用 ${s}？）` : ''}`],
  [/^error: too many arguments.*/, () => '錯誤：參數過多'],
];

export function translateError(text: string): string {
  for (const [re, fn] of ERRORS) {
    const m = re.exec(text);
    if (m) return `${fn(...m.slice(1))}\n`;
  }
  return text;
}

/** Chinese help headings and help option texts for a command and, by the caller, its subcommands. */
export function localize(cmd: Command): Command {
  return cmd
    .configureHelp({
      styleTitle: (title: string) => TITLES[title] ?? title,
      styleUsage: (usage: string) => usage.replace('[options]', '[選項]').replace('[command]', '[指令]'),
      optionDescription,
    })
    .helpOption('-h, --help', '顯示說明')
    .helpCommand('help [command]', '顯示指令的說明');
}

/** An option's text with its default said in Chinese, where commander would write `(default: "user")`. */
function optionDescription(option: Option): string {
  const extras: string[] = [];
  if (option.argChoices) extras.push(`可選：${option.argChoices.join('、')}`);
  if (option.defaultValue !== undefined && option.defaultValue !== false) extras.push(`預設 ${option.defaultValueDescription ?? String(option.defaultValue)}`);
  if (option.envVar !== undefined) extras.push(`環境變數 ${option.envVar}`);
  return extras.length ? `${option.description}（${extras.join('；')}）` : option.description;
}
