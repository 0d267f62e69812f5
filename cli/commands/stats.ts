import type { Command } from 'commander';
import { formatNTD, STATS_FIELD_LABELS, statsSummary } from '../../core/index.js';
import { withOperator, type CliIO } from '../context.js';
import { checkDateFlags } from '../dateFlags.js';
import { examples } from '../input.js';
import { STATS } from '../messages.js';
import { renderPairs, renderTable } from '../table.js';
import { codeList, storeIdsFromFlag } from '../storeCodes.js';

type Opts = { store?: string; from?: string; to?: string; json?: boolean };

export function statsCommand(program: Command, io: CliIO): void {
  program
    .command('stats')
    .description('統計儀表板：總數與各分店的收款筆數、金額與狀態')
    .option('--store <codes>', '只統計這些分店，代碼以逗號分隔；不填為全部分店')
    .option('--from <date>', '起始日期 YYYY-MM-DD（台灣時間，含當天）')
    .option('--to <date>', '結束日期 YYYY-MM-DD（台灣時間，含當天）')
    .option('--json', '以 JSON 輸出')
    .addHelpText(
      'after',
      examples('remit stats', 'remit stats --store TPE,TXG --from 2026-11-01 --to 2026-11-30', 'remit stats --json'),
    )
    .action(async (opts: Opts, cmd: Command) => {
      checkDateFlags(['--from', opts.from], ['--to', opts.to]);
      const summary = await withOperator(io, cmd.optsWithGlobals(), async (ctx) => {
        const codes = codeList(opts.store);
        const storeIds = codes.length ? await storeIdsFromFlag(ctx, codes) : undefined;
        return statsSummary(ctx, { store_id: storeIds, from: opts.from, to: opts.to });
      });
      if (opts.json) return io.stdout(`${JSON.stringify(summary)}\n`);
      const range = STATS.period(opts.from, opts.to);
      const totals = renderPairs([
        [STATS_FIELD_LABELS.totalStores, summary.totalStores],
        [STATS_FIELD_LABELS.totalPayments, summary.totalPayments],
        [STATS_FIELD_LABELS.totalAmount, formatNTD(summary.totalAmount)],
        [STATS_FIELD_LABELS.confirmedPayments, summary.confirmedPayments],
      ]);
      const rows = summary.storeStats.map((s) => [
        s.store_code,
        s.store_name,
        s.total_payments,
        formatNTD(s.total_amount),
        s.confirmed_payments,
        s.pending_payments,
        s.failed_payments,
      ]);
      const table = rows.length
        ? renderTable([...STATS.columns], rows, { right: [2, 3, 4, 5, 6] })
        : `${STATS.noStores}\n`;
      io.stdout(`${range}${totals}\n${table}`);
    });
}
