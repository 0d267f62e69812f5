/**
 * A generated stretch of reports and one statement holding its credits (bench/reconcile-data.ts,
 * the sweep's own generator), written straight into a test database for one store: enough data
 * that matching takes a noticeable time, without going through the import.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { generate } from './reconcile-data.js';

export async function seedReconcile(
  db: Knex,
  opts: { storeId: number; months: number; seed?: number; tag?: string },
): Promise<{ reports: number; lines: number; from: number; to: number }> {
  const g = generate({ months: opts.months, seed: opts.seed ?? 2026 });
  const tag = opts.tag ?? 'y';
  const now = Date.now();
  const ats = g.lines.map((l) => l.at);
  await db.transaction(async (trx) => {
    const payments = g.reports.map((r) => ({
      uuid: `${tag}-${r.uuid}`,
      store_id: opts.storeId,
      last_five: r.last_five,
      paid_at: r.paid_at,
      amount: r.amount,
      status: '未確認',
      note: r.note,
      created_by: null,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < payments.length; i += 500) await trx('payments').insert(payments.slice(i, i + 500));
    const [st] = await trx('bank_statements')
      .insert({
        file: `${tag}.csv`,
        imported_by: null,
        store_id: opts.storeId,
        account: null,
        encoding: 'utf-8',
        columns: '{}',
        period_from: null,
        period_to: null,
        lines: g.lines.length,
        new_lines: g.lines.length,
        balance_breaks: 0,
        created_at: now,
      })
      .returning('id');
    const statementId = Number(typeof st === 'object' ? st.id : st);
    const lines = g.lines.map((l, i) => ({
      statement_id: statementId,
      row: i + 2,
      at: l.at,
      has_time: l.hasTime,
      amount: l.amount,
      balance: null,
      summary: l.summary,
      note: l.note,
      counterparty: '',
      digits: l.digits.slice(-8),
      payer: l.payer ?? '',
      fingerprint: createHash('sha256').update(`${tag}#${i}`).digest('hex'),
    }));
    for (let i = 0; i < lines.length; i += 500) await trx('bank_lines').insert(lines.slice(i, i + 500));
  });
  return { reports: g.reports.length, lines: g.lines.length, from: Math.min(...ats), to: Math.max(...ats) };
}
