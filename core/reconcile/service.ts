/**
 * Bank reconciliation, the stored half: statements, proposals and decisions, each audited in its
 * transaction. A link is unique on the payment and on the line: of two racing confirmations one wins.
 */
import type { Knex } from 'knex';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError, problem } from '../errors.js';
import { assertFilterFields, filterIds, runList, type ListQuery } from '../listQuery.js';
import { inScope, scopedStoreIds, storeScope } from '../permissions.js';
import { givenAccount, lineSource } from './account.js';
import { DEFAULT_WINDOW_AFTER_MS, DEFAULT_WINDOW_BEFORE_MS, matchReconcile, type MatchResult } from './match.js';
import { learnPayer, MAX_PAYER_LENGTH, payerMemory, unlearnLink } from './payers.js';
import { statementPeriod } from './period.js';
import type { ReadStatement } from './statement.js';
import { prepareStatement } from './prepare.js';
import { reasonText, type Reason } from './reasons.js';
import type { ReconcileLine, ReconcileReport, StatementLine } from './types.js';
import { STATUS_CREDITED, STATUS_FAILED, STATUS_PENDING, type PaymentStatus } from '../paymentStatuses.js';
import { emptyReason } from './empty.js';
import { METHOD_TRANSFER, reconciles } from '../paymentMethods.js';
import { instantRange } from '../dateRange.js';
import { DAY_MS, taipeiDate, taipeiDayStart, toIso } from '../time.js';
import { toPayment, type PaymentRow } from '../payments/rows.js';
import { isForeignKeyViolation, isPostgres } from '../db/connect.js';
import { lockForTransaction, LOCKS } from '../db/locks.js';
import type { ListResult } from '../types.js';
import { toId } from '../validation.js';
import { recordAudit } from '../audit/service.js';
import { readContext, type ServiceContext, type Db } from '../context.js';
import { requirePermission } from '../guard.js';
import { cutPage, matchPoolFor, type PagedMatch } from './matchPool.js';
import { PROPOSAL_QUEUES } from './page.js';
import { findStore } from '../stores/service.js';

const MAX_DECISIONS = 5_000;
/** SQLite's knex inserts rows as one compound SELECT, of at most 500 terms. */
const INSERT_CHUNK = 400;
const MAX_LINE_TEXT = 2_000;

import type { BankLine, ImportedStatement, Proposals, ProposalsPage, ReconciledPayment } from './types.js';
import { actorUserId } from '../actor.js';

interface LineRow {
  id: number;
  statement_id: number;
  row: number;
  at: number;
  has_time: boolean | number;
  amount: number;
  balance: number | null;
  summary: string;
  note: string;
  counterparty: string;
  digits: string;
  payer: string | null;
  fingerprint: string;
  file: string;
  account: string | null;
  store_id: number | null;
  /** linked, maybe to a payment the caller may not see (payment_uuid null) */
  linked: number | null;
  payment_uuid: string | null;
}

export function toBankLine(r: Omit<LineRow, 'linked'>): BankLine {
  return {
    id: Number(r.id),
    statement_id: Number(r.statement_id),
    file: r.file,
    row: Number(r.row),
    at: toIso(Number(r.at)),
    has_time: Boolean(r.has_time),
    amount: Number(r.amount),
    balance: r.balance === null ? null : Number(r.balance),
    summary: r.summary,
    note: r.note,
    counterparty: r.counterparty,
    digits: r.digits,
    payer: r.payer ?? '',
    account: r.account ?? null,
    store_id: r.store_id === null ? null : Number(r.store_id),
    payment: r.payment_uuid ?? null,
  };
}

/**
 * Lines in the caller's scope: of their stores' statements, and those an every-store statement
 * brought first that their store's statement holds. `payment_uuid` only when the caller may see it.
 */
export function scopedLines(ctx: ServiceContext, db: Db = ctx.db): Knex.QueryBuilder {
  const q = db('bank_lines as l')
    .join('bank_statements as s', 's.id', 'l.statement_id')
    .leftJoin('bank_links as k', 'k.line_id', 'l.id')
    .select('l.*', 's.file', 's.account', 's.store_id', 'k.line_id as linked');
  const scope = storeScope(ctx.actor);
  if (scope.all) return q.select('k.payment_uuid');
  const held = db('bank_statement_lines as m')
    .join('bank_statements as ms', 'ms.id', 'm.statement_id')
    .whereIn('ms.store_id', scope.ids)
    .select('m.line_id');
  q.where((w) => w.whereIn('s.store_id', scope.ids).orWhereIn('l.id', held));
  // a line of every store's statement taken by another store's payment: taken, never by whom
  if (!scope.ids.length) return q.select(db.raw('null as payment_uuid'));
  return q
    .leftJoin('payments as kp', 'kp.uuid', 'k.payment_uuid')
    .select(
      db.raw(
        `case when kp.store_id in (${scope.ids.map(() => '?').join(', ')}) then k.payment_uuid end as payment_uuid`,
        scope.ids,
      ),
    );
}

/** Imports a statement for one store or all; lines the store already holds are skipped and counted. */
export async function importStatement(
  ctx: ServiceContext,
  input: { bytes: Uint8Array; file: string; storeId?: unknown; account?: unknown },
): Promise<ImportedStatement> {
  requirePermission(ctx.actor, 'manage_payments');
  const file = String(input.file ?? '')
    .trim()
    .slice(0, 255);
  if (!file) throw ValidationError.single('filename', 'reconcile_file_name_required');
  const given = givenAccount(input.account);
  const storeId = await statementStore(ctx, input.storeId);
  const { read, account, prints } = ctx.matching
    ? await matchPoolFor(ctx.matching).prepare(input.bytes, file, given)
    : prepareStatement(input.bytes, file, given);
  const now = Date.now();
  return ctx.db
    .transaction(async (trx) => storeStatement(ctx, trx, { file, storeId, account, read, prints, now }))
    .catch((err: unknown) => {
      // the store deleted since it was checked
      throw isForeignKeyViolation(err) ? new NotFoundError(problem('store_not_found')) : err;
    });
}

function lineRow(statementId: number, scope: number, l: StatementLine, fingerprint: string) {
  return {
    statement_id: statementId,
    store_scope: scope,
    row: l.row,
    at: l.at,
    has_time: l.hasTime,
    amount: l.amount,
    balance: l.balance,
    // a file of one 5 MB note stores 2 000 characters of it (the fingerprint reads the whole cell)
    summary: l.summary.slice(0, MAX_LINE_TEXT),
    note: l.note.slice(0, MAX_LINE_TEXT),
    counterparty: l.counterparty.slice(0, 255),
    digits: l.digits,
    payer: (l.payer ?? '').slice(0, MAX_PAYER_LENGTH),
    fingerprint,
  };
}

interface StatementToStore {
  file: string;
  storeId: number | null;
  account: string | null;
  read: ReadStatement;
  prints: string[];
  now: number;
}

async function storeStatement(ctx: ServiceContext, trx: Db, input: StatementToStore): Promise<ImportedStatement> {
  const { file, storeId, account, read } = input;
  // Imports take turns on PostgreSQL (SQLite: BEGIN IMMEDIATE): two overlapping downloads
  // inserting the same lines in opposite orders deadlocked.
  await lockForTransaction(trx, LOCKS.statementImport);
  const id = await insertStatement(ctx, trx, input);
  await insertNewLines(trx, id, input);
  const added = Number(
    ((await trx('bank_lines').where({ statement_id: id }).count({ n: '*' }).first()) as { n: number | string }).n,
  );
  await trx('bank_statements').where({ id }).update({ new_lines: added });
  const result: ImportedStatement = {
    id,
    file,
    store_id: storeId,
    account,
    lines: read.lines.length,
    credits: read.credits,
    new: added,
    duplicates: read.lines.length - added,
    from: read.from,
    to: read.to,
    encoding: read.encoding,
    balance_breaks: read.balance_breaks,
    skipped_rows: read.skipped,
    columns: read.columns,
  };
  await recordAudit(trx, ctx, { action: 'import', entity: 'statement', entityId: id, after: result });
  return result;
}

async function insertStatement(
  ctx: ServiceContext,
  trx: Db,
  { file, storeId, account, read, now }: StatementToStore,
): Promise<number> {
  const [inserted] = await trx('bank_statements')
    .insert({
      file,
      imported_by: actorUserId(ctx.actor),
      store_id: storeId,
      account,
      encoding: read.encoding,
      columns: JSON.stringify(read.columns),
      period_from: read.from,
      period_to: read.to,
      lines: read.lines.length,
      new_lines: 0,
      balance_breaks: read.balance_breaks,
      created_at: now,
    })
    .returning('id');
  return Number(typeof inserted === 'object' ? inserted.id : inserted);
}

/** Only lines new to the store (for all stores: to any); imports take turns, so what is read is what is met. */
async function insertNewLines(trx: Db, id: number, { storeId, read, prints }: StatementToStore): Promise<void> {
  const scope = storeId ?? 0;
  for (let i = 0; i < prints.length; i += INSERT_CHUNK) {
    const chunk = prints.slice(i, i + INSERT_CHUNK);
    const q = trx('bank_lines').whereIn('fingerprint', chunk);
    if (storeId !== null) q.whereIn('store_scope', [storeId, 0]);
    const rows = (await q.select('id', 'fingerprint', 'store_scope')) as Array<{
      id: number;
      fingerprint: string;
      store_scope: number;
    }>;
    const held = new Set(rows.map((r) => r.fingerprint));
    const fresh = chunk.flatMap((fingerprint, k) =>
      held.has(fingerprint) ? [] : [lineRow(id, scope, read.lines[i + k], fingerprint)],
    );
    if (fresh.length) await trx('bank_lines').insert(fresh).onConflict(['fingerprint', 'store_scope']).ignore();
    // lines an every-store statement brought first: this statement holds them too, so its users see them
    const shared =
      storeId === null
        ? []
        : rows.filter((r) => Number(r.store_scope) === 0).map((r) => ({ statement_id: id, line_id: Number(r.id) }));
    if (shared.length)
      await trx('bank_statement_lines').insert(shared).onConflict(['statement_id', 'line_id']).ignore();
  }
}

/** The store asked for; without one, all stores for someone who sees all, else the caller's only store. */
async function statementStore(ctx: ServiceContext, raw: unknown): Promise<number | null> {
  if (raw === undefined || raw === null || raw === '') {
    const scope = storeScope(ctx.actor);
    if (scope.all) return null;
    if (scope.ids.length !== 1) throw ValidationError.single('store_id', 'reconcile_store_required');
    raw = scope.ids[0];
  }
  const id = toId(raw);
  if (id === null || !(await findStore(ctx.db, id))) throw new NotFoundError(problem('store_not_found'));
  if (!inScope(ctx.actor, id)) throw new ForbiddenError(problem('payment_store_forbidden'));
  return id;
}

const LINE_SORTABLE = { id: 'l.id', at: 'l.at', amount: 'l.amount', row: 'l.row', statement_id: 'l.statement_id' };
const LINE_FILTERS = ['id', 'statement_id', 'matched', 'at_gte', 'at_lte'];

export async function listLines(ctx: ServiceContext, query: ListQuery = { filter: {} }): Promise<ListResult<BankLine>> {
  requirePermission(ctx.actor, 'view_payments');
  const f = query.filter;
  assertFilterFields(f, LINE_FILTERS);
  const base = scopedLines(ctx);
  const ids = filterIds(f, 'id');
  if (ids) base.whereIn('l.id', ids);
  const statements = filterIds(f, 'statement_id');
  if (statements) base.whereIn('l.statement_id', statements);
  if (f.matched !== undefined && f.matched !== null && f.matched !== '') {
    const m =
      f.matched === true || f.matched === 'true' ? true : f.matched === false || f.matched === 'false' ? false : null;
    if (m === null) throw ValidationError.single('filter', 'bad_list_param', { param: 'filter.matched' });
    if (m) base.whereNotNull('k.payment_uuid');
    else base.whereNull('k.payment_uuid');
  }
  const range = instantRange(f.at_gte, f.at_lte);
  if (range.gte !== undefined) base.where('l.at', '>=', range.gte);
  if (range.lt !== undefined) base.where('l.at', '<', range.lt);
  return runList(base, query, { sortable: LINE_SORTABLE, defaultSort: ['at', 'ASC'], tiebreak: 'l.id' }, toBankLine);
}

type PaymentWithLink = PaymentRow & { bank_line_id: number | null };
const toReconciled = (r: PaymentWithLink): ReconciledPayment => ({
  ...toPayment(r),
  bank_line_id: r.bank_line_id === null || r.bank_line_id === undefined ? null : Number(r.bank_line_id),
});

const MAX_RECONCILE_DAYS = 366;
export const PROPOSALS_PAGE = 200;
const MAX_PROPOSALS_PAGE = 2_000;

/** Proposals for a period (else the statements'), narrowed to what the statements can explain, a year at most. */
export async function proposeMatches(
  ctx: ServiceContext,
  input: { from?: unknown; to?: unknown; storeId?: unknown; statement?: unknown; offset?: unknown; limit?: unknown },
): Promise<Proposals> {
  requirePermission(ctx.actor, 'view_payments');
  // on SQLite the read pool: a year's reads never queue the one writer's submissions
  ctx = readContext(ctx);
  const given = (v: unknown) => v !== undefined && v !== null && v !== '';
  let { from, to } = input;
  if (!given(from) && !given(to) && given(input.statement)) {
    const period = statementPeriod(await statementsInScope(ctx, input.statement));
    if (period) ({ from, to } = period);
  }
  if (typeof from !== 'string' || typeof to !== 'string' || !from || !to) {
    throw ValidationError.single('from', 'reconcile_range_required');
  }
  const range = instantRange(from, to, { from: 'from', to: 'to' });
  const page = given(input.offset) || given(input.limit) ? pageOf(input.offset, input.limit) : undefined;
  const requested =
    input.storeId === undefined || input.storeId === null || input.storeId === '' ? undefined : toId(input.storeId);
  if (requested === null) throw ValidationError.single('store_id', 'store_not_found');
  const stores = scopedStoreIds(ctx.actor, requested === undefined ? undefined : [requested]);
  const cover = await statementCover(ctx, stores);
  const span = matchableSpan(range.gte!, range.lt!, cover);
  if (!span || !cover) return { ...emptyProposals(page), empty: 'no_statement' };
  // the year counts the statement days asked for; the window's days on either side are matched beyond it
  const listed = { gte: Math.max(range.gte!, cover.from), lt: Math.min(range.lt!, cover.to + 1) };
  const days = Math.max(0, Math.round((listed.lt - listed.gte) / DAY_MS));
  if (days > MAX_RECONCILE_DAYS) {
    throw ValidationError.single('from', 'reconcile_period_too_long', {
      from: taipeiDate(listed.gte),
      to: taipeiDate(listed.lt - 1),
      days,
      limit: MAX_RECONCILE_DAYS,
    });
  }
  return withEmptyReason(ctx, await proposalsFor(ctx, span.gte, span.lt, stores, page), span, stores);
}

/** The answer, saying why when every queue is empty. */
async function withEmptyReason(
  ctx: ServiceContext,
  out: Proposals,
  span: { gte: number; lt: number },
  stores: number[] | 'all',
): Promise<Proposals> {
  const total = out.page?.total ?? Object.fromEntries(PROPOSAL_QUEUES.map((q) => [q, out[q].length]));
  if (Object.values(total).some((n) => n > 0)) return out;
  const count = async (q: Knex.QueryBuilder) =>
    Number(((await q.clearSelect().count({ n: '*' }).first()) as { n: number | string }).n);
  const credits = () => {
    const q = scopedLines(ctx).where('l.amount', '>', 0).where('l.at', '>=', span.gte).andWhere('l.at', '<', span.lt);
    if (stores !== 'all') q.where((w) => w.whereIn('s.store_id', stores).orWhereNull('s.store_id'));
    return q;
  };
  const reports = () => {
    const q = ctx
      .db('payments as p')
      .leftJoin('bank_links as k', 'k.payment_uuid', 'p.uuid')
      .where('p.method', METHOD_TRANSFER)
      .where('p.paid_at', '>=', span.gte)
      .andWhere('p.paid_at', '<', span.lt);
    if (stores !== 'all') q.whereIn('p.store_id', stores);
    return q;
  };
  const empty = emptyReason({
    credits: await count(credits()),
    openCredits: await count(credits().whereNull('k.line_id')),
    reports: await count(reports()),
    openReports: await count(reports().whereNull('k.line_id').where('p.status', STATUS_PENDING)),
  });
  return { ...out, empty };
}

function pageOf(rawOffset: unknown, rawLimit: unknown): { offset: number; limit: number } {
  const int = (v: unknown, field: string, fallback: number, min: number, max: number) => {
    if (v === undefined || v === null || v === '') return fallback;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max)
      throw ValidationError.single(field, 'reconcile_bad_page', { param: field, limit: max });
    return n;
  };
  return {
    offset: int(rawOffset, 'offset', 0, 0, 100_000_000),
    limit: int(rawLimit, 'limit', PROPOSALS_PAGE, 1, MAX_PROPOSALS_PAGE),
  };
}

async function statementCover(
  ctx: ServiceContext,
  stores: number[] | 'all',
): Promise<{ from: number; to: number } | undefined> {
  const cover = scopedLines(ctx).clearSelect().min({ from: 'l.at' }).max({ to: 'l.at' });
  if (stores !== 'all') cover.where((w) => w.whereIn('s.store_id', stores).orWhereNull('s.store_id'));
  const c = (await cover.first()) as { from: number | string | null; to: number | string | null } | undefined;
  if (!c || c.from === null || c.to === null) return undefined;
  return {
    from: taipeiDayStart(taipeiDate(Number(c.from)))!,
    to: taipeiDayStart(taipeiDate(Number(c.to)))! + DAY_MS - 1,
  };
}

/**
 * The period narrowed to the days whose reports a statement line could pay (null: none). A report
 * outside gets no candidate and is never unpaid, so the answer is the same; only the work is bounded.
 */
function matchableSpan(
  gte: number,
  lt: number,
  cover: { from: number; to: number } | undefined,
): { gte: number; lt: number } | null {
  if (!cover) return null;
  const first = taipeiDayStart(taipeiDate(cover.from - DEFAULT_WINDOW_AFTER_MS))!;
  const end = taipeiDayStart(taipeiDate(cover.to + DEFAULT_WINDOW_BEFORE_MS))! + DAY_MS;
  const span = { gte: Math.max(gte, first), lt: Math.min(lt, end) };
  return span.gte < span.lt ? span : null;
}

function emptyProposals(page: { offset: number; limit: number } | undefined): Proposals {
  const none: Proposals = { auto: [], review: [], reviewLines: [], unpaid: [], unreported: [], suggestions: [] };
  if (page)
    none.page = {
      ...page,
      total: Object.fromEntries(PROPOSAL_QUEUES.map((q) => [q, 0])) as ProposalsPage['total'],
      period: null,
    };
  return none;
}

async function proposalsFor(
  ctx: ServiceContext,
  gte: number,
  lt: number,
  stores: number[] | 'all',
  page?: { offset: number; limit: number },
): Promise<Proposals> {
  // reports around the period take part (a credit they explain is not unreported) but are not proposed
  const reportsCover = {
    from: gte - DEFAULT_WINDOW_BEFORE_MS - DAY_MS - DEFAULT_WINDOW_AFTER_MS,
    to: lt + DEFAULT_WINDOW_AFTER_MS + DEFAULT_WINDOW_BEFORE_MS,
  };
  const reports = await openReports(ctx, reportsCover, stores);
  const lines = await openCredits(ctx, gte, lt, stores);
  const coverage = await statementCover(ctx, stores);
  const payers = await payerMemory(ctx.db, stores);
  const options = { coverage, payers, period: { from: gte, to: lt }, reportsCover };
  // the API matches on a worker thread, which also cuts the page; the CLI matches here
  const paged: PagedMatch = ctx.matching
    ? await matchPoolFor(ctx.matching).match(reports, lines, options, page)
    : cutPage(matchReconcile(reports, lines, options), page);
  const out = inFull(paged.result, await shownRecords(ctx, paged.result));
  if (page) out.page = { ...page, total: paged.total, period: { from: taipeiDate(gte), to: taipeiDate(lt - 1) } };
  return out;
}

/** Open transfers reported in the span: only the columns the matcher reads (a year is tens of thousands of rows). */
async function openReports(
  ctx: ServiceContext,
  span: { from: number; to: number },
  stores: number[] | 'all',
): Promise<ReconcileReport[]> {
  const payments = () => {
    const q = ctx
      .db('payments as p')
      .leftJoin('bank_links as k', 'k.payment_uuid', 'p.uuid')
      .select('p.uuid', 'p.store_id', 'p.last_five', 'p.paid_at', 'p.amount', 'p.note', 'p.status')
      .where('p.paid_at', '>=', span.from)
      .andWhere('p.paid_at', '<', span.to)
      .whereNull('k.line_id')
      // only a transfer is reported against the bank
      .where('p.method', METHOD_TRANSFER);
    if (stores !== 'all') q.whereIn('p.store_id', stores);
    return q;
  };
  type ReportRow = Pick<PaymentRow, 'uuid' | 'store_id' | 'last_five' | 'paid_at' | 'amount' | 'note' | 'status'>;
  return readInChunks(
    payments,
    'p.uuid',
    (p: ReportRow) => p.uuid,
    (p): ReconcileReport => ({
      uuid: p.uuid,
      store_id: Number(p.store_id),
      last_five: p.last_five,
      paid_at: Number(p.paid_at),
      amount: Number(p.amount),
      note: p.note ?? '',
      status: p.status,
    }),
  );
}

async function openCredits(ctx: ServiceContext, gte: number, lt: number, stores: number[] | 'all') {
  const credits = () => {
    const q = scopedLines(ctx)
      .clearSelect()
      .select(
        'l.id',
        'l.at',
        'l.has_time',
        'l.amount',
        'l.digits',
        'l.summary',
        'l.note',
        'l.payer',
        's.account',
        's.store_id',
      )
      .where('l.amount', '>', 0)
      .whereNull('k.payment_uuid')
      .where('l.at', '>=', gte - DEFAULT_WINDOW_BEFORE_MS - DAY_MS)
      .andWhere('l.at', '<', lt + DEFAULT_WINDOW_AFTER_MS);
    // a statement for all stores serves every store
    if (stores !== 'all') q.where((w) => w.whereIn('s.store_id', stores).orWhereNull('s.store_id'));
    return q;
  };
  type CreditRow = Pick<
    LineRow,
    'id' | 'at' | 'has_time' | 'amount' | 'digits' | 'summary' | 'note' | 'payer' | 'account' | 'store_id'
  >;
  return readInChunks(
    credits,
    'l.id',
    (l: CreditRow) => Number(l.id),
    (l): ReconcileLine => {
      const store = l.store_id === null ? null : Number(l.store_id);
      return {
        id: Number(l.id),
        at: Number(l.at),
        hasTime: Boolean(l.has_time),
        amount: Number(l.amount),
        digits: l.digits,
        summary: l.summary,
        note: l.note,
        store_id: store,
        payer: l.payer ?? '',
        source: lineSource(l.account ?? null, store),
      };
    },
  );
}

async function shownRecords(ctx: ServiceContext, result: MatchResult) {
  const uuids = new Set<string>();
  const ids = new Set<number>();
  result.auto.forEach((a) => (uuids.add(a.payment), ids.add(a.line)));
  result.review.forEach((r) => (uuids.add(r.payment), r.candidates.forEach((c) => ids.add(c.line))));
  result.reviewLines.forEach((r) => (ids.add(r.line), r.candidates.forEach((c) => uuids.add(c.payment))));
  result.unpaid.forEach((u) => uuids.add(u.payment));
  result.unreported.forEach((u) => ids.add(u.line));
  result.suggestions.forEach((s) => (s.payments.forEach((u) => uuids.add(u)), s.lines.forEach((id) => ids.add(id))));
  const payments = new Map<string, ReconciledPayment>();
  for (const chunk of chunks([...uuids], 500)) {
    const rows = (await ctx
      .db('payments as p')
      .leftJoin('bank_links as k', 'k.payment_uuid', 'p.uuid')
      .select('p.*', 'k.line_id as bank_line_id')
      .whereIn('p.uuid', chunk)) as PaymentWithLink[];
    for (const r of rows) payments.set(r.uuid, toReconciled(r));
  }
  const lines = new Map<number, BankLine>();
  for (const chunk of chunks([...ids], 500)) {
    for (const r of (await scopedLines(ctx).whereIn('l.id', chunk)) as LineRow[])
      lines.set(Number(r.id), toBankLine(r));
  }
  return { payments, lines };
}

/** A payment or line deleted since it was matched leaves the answer with it. */
function inFull(
  result: MatchResult,
  { payments: P, lines: L }: { payments: Map<string, ReconciledPayment>; lines: Map<number, BankLine> },
): Proposals {
  const has = { p: (u: string) => P.has(u), l: (id: number) => L.has(id) };
  return {
    auto: result.auto
      .filter((a) => has.p(a.payment) && has.l(a.line))
      .map((a) => ({ payment: P.get(a.payment)!, line: L.get(a.line)!, score: a.score, reasons: inWords(a.reasons) })),
    review: result.review
      .filter((r) => has.p(r.payment))
      .map((r) => ({
        payment: P.get(r.payment)!,
        candidates: r.candidates
          .filter((c) => has.l(c.line))
          .map((c) => ({ line: L.get(c.line)!, score: c.score, reasons: inWords(c.reasons) })),
      })),
    reviewLines: result.reviewLines
      .filter((r) => has.l(r.line))
      .map((r) => ({
        line: L.get(r.line)!,
        candidates: r.candidates
          .filter((c) => has.p(c.payment))
          .map((c) => ({ payment: P.get(c.payment)!, score: c.score, reasons: inWords(c.reasons) })),
      })),
    unpaid: result.unpaid.filter((u) => has.p(u.payment)).map((u) => ({ payment: P.get(u.payment)! })),
    unreported: result.unreported.filter((u) => has.l(u.line)).map((u) => ({ line: L.get(u.line)! })),
    suggestions: result.suggestions
      .filter((s) => s.payments.every(has.p) && s.lines.every(has.l))
      .map((s) => ({
        payments: s.payments.map((u) => P.get(u)!),
        lines: s.lines.map((id) => L.get(id)!),
        reasons: inWords(s.reasons),
      })),
  };
}

/** Rendered where proposals leave the service: the API, the CLI and stored confirmations share the words. */
function inWords(reasons: Reason[]): string[] {
  return reasons.map(reasonText);
}

const READ_CHUNK = 1_000;

/** Every row, in keyset batches mapped as they come: a year of rows never holds the event loop in one piece. */
async function readInChunks<R, T>(
  query: () => Knex.QueryBuilder,
  key: string,
  keyOf: (row: R) => string | number,
  map: (row: R) => T,
): Promise<T[]> {
  const out: T[] = [];
  let after: string | number | undefined;
  for (;;) {
    const q = query().orderBy(key).limit(READ_CHUNK);
    if (after !== undefined) q.where(key, '>', after);
    const rows = (await q) as R[];
    for (const r of rows) out.push(map(r));
    if (rows.length < READ_CHUNK) return out;
    after = keyOf(rows[rows.length - 1]);
  }
}

function* chunks<T>(xs: T[], size: number): Generator<T[]> {
  for (let i = 0; i < xs.length; i += size) yield xs.slice(i, i + size);
}

const MAX_STATEMENTS = 100;

async function statementsInScope(
  ctx: ServiceContext,
  raw: unknown,
): Promise<Array<{ from: string | null; to: string | null }>> {
  const ids = (Array.isArray(raw) ? raw : String(raw).split(',')).map((x) =>
    toId(typeof x === 'string' ? x.trim() : x),
  );
  if (ids.length > MAX_STATEMENTS)
    throw ValidationError.single('statement', 'reconcile_too_many', { limit: MAX_STATEMENTS });
  const bad = ids.findIndex((id) => id === null);
  if (bad >= 0)
    throw new NotFoundError(
      problem('reconcile_statement_not_found', { id: String(Array.isArray(raw) ? raw[bad] : raw) }),
    );
  const q = ctx
    .db('bank_statements')
    .select('id', 'store_id', 'period_from as from', 'period_to as to')
    .whereIn('id', ids as number[]);
  const scope = storeScope(ctx.actor);
  if (!scope.all) q.whereIn('store_id', scope.ids);
  const rows = (await q) as Array<{ id: number; from: string | null; to: string | null }>;
  const found = new Set(rows.map((r) => Number(r.id)));
  const missing = (ids as number[]).find((id) => !found.has(id));
  if (missing !== undefined) throw new NotFoundError(problem('reconcile_statement_not_found', { id: String(missing) }));
  return rows;
}

export async function proposeForPeriod(
  ctx: ServiceContext,
  from: string,
  to: string,
  storeIds?: number[],
): Promise<Proposals> {
  requirePermission(ctx.actor, 'view_payments');
  const range = instantRange(from, to, { from: 'from', to: 'to' });
  return proposalsFor(ctx, range.gte!, range.lt!, scopedStoreIds(ctx.actor, storeIds));
}

interface PairDecision {
  payment: string;
  line: number;
  /** the matcher's score and reasons when the automatic run decides */
  score?: number;
  reasons?: string[];
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint failed/i.test(String(e?.message))
  );
}

/**
 * On PostgreSQL a decision locks its payments (in one order: no deadlock) before reading their
 * links, so racing decisions take turns and see what the other left. SQLite's BEGIN IMMEDIATE does.
 */
async function lockPayments(trx: Db, uuids: readonly unknown[]): Promise<void> {
  if (!isPostgres(trx)) return;
  const ids = [...new Set(uuids.filter((u): u is string => typeof u === 'string' && /^[\w-]{1,64}$/.test(u)))].sort();
  if (ids.length) await trx('payments').whereIn('uuid', ids).orderBy('uuid').forUpdate().select('uuid');
}

/** Lines locked in one order before they are read: a payment made from a line and a confirmation to it deadlocked. */
export async function lockLines(trx: Db, rawIds: readonly unknown[]): Promise<void> {
  if (!isPostgres(trx)) return;
  const ids = [...new Set(rawIds.map((r) => toId(r)).filter((id): id is number => id !== null))].sort((a, b) => a - b);
  if (ids.length) await trx('bank_lines').whereIn('id', ids).orderBy('id').forUpdate().select('id');
}

/** The payment with its link, in scope; callers lock it first, so what is read is the last committed. */
async function paymentInScope(trx: Db, ctx: ServiceContext, uuid: unknown): Promise<PaymentWithLink> {
  const valid = typeof uuid === 'string' && /^[\w-]{1,64}$/.test(uuid);
  const row = valid
    ? ((await trx('payments as p')
        .leftJoin('bank_links as k', 'k.payment_uuid', 'p.uuid')
        .select('p.*', 'k.line_id as bank_line_id')
        .where('p.uuid', uuid)
        .first()) as PaymentWithLink | undefined)
    : undefined;
  if (!row) throw new NotFoundError(problem('payment_not_found'));
  if (!inScope(ctx.actor, Number(row.store_id))) throw new ForbiddenError(problem('payment_store_forbidden'));
  return row;
}

/** Confirms pairs, all or none: by a person unless `auto` (the automatic run applying its own proposals). */
export async function confirmPairs(
  ctx: ServiceContext,
  rawPairs: unknown,
  opts: { auto?: boolean } = {},
): Promise<{ confirmed: number }> {
  requirePermission(ctx.actor, 'confirm_payments');
  const pairs = pairDecisions(rawPairs);
  try {
    return await ctx.db.transaction(async (trx) => {
      await lockPayments(
        trx,
        pairs.map((p) => p.payment),
      );
      await lockLines(
        trx,
        pairs.map((p) => p.line),
      );
      const now = Date.now();
      for (const pair of pairs) await confirmPair(ctx, trx, pair, opts.auto ? 'auto' : 'person', now);
      return { confirmed: pairs.length };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(problem('reconcile_concurrent'));
    throw err;
  }
}

function pairDecisions(rawPairs: unknown): PairDecision[] {
  if (!Array.isArray(rawPairs) || rawPairs.length === 0)
    throw ValidationError.single('pairs', 'reconcile_pairs_required');
  if (rawPairs.length > MAX_DECISIONS)
    throw ValidationError.single('pairs', 'reconcile_too_many', { limit: MAX_DECISIONS });
  return rawPairs.map((p) => {
    const payment = (p as { payment?: unknown })?.payment;
    const line = toId((p as { line?: unknown })?.line);
    if (typeof payment !== 'string' || line === null) throw ValidationError.single('pairs', 'reconcile_pairs_required');
    return p as PairDecision;
  });
}

/** One pair linked, its payment 已入帳, audited with the matcher's score: the automatic run's, else this pair's alone. */
async function confirmPair(
  ctx: ServiceContext,
  trx: Db,
  pair: PairDecision,
  by: 'auto' | 'person',
  now: number,
): Promise<void> {
  const p = await paymentInScope(trx, ctx, pair.payment);
  if (p.bank_line_id !== null && p.bank_line_id !== undefined)
    throw new ConflictError(problem('reconcile_payment_linked'), 'payment');
  if (!reconciles(p.method)) throw ValidationError.single('pairs', 'reconcile_not_transfer', { method: p.method! });
  const lineId = toId(pair.line)!;
  const l = await lineFor(ctx, trx, p, lineId, pair.line);
  const evidence =
    by === 'auto' && pair.score !== undefined ? { score: pair.score, reasons: pair.reasons ?? [] } : pairEvidence(p, l);
  await trx('bank_links').insert({
    payment_uuid: p.uuid,
    line_id: lineId,
    status_before: p.status,
    decided_by: by,
    actor_id: actorUserId(ctx.actor),
    score: evidence.score,
    reasons: JSON.stringify(evidence.reasons),
    at: now,
  });
  await trx('payments').where({ uuid: p.uuid }).update({ status: STATUS_CREDITED, updated_at: now });
  const learned = await learnPayer(trx, ctx, {
    storeId: Number(p.store_id),
    payer: l.payer,
    lastFive: p.last_five,
    payment: p.uuid,
    line: lineId,
    by,
    at: now,
  });
  const before = toReconciled(p);
  await recordAudit(trx, ctx, {
    action: 'reconcile',
    entity: 'payment',
    entityId: p.uuid,
    before,
    after: {
      ...before,
      status: STATUS_CREDITED,
      bank_line_id: lineId,
      updated_at: toIso(now),
      reconcile: {
        line: toBankLine({ ...l, payment_uuid: p.uuid }),
        by,
        score: evidence.score,
        reasons: evidence.reasons,
        ...(learned ? { learned: learned.payer } : {}),
      },
    },
  });
}

async function lineFor(
  ctx: ServiceContext,
  trx: Db,
  p: PaymentWithLink,
  lineId: number,
  raw: unknown,
): Promise<LineRow> {
  const l = (await scopedLines(ctx, trx).where('l.id', lineId).first()) as LineRow | undefined;
  if (!l) throw new NotFoundError(problem('reconcile_line_not_found', { id: String(raw) }));
  if (l.linked !== null && l.linked !== undefined)
    throw new ConflictError(problem('reconcile_line_linked', { id: lineId }), 'line');
  if (Number(l.amount) <= 0) throw ValidationError.single('pairs', 'reconcile_line_not_credit', { id: lineId });
  if (Number(l.amount) !== Number(p.amount))
    throw ValidationError.single('pairs', 'reconcile_amount_differs', { id: lineId });
  if (l.store_id !== null && Number(l.store_id) !== Number(p.store_id))
    throw ValidationError.single('pairs', 'reconcile_other_store', { id: lineId });
  return l;
}

/** The matcher's score for a pair a person picked (null when outside every window). */
function pairEvidence(p: PaymentRow, l: LineRow): { score: number | null; reasons: string[] } {
  const r = matchReconcile(
    [
      {
        uuid: p.uuid,
        store_id: Number(p.store_id),
        last_five: p.last_five,
        paid_at: Number(p.paid_at),
        amount: Number(p.amount),
        note: p.note ?? '',
      },
    ],
    [
      {
        id: Number(l.id),
        at: Number(l.at),
        hasTime: Boolean(l.has_time),
        amount: Number(l.amount),
        digits: l.digits,
        summary: l.summary,
        note: l.note,
      },
    ],
  );
  const found = r.auto[0] ?? r.review[0]?.candidates[0] ?? r.reviewLines[0]?.candidates[0];
  return found ? { score: found.score, reasons: inWords(found.reasons) } : { score: null, reasons: [] };
}

export async function markUnpaid(ctx: ServiceContext, rawPayments: unknown): Promise<{ marked: number }> {
  requirePermission(ctx.actor, 'confirm_payments');
  if (!Array.isArray(rawPayments) || rawPayments.length === 0 || !rawPayments.every((u) => typeof u === 'string')) {
    throw ValidationError.single('payments', 'reconcile_payments_required');
  }
  if (rawPayments.length > MAX_DECISIONS)
    throw ValidationError.single('payments', 'reconcile_too_many', { limit: MAX_DECISIONS });
  const uuids = [...new Set(rawPayments as string[])];
  return ctx.db.transaction(async (trx) => {
    await lockPayments(trx, uuids);
    const now = Date.now();
    for (const uuid of uuids) {
      const p = await paymentInScope(trx, ctx, uuid);
      if (p.bank_line_id !== null && p.bank_line_id !== undefined)
        throw new ConflictError(problem('reconcile_payment_linked'), 'payment');
      if (!reconciles(p.method))
        throw ValidationError.single('payments', 'reconcile_not_transfer', { method: p.method! });
      if (p.status === STATUS_FAILED) continue;
      await trx('payments').where({ uuid }).update({ status: STATUS_FAILED, updated_at: now });
      const before = toReconciled(p);
      await recordAudit(trx, ctx, {
        action: 'reconcile',
        entity: 'payment',
        entityId: uuid,
        before,
        after: { ...before, status: STATUS_FAILED, updated_at: toIso(now), reconcile: { unpaid: true, by: 'person' } },
      });
    }
    return { marked: uuids.length };
  });
}

export async function unlinkPayment(ctx: ServiceContext, uuid: unknown): Promise<ReconciledPayment> {
  requirePermission(ctx.actor, 'confirm_payments');
  return ctx.db.transaction(async (trx) => {
    await lockPayments(trx, [uuid]);
    const p = await paymentInScope(trx, ctx, uuid);
    const link = (await trx('bank_links').where({ payment_uuid: p.uuid }).first()) as
      | { id: number; line_id: number; status_before: PaymentStatus }
      | undefined;
    if (!link) throw new ConflictError(problem('reconcile_not_linked'), 'payment');
    const now = Date.now();
    await trx('bank_links').where({ id: link.id }).delete();
    await trx('payments').where({ uuid: p.uuid }).update({ status: link.status_before, updated_at: now });
    await unlearnLink(trx, ctx, p.uuid);
    const before = toReconciled(p);
    const after: ReconciledPayment = {
      ...before,
      status: link.status_before,
      bank_line_id: null,
      updated_at: toIso(now),
    };
    await recordAudit(trx, ctx, {
      action: 'unreconcile',
      entity: 'payment',
      entityId: p.uuid,
      before,
      after: { ...after, reconcile: { line: Number(link.line_id), by: 'person' } },
    });
    return after;
  });
}
