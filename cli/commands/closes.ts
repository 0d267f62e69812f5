/** The daily close from the command line, for ops and cron: `remit close`, `cash-out`, `closes` and `day`. */
import type { Command } from 'commander';
import {
  boardRows,
  closeDay,
  closesBoard,
  formatNTD,
  getDay,
  parseInstant,
  principalByUsername,
  recordCashOut,
  taipeiDate,
  type ServiceContext,
} from '../../core/index.js';
import { CLOSE_FIELD_LABELS as L, CLOSE_STATUS_LABELS, storeLabel } from '../../core/labels.js';
import { CASH_OUT_KINDS, METHOD_ORDER } from '../../core/closes/rules.js';
import { formatTaipei } from '../../core/time.js';
import { actorNameText } from '../../core/audit/text.js';
import { withOperator, type CliIO, type GlobalOptions } from '../context.js';
import { checkDateFlags } from '../dateFlags.js';
import { flagValuesAsUsage, UsageError } from '../errors.js';
import { examples } from '../input.js';
import { CLOSES } from '../messages.js';
import { codeList, storeIdsFromFlag } from '../storeCodes.js';
import { renderPairs, renderTable } from '../table.js';

/** A whole NT$ flag (digits, thousands commas allowed): anything else is a usage error (exit 2). */
function amountFlag(flag: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (!/^\d{1,3}(,?\d{3})*$|^\d+$/.test(v.trim())) throw new UsageError(CLOSES.badAmount(flag, v));
  return v.trim();
}

function dateFlag(v: string | undefined): string {
  if (!v) throw new UsageError(CLOSES.dateRequired);
  checkDateFlags(['--date', v], ['--date', v]);
  return v;
}

/** Runs `fn` as the operator, or as `--as` user with their permissions and stores; the store code to its id. */
async function asStore<T>(
  io: CliIO,
  cmd: Command,
  code: string,
  as: string | undefined,
  fn: (ctx: ServiceContext, storeId: number) => Promise<T>,
): Promise<T> {
  return withOperator(io, cmd.optsWithGlobals() as GlobalOptions, async (operator) => {
    const [storeId] = await storeIdsFromFlag(operator, [code]);
    const ctx = as ? { ...operator, actor: await principalByUsername(operator.db, as) } : operator;
    return fn(ctx, storeId);
  });
}

const signed = (n: number) => (n > 0 ? `+${formatNTD(n)}` : formatNTD(n));
const money = (n: number | null) => (n === null ? CLOSES.unknown : formatNTD(n));

export function closeCommand(program: Command, io: CliIO): void {
  program
    .command('close')
    .description('日結：結算一家分店一天的現金（開帳＋現金收入－店內支出－提領＝應有現金），記錄點收現金與短溢')
    .argument('<code>', '分店代碼')
    .option('--date <date>', '營業日期 YYYY-MM-DD（台灣時間）')
    .option('--counted <n>', '點收現金：抽屜裡實際的現金（新台幣元）')
    .option('--opening <n>', '開帳現金：只在本店第一次日結時填寫，之後沿用前一次日結的點收現金')
    .option('--note <text>', '備註')
    .option('--as <username>', '以此用戶的身分與權限結帳（記錄為結帳者）')
    .option('--json', '以 JSON 輸出')
    .addHelpText(
      'after',
      examples(
        'remit close TPE --date 2026-11-20 --counted 5300',
        'remit close TPE --date 2026-11-01 --counted 5300 --opening 5000 --note 第一次日結',
        'remit close TXG --date 2026-11-20 --counted 8000 --json',
      ),
    )
    .action(
      async (
        code: string,
        opts: { date?: string; counted?: string; opening?: string; note?: string; as?: string; json?: boolean },
        cmd: Command,
      ) => {
        const date = dateFlag(opts.date);
        const counted = amountFlag('--counted', opts.counted);
        if (counted === undefined) throw new UsageError(CLOSES.amountRequired('--counted'));
        const opening = amountFlag('--opening', opts.opening);
        const c = await flagValuesAsUsage(
          ['counted', 'opening'],
          () =>
            asStore(io, cmd, code, opts.as, (ctx, store_id) =>
              closeDay(ctx, { store_id, date, counted, opening, note: opts.note }),
            ),
          ['close_opening_required', 'close_opening_differs'],
        );
        if (opts.json) {
          const out = {
            store: c.store_code,
            date: c.date,
            opening: c.opening,
            cash_in: c.cash_in,
            cash_out: c.cash_out,
            expected: c.expected,
            counted: c.counted,
            difference: c.difference,
            by_method: c.by_method,
          };
          return io.stdout(`${JSON.stringify(out)}\n`);
        }
        io.stdout(
          `${CLOSES.closed(storeLabel({ name: c.store_name, code: c.store_code }), c.date)}\n` +
            renderPairs([
              [L.opening, formatNTD(c.opening)],
              ...METHOD_ORDER.map((m): [string, string] => [m, formatNTD(c.by_method[m] ?? 0)]),
              [L.cash_in, formatNTD(c.cash_in)],
              [L.cash_out, formatNTD(c.cash_out)],
              [L.expected, formatNTD(c.expected)],
              [L.counted, formatNTD(c.counted)],
              [L.difference, signed(c.difference)],
            ]),
        );
      },
    );
}

export function cashOutCommand(program: Command, io: CliIO): void {
  program
    .command('cash-out')
    .description('記錄從抽屜拿出的現金：店內支出（項目與備註）或 提領（存入銀行或交回總部）')
    .argument('<code>', '分店代碼')
    .option('--amount <n>', '金額（新台幣元）')
    .option('--kind <kind>', '店內支出 或 提領')
    .option('--category <text>', '店內支出的項目（雜支、文具用品、清潔用品…）', '雜支')
    .option('--note <text>', '備註')
    .option('--at <time>', '時間（台灣時間，預設現在；寫法見範例）')
    .option('--as <username>', '以此用戶的身分與權限記錄')
    .option('--json', '以 JSON 輸出')
    .addHelpText(
      'after',
      examples(
        'remit cash-out TPE --amount 300 --kind 店內支出 --category 清潔用品 --note 垃圾袋',
        'remit cash-out TPE --amount 20000 --kind 提領 --note 存入台銀 --at 2026-11-20T18:00',
      ),
    )
    .action(
      async (
        code: string,
        opts: {
          amount?: string;
          kind?: string;
          category?: string;
          note?: string;
          at?: string;
          as?: string;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        const amount = amountFlag('--amount', opts.amount);
        if (amount === undefined) throw new UsageError(CLOSES.amountRequired('--amount'));
        if (!opts.kind || !(CASH_OUT_KINDS as readonly string[]).includes(opts.kind))
          throw new UsageError(CLOSES.badKind(opts.kind ?? ''));
        if (opts.at !== undefined && parseInstant(opts.at) === null) throw new UsageError(CLOSES.badTime(opts.at));
        const entry = await flagValuesAsUsage(['amount'], () =>
          asStore(io, cmd, code, opts.as, (ctx, store_id) =>
            recordCashOut(ctx, {
              store_id,
              amount,
              kind: opts.kind,
              category: opts.kind === '提領' ? undefined : opts.category,
              note: opts.note,
              at: opts.at,
            }),
          ),
        );
        if (opts.json) return io.stdout(`${JSON.stringify(entry)}\n`);
        const what = entry.category ? `${entry.kind}（${entry.category}）` : entry.kind;
        io.stdout(
          `${CLOSES.cashOutRecorded(code, what, formatNTD(entry.amount), formatTaipei(Date.parse(entry.at)))}${entry.after_close ? CLOSES.afterClose : ''}\n`,
        );
      },
    );
}

export function closesCommand(program: Command, io: CliIO): void {
  program
    .command('closes')
    .description('日結總覽：各分店每一天的狀態（已結帳、未結帳）、應有現金、點收現金與短溢，以及各付款方式合計')
    .option('--from <date>', '起始日期 YYYY-MM-DD（台灣時間，含當天；預設 --to 的前 6 天）')
    .option('--to <date>', '結束日期 YYYY-MM-DD（台灣時間，含當天；預設今天）')
    .option('--store <codes>', '只看這些分店，代碼以逗號分隔；不填為全部分店')
    .option('--json', '以 JSON 輸出（每一列一家分店的一天）')
    .addHelpText(
      'after',
      examples(
        'remit closes --from 2026-11-01 --to 2026-11-30',
        'remit closes --from 2026-11-20 --to 2026-11-20 --store TPE,TXG --json',
      ),
    )
    .action(async (opts: { from?: string; to?: string; store?: string; json?: boolean }, cmd: Command) => {
      checkDateFlags(['--from', opts.from], ['--to', opts.to]);
      const board = await flagValuesAsUsage(['from', 'to'], () =>
        withOperator(io, cmd.optsWithGlobals() as GlobalOptions, async (ctx) => {
          const codes = codeList(opts.store);
          const store_id = codes.length ? await storeIdsFromFlag(ctx, codes) : undefined;
          return closesBoard(ctx, { from: opts.from, to: opts.to, store_id });
        }),
      );
      const rows = boardRows(board);
      if (opts.json) {
        const out = rows.map((r) => ({
          store: r.store,
          date: r.date,
          status: r.status,
          expected: r.expected,
          counted: r.counted,
          difference: r.difference,
          cash_in: r.cash_in,
          cash_out: r.cash_out,
          late_changes: r.late_changes,
        }));
        return io.stdout(`${JSON.stringify(out)}\n`);
      }
      if (!board.stores.length) return io.stdout(`${CLOSES.noStores}\n`);
      const table = renderTable(
        [...CLOSES.boardColumns],
        rows.map((r) => [
          r.store,
          r.date,
          CLOSE_STATUS_LABELS[r.status],
          formatNTD(r.cash_in),
          formatNTD(r.cash_out),
          money(r.expected),
          money(r.counted),
          r.difference === null ? CLOSES.unknown : signed(r.difference),
          r.late_changes || '',
        ]),
        { right: [3, 4, 5, 6, 7, 8] },
      );
      const totals = renderPairs(METHOD_ORDER.map((m) => [m, formatNTD(board.by_method[m] ?? 0)]));
      io.stdout(`${CLOSES.period(board.from, board.to)}${table}\n${CLOSES.totals}\n${totals}`);
    });
}

export function dayCommand(program: Command, io: CliIO): void {
  program
    .command('day')
    .description('一家分店一天的收支：每一筆（付款方式、店內支出、提領）與現金結餘，以及日結狀態')
    .argument('<code>', '分店代碼')
    .option('--date <date>', '營業日期 YYYY-MM-DD（台灣時間，預設今天）')
    .option('--json', '以 JSON 輸出')
    .addHelpText('after', examples('remit day TPE --date 2026-11-20', 'remit day TPE --json'))
    .action(async (code: string, opts: { date?: string; json?: boolean }, cmd: Command) => {
      const date = dateFlag(opts.date ?? taipeiDate(Date.now()));
      const day = await asStore(io, cmd, code, undefined, (ctx, store_id) => getDay(ctx, { store_id, date }));
      if (opts.json) return io.stdout(`${JSON.stringify(day)}\n`);
      const f = day.figures;
      const head = `${storeLabel(day.store)} ${day.date}　${CLOSES.status(CLOSE_STATUS_LABELS[day.status])}\n${f.opening === null ? CLOSES.noOpening : CLOSES.opening(formatNTD(f.opening), day.opening_from)}\n\n`;
      const lines = day.lines.length
        ? renderTable(
            [...CLOSES.dayColumns],
            day.lines.map((l) => [
              formatTaipei(Date.parse(l.at)).slice(11),
              l.type === 'payment' ? CLOSES.income : CLOSES.expense,
              [l.method, l.method_detail, l.employee ? CLOSES.employee : ''].filter(Boolean).join(' '),
              l.category ?? '',
              formatNTD(l.amount),
              l.cash ? signed(l.cash) : '',
              money(l.running),
              l.note,
            ]),
            { right: [4, 5, 6] },
          )
        : `${CLOSES.noEntries}\n`;
      const pairs: Array<[string, string]> = [
        ...METHOD_ORDER.map((m): [string, string] => [m, formatNTD(f.by_method[m] ?? 0)]),
        [L.cash_in, formatNTD(f.cash_in)],
        [L.expense, formatNTD(f.expense)],
        [L.withdrawal, formatNTD(f.withdrawal)],
        [L.expected, money(f.expected)],
      ];
      const c = day.close;
      if (c) {
        pairs.push(
          [L.counted, formatNTD(c.counted)],
          [L.difference, signed(c.difference)],
          [L.closed_by, `${actorNameText(c.closed_by)}，${formatTaipei(Date.parse(c.closed_at))}`],
        );
        if (c.late_changes) pairs.push([L.late_changes, CLOSES.lateChanges(c.late_changes)]);
      }
      io.stdout(`${head}${lines}\n${renderPairs(pairs)}`);
    });
}
