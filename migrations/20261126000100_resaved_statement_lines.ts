import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * A statement re-saved by a spreadsheet program is the statement already imported: a line's
 * fingerprint now reads its texts the way core/reconcile/fingerprint.ts did when this was written
 * (full-width as half-width, white space as one, runs of digits without leading zeros), and a
 * whole account as a payer loses its leading zeros (payerKey). This recomputes both for
 * the lines and payer memory already stored, so that a re-saved copy of an old download adds
 * nothing either.
 *
 * Equal lines are numbered across the whole table, oldest statement first, as the import numbers
 * them within one file: the `n`th stored line with a key gets `#n`, so no two lines can collide. A
 * line whose counterparty filled its 255 characters may have been cut when stored: it keeps the
 * fingerprint it has. Payer memory that becomes a second copy of a fact already held (the same
 * store, payer and last five) is dropped, the older copy kept.
 *
 * Down leaves the fingerprints and payers as they are: they are valid for the code before it,
 * which only fails to recognise re-saved copies, as it always did.
 */
// Copies of core's rules as they stood: a migration is history and must not change with core.
const accountKey = (account: string) =>
  account
    .normalize('NFKC')
    .replace(/[\s\u3000\-－‐–—.．]/g, '')
    .toUpperCase();
const payerKey = (account: string) => (/^\d+$/.test(account) ? account.replace(/^0+(?=\d)/, '') : account);
const fingerprintText = (s: string) =>
  s
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\d+/g, (run) => run.replace(/^0+(?=\d)/, ''));
interface FingerprintedLine {
  at: number;
  amount: number;
  balance: number | null;
  summary: string;
  note: string;
  counterparty: string;
}
function fingerprintKey(line: FingerprintedLine, account: string | null): string {
  const source = account === null ? [] : [accountKey(account)];
  return JSON.stringify([
    ...source,
    line.at,
    line.amount,
    line.balance,
    fingerprintText(line.summary),
    fingerprintText(line.note),
    fingerprintText(line.counterparty),
  ]);
}
const fingerprintOf = (key: string, n: number) => createHash('sha256').update(`${key}#${n}`).digest('hex');

export async function up(knex: Knex): Promise<void> {
  const accounts = new Map<number, string | null>();
  for (const s of (await knex('bank_statements').select('id', 'account')) as Array<{
    id: number | string;
    account: string | null;
  }>)
    accounts.set(Number(s.id), s.account);

  const seen = new Map<string, number>();
  const changed: Array<{ id: number; fingerprint: string; payer: string }> = [];
  const PAGE = 2_000;
  let after = { statement: -1, row: -1, id: -1 };
  for (;;) {
    const page = (await knex('bank_lines')
      .select(
        'id',
        'statement_id',
        'row',
        'at',
        'amount',
        'balance',
        'summary',
        'note',
        'counterparty',
        'payer',
        'fingerprint',
      )
      .whereRaw('(statement_id, row, id) > (?, ?, ?)', [after.statement, after.row, after.id])
      .orderBy([{ column: 'statement_id' }, { column: 'row' }, { column: 'id' }])
      .limit(PAGE)) as Array<Record<string, unknown>>;
    if (page.length === 0) break;
    for (const l of page) {
      const num = (k: string) => (l[k] === null || l[k] === undefined ? null : Number(l[k]));
      const counterparty = String(l.counterparty ?? '');
      const line = {
        at: num('at')!,
        amount: num('amount')!,
        balance: num('balance'),
        summary: String(l.summary ?? ''),
        note: String(l.note ?? ''),
        counterparty,
      };
      const key = fingerprintKey(line, accounts.get(Number(l.statement_id)) ?? null);
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      const fingerprint = counterparty.length >= 255 ? String(l.fingerprint) : fingerprintOf(key, n);
      const payer = payerKey(String(l.payer ?? ''));
      if (fingerprint !== l.fingerprint || payer !== l.payer) changed.push({ id: Number(l.id), fingerprint, payer });
    }
    const last = page[page.length - 1];
    after = { statement: Number(last.statement_id), row: Number(last.row), id: Number(last.id) };
  }
  // Two steps, so that a new fingerprint never meets an old one still held by another line.
  for (const c of changed)
    await knex('bank_lines')
      .where({ id: c.id })
      .update({ fingerprint: `moving:${c.id}` });
  for (const c of changed)
    await knex('bank_lines').where({ id: c.id }).update({ fingerprint: c.fingerprint, payer: c.payer });

  const facts = (await knex('reconcile_payers').select('id', 'store_id', 'payer', 'last_five').orderBy('id')) as Array<{
    id: number | string;
    store_id: number | string;
    payer: string;
    last_five: string;
  }>;
  const held = new Set(facts.map((f) => `${f.store_id}|${f.payer}|${f.last_five}`));
  for (const f of facts) {
    const payer = payerKey(f.payer);
    if (payer === f.payer) continue;
    const fact = `${f.store_id}|${payer}|${f.last_five}`;
    if (held.has(fact)) await knex('reconcile_payers').where({ id: f.id }).delete();
    else {
      await knex('reconcile_payers').where({ id: f.id }).update({ payer });
      held.add(fact);
    }
  }
}

export async function down(): Promise<void> {
  // See above: nothing to undo.
}
