import type { Knex } from 'knex';

/**
 * Four grants for what moves money, which used to ride on other keys: recording takings other
 * than a transfer report, recording cash out, closing a day, and confirming against the bank.
 * No account gains anything and nobody is locked out of what they did: an account that could
 * edit payments (and so close and confirm) gets all four; one that could import payments (and so
 * bring in cash rows) gets the two that record; every other account had no business with the
 * drawer and gets none. Admins hold every key, as always.
 */
const ALL_FOUR = ['record_takings', 'record_cash_out', 'close_day', 'confirm_payments'];
const RECORDING = ['record_takings', 'record_cash_out'];

function granted(role: string, held: string[]): string[] {
  if (role === 'admin' || held.includes('edit_payments')) return ALL_FOUR;
  if (held.includes('manage_payments')) return RECORDING;
  return [];
}

function parse(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

async function rewrite(knex: Knex, next: (role: string, held: string[]) => string[]): Promise<void> {
  const users = (await knex('users').select('id', 'role', 'permissions')) as Array<{
    id: number;
    role: string;
    permissions: string;
  }>;
  for (const u of users) {
    const held = parse(u.permissions);
    const after = next(u.role, held);
    if (after.length !== held.length || after.some((k, i) => k !== held[i]))
      await knex('users')
        .where({ id: u.id })
        .update({ permissions: JSON.stringify(after) });
  }
}

export async function up(knex: Knex): Promise<void> {
  await rewrite(knex, (role, held) => [...held, ...granted(role, held).filter((k) => !held.includes(k))]);
}

export async function down(knex: Knex): Promise<void> {
  await rewrite(knex, (_role, held) => held.filter((k) => !ALL_FOUR.includes(k)));
}
