/** An empty flag value is wrong usage: an unset $STORE in a cron script would widen a store's export to all stores. */
import type { Command } from 'commander';
import { UsageError } from './errors.js';
import { USAGE } from './messages.js';

const allowed = new WeakMap<Command, Set<string>>();

/** Lets these options of `cmd` take "" (documented in their help as clearing). */
export function allowEmptyValue(cmd: Command, ...flags: string[]): Command {
  allowed.set(cmd, new Set([...(allowed.get(cmd) ?? []), ...flags]));
  return cmd;
}

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
