/**
 * A flag given with an empty value (`--store ''`, `--status ,`) is refused as wrong usage (exit 2)
 * for every option that takes one: in a cron script an unset $STORE turned a per-store export
 * into one of every store. The few options where "" means "clear the list" say so and are let through.
 */
import type { Command } from 'commander';
import { UsageError } from './errors.js';
import { USAGE } from './messages.js';

const allowed = new WeakMap<Command, Set<string>>();

/** Lets these options of `cmd` take "" (documented in their help as clearing). */
export function allowEmptyValue(cmd: Command, ...flags: string[]): Command {
  allowed.set(cmd, new Set([...(allowed.get(cmd) ?? []), ...flags]));
  return cmd;
}

/** Nothing but spaces and commas: no value at all. */
const blank = (v: string) => v.replace(/[\s,，、]/g, '') === '';

/** Refuses an empty value typed for any option of `cmd` or the commands above it (--db). */
export function refuseEmptyValues(cmd: Command): void {
  for (let c: Command | null = cmd; c; c = c.parent) {
    for (const o of c.options) {
      if (!o.required && !o.optional) continue; // a switch takes no value
      const key = o.attributeName();
      if (c.getOptionValueSource(key) !== 'cli' || allowed.get(c)?.has(o.long ?? '')) continue;
      const value = c.getOptionValue(key) as unknown;
      if (typeof value === 'string' && blank(value)) throw new UsageError(USAGE.emptyValue(o.long ?? o.flags));
    }
  }
}
