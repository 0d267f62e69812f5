import { basename } from 'node:path';
import type { Command } from 'commander';
import {
  confirmPairs,
  EMPTY_REASON_TEXT,
  forgetPayer,
  formatNTD,
  formatTaipei,
  givenAccount,
  importStatement,
  listPayers,
  principalByUsername,
  storeDirectory,
  storeLabel,
  statementEncodingLabel,
  proposeMatches,
  readStatement,
  statementAccount,
  statementPeriod,
  type BankLine,
  type ImportedStatement,
  type Proposals,
  type RememberedPayer,
  type ServiceContext,
} from '../../core/index.js';
import { actorNameText } from '../../core/audit/text.js';
import { withOperator, type CliIO } from '../context.js';
import { checkDateFlags } from '../dateFlags.js';
import { EXIT } from '../errors.js';
import { readImportFile } from '../files.js';
import { storeIdsFromFlag } from '../storeCodes.js';
import { examples } from '../input.js';
import { RECONCILE } from '../messages.js';
import { renderTable } from '../table.js';

interface ReconcileOpts {
  store?: string;
  account?: string;
  from?: string;
  to?: string;
  as?: string;
  apply?: boolean;
  json?: boolean;
}

/** What was read from the statements, as the report and the JSON output show it. */
interface StatementSummary {
  files: string[];
  accounts: string[];
  lines: number;
  credits: number;
  new: number;
  duplicates: number;
  from: string;
  to: string;
  encoding: string;
  balance_breaks: number;
  skipped_rows: number;
}

/** A line as the JSON output names it: where it is in which file, when, how much. */
const lineRef = (l: BankLine) => ({ file: l.file, row: l.row, at: l.at, amount: l.amount });

export function reconcileCommand(program: Command, io: CliIO): void {
  const reconcile = program
    .command('reconcile')
    .description('對帳：匯入銀行交易明細（.csv、.xls、.xlsx），與匯款回報比對；不加 --apply 不會更改任何匯款')
    .argument('<files...>', '銀行匯出的交易明細檔案（可多個）')
    .option('--store <code>', '明細所屬分店代碼（預設：只能看到一家分店的 --as 用戶為該分店，否則全部分店）')
    .option('--account <account>', '明細所屬的銀行帳號（檔案標題列沒有「帳號：」時使用）')
    .option('--from <date>', '對帳期間起日 YYYY-MM-DD（預設：明細的第一天）')
    .option('--to <date>', '對帳期間迄日 YYYY-MM-DD（預設：明細的最後一天）')
    .option('--as <username>', '以此用戶的身分與權限執行')
    .option('--apply', '確認「建議入帳」的配對（設為已入帳並連結明細）')
    .option('--json', '以 JSON 輸出結果')
    .addHelpText(
      'after',
      examples(
        'remit reconcile 存款交易明細_202611.csv',
        'remit reconcile 11月.xlsx --store TPE --from 2026-11-01 --to 2026-11-30 --apply',
        'remit reconcile 11月.csv --store TPE --account 0123-456-789012',
        'remit reconcile payers --store TPE      # 已記住的付款人',
        'remit reconcile forget 12               # 忘記一筆已記住的付款人',
      ),
    )
    .action(async (files: string[], opts: ReconcileOpts, cmd: Command) => {
      checkDateFlags(['--from', opts.from], ['--to', opts.to]);
      const inputs = await readStatements(files, opts.account);
      process.exitCode = await withOperator(io, cmd.optsWithGlobals(), async (operator) => {
        await reconcileStatements(io, await actingAs(operator, opts.as), operator, inputs, opts);
        return EXIT.ok;
      });
    });

  payersCommand(reconcile, io);
  forgetCommand(reconcile, io);
}

/** Every file is read and checked before any is stored: a bad file writes nothing. */
async function readStatements(
  files: string[],
  account: string | undefined,
): Promise<Array<{ file: string; bytes: Uint8Array }>> {
  const inputs: Array<{ file: string; bytes: Uint8Array }> = [];
  const given = givenAccount(account);
  for (const path of files) {
    const bytes = await readImportFile(path);
    const read = readStatement(bytes, basename(path));
    // --account against a title row that names another account: refused before anything is stored
    statementAccount((read as { account?: string | null }).account, given);
    inputs.push({ file: basename(path), bytes });
  }
  return inputs;
}

/** Stores the statements, proposes the matches, confirms the sure ones with --apply, and reports. */
async function reconcileStatements(
  io: CliIO,
  ctx: ServiceContext,
  operator: ServiceContext,
  inputs: Array<{ file: string; bytes: Uint8Array }>,
  opts: ReconcileOpts,
): Promise<void> {
  const [storeId] = opts.store ? await storeIdsFromFlag(operator, [opts.store]) : [];
  const imported: ImportedStatement[] = [];
  for (const input of inputs) imported.push(await importStatement(ctx, { ...input, storeId, account: opts.account }));
  const period = statementPeriod(imported);
  const from = opts.from ?? period?.from ?? '';
  const to = opts.to ?? period?.to ?? '';
  const proposals = await proposeMatches(ctx, { from, to, storeId });
  const applied = opts.apply && proposals.auto.length ? await confirmAuto(ctx, proposals) : 0;
  const statement = summarize(imported, from, to);
  if (opts.json) io.stdout(`${JSON.stringify(reconcileJson(statement, proposals, applied), null, 2)}\n`);
  else printReport(io, statement, proposals, applied, Boolean(opts.apply));
}

/** Confirms every pair proposed for automatic confirmation; the number confirmed. */
async function confirmAuto(ctx: ServiceContext, proposals: Proposals): Promise<number> {
  const pairs = proposals.auto.map((a) => ({
    payment: a.payment.uuid,
    line: a.line.id,
    score: a.score,
    reasons: a.reasons,
  }));
  return (await confirmPairs(ctx, pairs, { auto: true })).confirmed;
}

function summarize(imported: ImportedStatement[], from: string, to: string): StatementSummary {
  return {
    files: imported.map((s) => s.file),
    accounts: [...new Set(imported.map((s) => s.account).filter((a): a is string => a !== null))],
    lines: sum(imported, 'lines'),
    credits: sum(imported, 'credits'),
    new: sum(imported, 'new'),
    duplicates: sum(imported, 'duplicates'),
    from,
    to,
    encoding: [...new Set(imported.map((s) => s.encoding))].join(','),
    balance_breaks: sum(imported, 'balance_breaks'),
    skipped_rows: sum(imported, 'skipped_rows'),
  };
}

function reconcileJson(statement: StatementSummary, proposals: Proposals, applied: number) {
  return {
    statement,
    auto: proposals.auto.map((a) => ({
      payment: a.payment.uuid,
      line: lineRef(a.line),
      score: a.score,
      reasons: a.reasons,
    })),
    review: proposals.review.map((r) => ({
      payment: r.payment.uuid,
      candidates: r.candidates.map((c) => ({ line: lineRef(c.line), score: c.score, reasons: c.reasons })),
    })),
    unpaid: proposals.unpaid.map((u) => ({ payment: u.payment.uuid })),
    unreported: proposals.unreported.map((u) => ({ line: lineRef(u.line) })),
    suggestions: proposals.suggestions.map((g) => ({
      payments: g.payments.map((x) => x.uuid),
      lines: g.lines.map(lineRef),
      reasons: g.reasons,
    })),
    applied,
    ...(proposals.empty ? { empty: proposals.empty } : {}),
  };
}

function payersCommand(reconcile: Command, io: CliIO): void {
  reconcile
    .command('payers')
    .description('已記住的付款人：確認過的對帳記住了付款人在對帳單上的樣子與回報的後五碼')
    .option('--store <code>', '只列出此分店（預設：可看到的全部分店）')
    .option('--as <username>', '以此用戶的身分與權限執行')
    .option('--json', '以 JSON 輸出')
    .addHelpText('after', examples('remit reconcile payers', 'remit reconcile payers --store TPE --json'))
    .action(async (_opts: unknown, cmd: Command) => {
      // `reconcile` itself takes --store, --as and --json too, and reads them before its subcommand: both count.
      const opts = cmd.optsWithGlobals<{ store?: string; as?: string; json?: boolean }>();
      const { rows, names } = await withOperator(io, cmd.optsWithGlobals(), async (operator) => {
        const ctx = await actingAs(operator, opts.as);
        const stores = opts.store ? await storeIdsFromFlag(operator, [opts.store]) : undefined;
        const all = await allPayers(ctx, stores);
        const directory = new Map((await storeDirectory(operator)).map((d) => [d.id, d]));
        return { rows: all, names: (id: number) => directory.get(id) };
      });
      if (opts.json) return io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
      if (!rows.length) return io.stdout(`${RECONCILE.noPayers}\n`);
      const table = rows.map((p) => [
        p.id,
        storeLabel(names(p.store_id)),
        p.payer,
        p.last_five,
        formatTaipei(Date.parse(p.learned_at)),
        RECONCILE.learnedBy(p.learned_by === 'auto', actorNameText(p.learned_by_username)),
      ]);
      io.stdout(renderTable([...RECONCILE.payerColumns], table, { right: [0] }));
    });
}

const PAGE = 1_000;

/** Every remembered payer the caller may see (in the given stores), newest first, page by page. */
async function allPayers(ctx: ServiceContext, stores: number[] | undefined): Promise<RememberedPayer[]> {
  const all: RememberedPayer[] = [];
  for (let start = 0; ; start += PAGE) {
    const page = await listPayers(ctx, {
      filter: stores ? { store_id: stores } : {},
      sort: ['learned_at', 'DESC'],
      range: [start, start + PAGE - 1],
    });
    all.push(...page.rows);
    if (page.rows.length < PAGE) return all;
  }
}

function forgetCommand(reconcile: Command, io: CliIO): void {
  reconcile
    .command('forget')
    .description('忘記一筆已記住的付款人（記錄在稽核紀錄）')
    .argument('<id>', '已記住的付款人編號（remit reconcile payers 的第一欄）')
    .option('--as <username>', '以此用戶的身分與權限執行')
    .option('--json', '以 JSON 輸出')
    .addHelpText('after', examples('remit reconcile forget 12'))
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<{ as?: string; json?: boolean }>();
      const forgotten = await withOperator(io, cmd.optsWithGlobals(), async (operator) =>
        forgetPayer(await actingAs(operator, opts.as), id),
      );
      io.stdout(
        opts.json ? `${JSON.stringify(forgotten)}\n` : `${RECONCILE.forgotten(forgotten.payer, forgotten.last_five)}\n`,
      );
    });
}

/** The operator, or the user named by --as with their permissions and stores. */
async function actingAs(operator: ServiceContext, as: string | undefined): Promise<ServiceContext> {
  return as ? { ...operator, actor: await principalByUsername(operator.db, as) } : operator;
}

const sum = <K extends keyof ImportedStatement>(rows: ImportedStatement[], key: K) =>
  rows.reduce((n, r) => n + Number(r[key]), 0);

const when = (iso: string, hasTime = true) => formatTaipei(Date.parse(iso), { dateOnly: !hasTime });
const payerOf = (l: BankLine) => l.counterparty || l.payer;

/** The report in words: what was read, then each queue with its entries. */
function printReport(io: CliIO, s: StatementSummary, p: Proposals, applied: number, apply: boolean): void {
  const out: string[] = [];
  out.push(RECONCILE.read(s.files.length, s.lines, s.credits, s.new, s.duplicates));
  if (s.accounts.length) out.push(RECONCILE.accounts(s.accounts));
  out.push(RECONCILE.period(s.from, s.to, statementEncodingLabel(s.encoding), s.balance_breaks, s.skipped_rows));
  // every queue empty: say why before listing them at zero
  if (p.empty) out.push(EMPTY_REASON_TEXT[p.empty]);
  out.push(RECONCILE.auto(p.auto.length, apply, applied));
  out.push(...reviewLines(p.review));
  out.push(RECONCILE.unpaid(p.unpaid.length));
  for (const u of p.unpaid) out.push(paymentLine(u.payment));
  out.push(...unreportedLines(p.unreported));
  out.push(...suggestionLines(p.suggestions));
  io.stdout(`${out.join('\n')}\n`);
}

type Payment = Proposals['unpaid'][number]['payment'];

const paymentLine = (x: Payment) => RECONCILE.payment(x.uuid, x.last_five, formatNTD(x.amount), when(x.paid_at));

function reviewLines(review: Proposals['review']): string[] {
  const out = [RECONCILE.review(review.length)];
  for (const r of review) {
    out.push(paymentLine(r.payment));
    for (const c of r.candidates) {
      const l = c.line;
      out.push(
        RECONCILE.candidate(l.file, l.row, when(l.at, l.has_time), formatNTD(l.amount), payerOf(l), c.score, c.reasons),
      );
    }
  }
  return out;
}

function unreportedLines(unreported: Proposals['unreported']): string[] {
  const out = [RECONCILE.unreported(unreported.length)];
  for (const { line: l } of unreported)
    out.push(
      RECONCILE.unreportedLine(l.file, l.row, when(l.at, l.has_time), formatNTD(l.amount), l.summary, payerOf(l)),
    );
  return out;
}

function suggestionLines(suggestions: Proposals['suggestions']): string[] {
  const out = [RECONCILE.suggestions(suggestions.length)];
  suggestions.forEach((g, i) => {
    const paid = formatNTD(g.payments.reduce((t, x) => t + x.amount, 0));
    const received = formatNTD(g.lines.reduce((t, l) => t + l.amount, 0));
    out.push(RECONCILE.group(i + 1, paid, received, g.reasons));
    for (const x of g.payments) out.push(`  ${paymentLine(x)}`);
    for (const l of g.lines)
      out.push(RECONCILE.groupLine(l.file, l.row, when(l.at, l.has_time), formatNTD(l.amount), payerOf(l)));
  });
  return out;
}
