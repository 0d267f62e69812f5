import type { Command } from 'commander';
import {
  auditActionLabel,
  auditEntityLabel,
  auditSummaryText,
  formatTaipei,
  listAudit,
  storeDirectory,
  type AuditEntry,
  type AuditStoreLookup,
} from '../../core/index.js';
import { auditActorText } from '../../core/audit/text.js';
import { withOperator, type CliIO } from '../context.js';
import { checkDateFlags } from '../dateFlags.js';
import { UsageError } from '../errors.js';
import { examples } from '../input.js';
import { AUDIT } from '../messages.js';
import { renderTable } from '../table.js';

type Opts = { since?: string; until?: string; user?: string; json?: boolean; limit?: string };

/** The entry in words (the back office's 稽核紀錄 says the same), cut to fit a terminal line. */
function summary(e: AuditEntry, stores: AuditStoreLookup): string {
  const text = auditSummaryText(e, stores);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function cells(e: AuditEntry, stores: AuditStoreLookup): string[] {
  return [
    formatTaipei(Date.parse(e.at), { seconds: true }),
    auditActorText(e),
    auditActionLabel(e.action),
    auditEntityLabel(e.entity),
    e.entity_id ?? '',
    e.ip ?? '',
    summary(e, stores),
  ];
}

export function auditCommand(program: Command, io: CliIO): void {
  program
    .command('audit')
    .description('查看稽核紀錄（新增、修改、刪除、匯入、登入與帳戶變更），新的在前')
    .option('--since <date>', '只列出此日期（台灣時間 YYYY-MM-DD）起的紀錄')
    .option('--until <date>', '只列出到此日期（台灣時間 YYYY-MM-DD，含當天）為止的紀錄')
    .option('--user <username>', '只列出此用戶的操作')
    .option('--limit <n>', '最多列出幾筆', '1000')
    .option('--json', '以 JSON 輸出，每行一筆（含修改前後的完整內容）')
    .addHelpText(
      'after',
      examples(
        'remit audit --since 2026-11-01',
        'remit audit --since 2026-11-01 --until 2026-11-30',
        'remit audit --user boss',
        'remit audit --since 2026-11-01 --limit 10000 --json > audit.jsonl   # 超過上限時在標準錯誤輸出說明',
      ),
    )
    .action(async (opts: Opts, cmd: Command) => {
      checkDateFlags(['--since', opts.since], ['--until', opts.until]);
      const limit = Number(opts.limit);
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError(AUDIT.badLimit);
      const filter: Record<string, unknown> = {};
      if (opts.since) filter.at_gte = opts.since;
      if (opts.until) filter.at_lte = opts.until;
      if (opts.user) filter.actor_username = opts.user;
      const { rows, total, directory } = await withOperator(io, cmd.optsWithGlobals(), async (ctx) => ({
        ...(await listAudit(ctx, { filter, range: [0, limit - 1] })),
        directory: opts.json ? [] : await storeDirectory(ctx),
      }));
      // --json stays as stored: machine-readable, UTC, keys; a list cut at --limit is said on
      // stderr, as the table says it, so `--json > audit.jsonl` never loses entries unknowingly
      if (opts.json) {
        io.stdout(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
        if (total > rows.length) io.stderr(`${AUDIT.more(total, rows.length)}\n`);
        return;
      }
      if (!rows.length) return io.stdout(`${AUDIT.none}\n`);
      const stores: AuditStoreLookup = (id) => directory.find((s) => s.id === id);
      io.stdout(
        renderTable(
          [...AUDIT.columns],
          rows.map((r) => cells(r, stores)),
        ),
      );
      if (total > rows.length) io.stdout(`${AUDIT.more(total, rows.length)}\n`);
    });
}
