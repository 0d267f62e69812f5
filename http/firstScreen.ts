/**
 * 匯款記錄 drawn into the HTML of /admin itself, as the back office's megabyte of script is slow to start: plain HTML
 * the list replaces once mounted (admin/src/providers/firstScreen.ts), with the answers it would ask for.
 * The session cookie is checked as /api checks it and the rows come from the same services, so the store scope holds.
 */
import type Koa from 'koa';
import {
  formatNTD,
  formatTaipei,
  gates,
  listWords,
  methodText,
  MSG,
  PAYMENT_FIELD_LABELS as F,
  PAYMENT_LIST_LABELS as L,
  PAYMENTS_PER_PAGE,
  PAYMENTS_SORT,
  PAYMENTS_TABLE_STACK_TIMES_BELOW,
  MENU_COOKIE,
  paymentsFilterDefaults,
  paymentWords,
  scopeIsEmpty,
  SOURCE_LABELS,
  STATUS_COLORS,
  STORES_PARAMS,
  storeLabel,
  type PaymentStatus,
} from '../core/browser.js';
import {
  authenticateSession,
  listPayments,
  listStores,
  me as loadMe,
  parseListQuery,
  type AppContext,
  type ListedPayment,
  type Me,
  type Store,
} from '../core/index.js';
import { SESSION_COOKIE } from './session.js';

export const LIST_COOKIE = 'remit_list';

/** react-admin's getList parameters, as the page asks and as it compares them. */
interface ListParams {
  pagination: { page: number; perPage: number };
  sort: { field: string; order: 'ASC' | 'DESC' };
  filter: Record<string, unknown>;
}

/**
 * The `remit_list` cookie: the list's call (`q`), the count line's filter (`c`), whether the dates are the default
 * three days (`d`: then today's, whenever written) and whether the store column names the code too (`m`).
 */
interface ListCookie {
  q: ListParams;
  c: Record<string, unknown>;
  d: boolean;
  m: boolean;
}

/** The list's parameters when the page has kept none: the last three days, newest first (core/listDefaults.ts). */
function defaultCookie(): ListCookie {
  return {
    q: {
      pagination: { page: 1, perPage: PAYMENTS_PER_PAGE },
      sort: { ...PAYMENTS_SORT },
      filter: paymentsFilterDefaults(),
    },
    c: {},
    d: true,
    m: false,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The cookie, checked; undefined when absent, null when unreadable (then nothing is drawn ahead). */
function readListCookie(raw: string | undefined): ListCookie | null | undefined {
  if (!raw) return undefined;
  if (raw.length > 2000) return null;
  try {
    const v = JSON.parse(decodeURIComponent(raw));
    const q = v?.q;
    if (
      !isRecord(v) ||
      !isRecord(q) ||
      !isRecord(q.pagination) ||
      !isRecord(q.sort) ||
      !isRecord(q.filter) ||
      !isRecord(v.c)
    )
      return null;
    const { page, perPage } = q.pagination;
    const { field, order } = q.sort;
    if (
      !Number.isSafeInteger(page) ||
      !Number.isSafeInteger(perPage) ||
      (page as number) < 1 ||
      (perPage as number) < 1 ||
      (perPage as number) > 100
    )
      return null;
    if (typeof field !== 'string' || (order !== 'ASC' && order !== 'DESC')) return null;
    const out: ListCookie = {
      q: { pagination: { page: page as number, perPage: perPage as number }, sort: { field, order }, filter: q.filter },
      c: v.c,
      d: v.d === true,
      m: v.m === true,
    };
    if (out.d) out.q.filter = { ...out.q.filter, ...paymentsFilterDefaults() };
    return out;
  } catch {
    return null;
  }
}

/** A filter's keys in a fixed order, to compare two filters (admin/src/providers/dataProvider.ts listKey). */
const canonical = (filter: Record<string, unknown>) =>
  JSON.stringify(
    Object.keys(filter)
      .sort()
      .map((k) => [k, filter[k]]),
  );

/** Whether a list address asks for the kept page: the list prefers the address's parameters, so others would flash. */
function addressAgrees(kept: ListCookie, query: Record<string, string | string[] | undefined>): boolean {
  if (Object.keys(query).length === 0) return true;
  const one = (k: string) => (typeof query[k] === 'string' ? (query[k] as string) : undefined);
  let filter: unknown = {};
  try {
    filter = one('filter') === undefined ? {} : JSON.parse(one('filter')!);
  } catch {
    return false;
  }
  if (!isRecord(filter)) return false;
  const q = kept.q;
  const sort = one('sort') ?? PAYMENTS_SORT.field;
  const order = one('sort') ? one('order') : PAYMENTS_SORT.order;
  return (
    canonical({ ...filter, ...kept.c }) === canonical(q.filter) &&
    sort === q.sort.field &&
    order === q.sort.order &&
    Number(one('page') ?? 1) === q.pagination.page &&
    Number(one('perPage') ?? PAYMENTS_PER_PAGE) === q.pagination.perPage
  );
}

/** getList parameters as `GET /api/<resource>` reads them (ra-data-simple-rest's query), through the API's own parser. */
function apiQuery(p: ListParams) {
  const start = (p.pagination.page - 1) * p.pagination.perPage;
  return parseListQuery({
    sort: JSON.stringify([p.sort.field, p.sort.order]),
    range: JSON.stringify([start, start + p.pagination.perPage - 1]),
    filter: JSON.stringify(p.filter),
  });
}

interface FirstScreen {
  me: Me;
  stores: { data: Store[]; total: number };
  /** the list's call and its answer, the count line's call and its total: what the page would ask */
  list: { params: ListParams; data: ListedPayment[]; total: number };
  count: { params: ListParams; data: ListedPayment[]; total: number };
  storesParams: ListParams;
  multi: boolean;
  /** the side menu was closed at a desk (MENU_COOKIE): the list sits beside the narrow menu */
  menuClosed?: boolean;
}

/** The first page of 匯款記錄 for the session, or null (nothing to show, or any error: the page starts as usual). */
async function firstScreenData(app: AppContext, ctx: Koa.Context): Promise<FirstScreen | null> {
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token) return null;
  const kept = readListCookie(ctx.cookies.get(LIST_COOKIE));
  if (kept === null) return null;
  const cookie = kept ?? defaultCookie();
  // /admin itself opens the list on the kept page whatever its query; /admin/payments?… on its own
  if (ctx.path.replace(/\/+$/, '') !== '/admin' && !addressAgrees(cookie, ctx.query)) return null;
  try {
    const session = await authenticateSession(app, token);
    const service = { ...app, actor: session.actor, ip: ctx.ip || null, sessionId: session.sessionId };
    const user = await loadMe(service);
    if (!gates.viewPayments(user) || scopeIsEmpty(user)) return null;
    const countParams: ListParams = {
      pagination: { page: 1, perPage: 1 },
      sort: { field: 'id', order: 'DESC' },
      filter: cookie.c,
    };
    const [stores, list, count] = await Promise.all([
      listStores(service, apiQuery(STORES_PARAMS)),
      listPayments(service, apiQuery(cookie.q)),
      listPayments(service, apiQuery(countParams)),
    ]);
    return {
      me: user,
      stores: { data: stores.rows, total: stores.total },
      list: { params: cookie.q, data: list.rows as ListedPayment[], total: list.total },
      count: { params: countParams, data: count.rows as ListedPayment[], total: count.total },
      storesParams: STORES_PARAMS,
      multi: cookie.m,
      menuClosed: ctx.cookies.get(MENU_COOKIE) === 'closed',
    };
  } catch {
    return null;
  }
}

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The chip colours of the list's statuses (admin/src/backoffice/theme.ts: warning, success, error). */
const CHIP: Record<'warning' | 'success' | 'error', string> = {
  warning: 'background:#fbc02d;color:rgba(0,0,0,.87)',
  success: 'background:#2e7d32;color:#fff',
  error: 'background:#c62828;color:#fff',
};

/**
 * The back office's sizes (admin/src/backoffice/theme.ts, payments/PaymentList.tsx and PaymentCards.tsx), copied so
 * the list takes its place without a row or column moving: keep them in step.
 */
const STYLE = `<style>
#first-screen{position:absolute;top:0;left:0;right:0;min-height:100vh;background:#fafafa;font-family:system-ui,-apple-system,'Segoe UI','PingFang TC','Noto Sans TC','Microsoft JhengHei',sans-serif;color:rgba(0,0,0,.87);font-size:14px;line-height:1.43}
#first-screen~#root{position:fixed;inset:0;visibility:hidden;overflow:hidden}
.fs-bar{position:fixed;top:0;left:0;right:0;height:48px;background:#1565c0;color:#fff;display:flex;align-items:center;padding:0 16px;box-shadow:0 2px 4px -1px rgba(0,0,0,.2),0 4px 5px 0 rgba(0,0,0,.14);z-index:2}
.fs-bar h1{font-size:20px;font-weight:500;margin:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.fs-bar .page{display:none;font-size:16px;margin-left:17px}
.fs-menu{width:18px;height:2px;background:#fff;box-shadow:0 -5px #fff,0 5px #fff;margin:0 18px 0 3px;flex:none}
.fs-main{padding:318px 16px 16px}
.fs-main.short{padding-top:280px}
.fs-busy{position:absolute;top:80px;left:16px;right:16px;color:rgba(0,0,0,.6)}
.fs-grid{display:none}
.fs-cards{list-style:none;margin:0;padding:0}
.fs-card{background:#fff;border:1px solid rgba(0,0,0,.12);border-radius:4px;padding:10px;margin-bottom:8px;min-height:149px}
.fs-card .top{display:flex;align-items:baseline;gap:8px}
.fs-card .five{font-family:monospace;font-size:1.15rem;font-weight:600}
.fs-card .amt{margin-left:auto;font-weight:600;font-size:16px}
.fs-card .sub,.fs-card .by{color:rgba(0,0,0,.6)}
.fs-card .by{font-size:12px;margin-top:8px}
.fs-card .mid{display:flex;align-items:center;gap:8px;margin-top:4px;min-height:44px}
.fs-chip{display:inline-block;border-radius:12px;padding:1px 8px;font-size:13px}
#first-screen .none{color:rgba(0,0,0,.6)}
@media (min-width:600px){
.fs-bar{height:64px}.fs-bar .page{display:inline}
.fs-main,.fs-main.short{padding:201px 8px 8px}.fs-busy{top:96px;left:8px}
.fs-box{container-type:inline-size}
.fs-grid th,.fs-grid td{box-sizing:border-box;padding:0 4px;height:28px;line-height:1.2;white-space:nowrap;text-align:left;border-bottom:1px solid rgba(224,224,224,1);font-weight:400}
.fs-grid th{font-weight:500}
.fs-grid td.note{white-space:normal;width:30%}.fs-grid .num{text-align:right}.fs-grid .five{font-family:monospace;font-size:.95rem}
.fs-grid .store,.fs-grid .who{display:block;max-width:8em;overflow:hidden;text-overflow:ellipsis}.fs-grid .who{max-width:5em}
.fs-grid .pad{display:inline-block;width:28px}.fs-grid .tick{padding:0 4px;width:32px}.fs-grid .tick .pad{width:24px}
.fs-grid .st{display:inline-block;width:81px}.fs-grid .act{display:inline-block;width:66px}.fs-grid .ln{display:inline-block;width:73px}.fs-grid .un{display:inline-block;width:64px}
@container (width < ${PAYMENTS_TABLE_STACK_TIMES_BELOW}px){.fs-grid td.t span{display:block;width:min-content;white-space:normal;font-size:13px;line-height:13.5px}}
}
@media (min-width:1200px){
.fs-cards{display:none}.fs-grid{display:table;border-collapse:collapse;width:100%;background:#fff}
}
@media (min-width:900px){.fs-main,.fs-main.short{padding-left:248px}.fs-busy{left:248px}.fs-main.closed{padding-left:58px}.closed .fs-busy{left:58px}}
</style>`;

/** The markup: table and cards (the width shows one), and the answers in a JSON block (never run; `<` escaped). */
function firstScreenHtml(fs: FirstScreen, title: string): string {
  const byId = new Map(fs.stores.data.map((s) => [s.id, s]));
  const storeName = (id: number) => {
    if (fs.stores.data.length === 0) return '';
    const s = byId.get(id);
    return fs.multi ? storeLabel(s) : (s?.name ?? storeLabel(s));
  };
  const time = (iso: string) => formatTaipei(Date.parse(iso));
  // 無備註 in grey as the list writes it, at a readable contrast (5.7:1)
  const note = (text: string) => (text ? esc(text) : `<span class="none">${esc(MSG.noNote)}</span>`);
  const chip = (status: string) =>
    `<span class="fs-chip" style="${CHIP[STATUS_COLORS[status as PaymentStatus] ?? 'warning']}">${esc(status)}</span>`;
  const showStore = fs.stores.data.length > 0;
  // the list's checkboxes, status menu with 確認入帳 and delete buttons take room: the same room here, so no column moves
  const canEdit = gates.editPayments(fs.me);
  const canDelete = gates.deletePayments(fs.me);
  const ticks = canDelete || canEdit;
  const pad = '<span class="pad"></span>';
  // the status cell as the list draws it: a linked payment's label (and 取消對帳), else the menu and 確認入帳 while not 已入帳
  const status = (r: ListedPayment) => {
    if (r.bank_line_id !== null && r.bank_line_id !== undefined)
      return `<span class="ln">${chip(r.status)}</span>${canEdit ? '<span class="un"></span>' : ''}`;
    if (!canEdit) return chip(r.status);
    return `<span class="st">${chip(r.status)}</span>${r.status === '已入帳' ? '' : '<span class="act"></span>'}`;
  };
  const tick = `<td class="tick">${pad}</td>`;
  const words = listWords(fs.list.params.filter);
  const head = [
    L.lastFive,
    words.time,
    words.amount,
    F.method,
    ...(showStore ? [F.store_id] : []),
    F.status,
    F.note,
    F.source,
    L.submitter,
    F.created_at,
  ];
  const rows = fs.list.data
    .map(
      (r) =>
        `<tr class="first-screen-row">${ticks ? tick : ''}<td class="five">${esc(r.last_five)}</td><td class="t"><span>${esc(time(r.paid_at))}</span></td><td class="num">${esc(formatNTD(r.amount))}</td><td>${esc(methodText(r))}</td>` +
        `${showStore ? `<td><span class="store">${esc(storeName(r.store_id))}</span></td>` : ''}<td>${status(r)}</td><td class="note">${note(r.note)}</td><td>${esc(SOURCE_LABELS[r.source] ?? SOURCE_LABELS.staff)}</td>` +
        `<td><span class="who" title="${esc(r.created_by_username ?? '—')}">${esc(r.created_by_username ?? '—')}</span></td><td class="t"><span>${esc(time(r.created_at))}</span></td>${canDelete ? `<td>${pad}</td>` : ''}</tr>`,
    )
    .join('');
  const cards = fs.list.data
    .map((r) => {
      const sub = [time(r.paid_at), r.last_five ? methodText(r) : '', storeName(r.store_id)]
        .filter(Boolean)
        .join(' · ');
      return (
        `<li class="fs-card first-screen-row"><div class="top"><span class="five" aria-label="${esc(F.last_five)}">${esc(r.last_five || methodText(r))}</span><span class="amt" aria-label="${esc(paymentWords(r.method).amount)}">${esc(formatNTD(r.amount))}</span></div>` +
        `<div class="sub">${esc(sub)}</div><div class="mid">${chip(r.status)}<span>${note(r.note)}</span></div>` +
        `<div class="by">${esc(SOURCE_LABELS[r.source] ?? SOURCE_LABELS.staff)} · ${esc(L.submitter)} ${esc(r.created_by_username ?? '—')} · ${esc(time(r.created_at))}</div></li>`
      );
    })
    .join('');
  const data = JSON.stringify({
    me: fs.me,
    stores: { params: fs.storesParams, ...fs.stores },
    list: fs.list,
    count: fs.count,
  }).replace(/</g, '\\u003c');
  return (
    `<div id="first-screen" aria-busy="true">${STYLE}<header class="fs-bar"><span class="fs-menu"></span><h1>${esc(title)}</h1><span class="page">${esc(L.title)}</span></header>` +
    // on a phone the list's buttons take two lines for those who import and export everything, else one
    `<main class="fs-main${gates.managePayments(fs.me) ? '' : ' short'}${fs.menuClosed ? ' closed' : ''}"><p class="fs-busy" role="status">${esc(L.loading)}</p>` +
    (fs.list.data.length
      ? `<div class="fs-box"><table class="fs-grid" aria-label="${esc(L.title)}"><thead><tr>${ticks ? tick : ''}${head.map((h) => `<th scope="col"${h === words.amount ? ' class="num"' : ''}>${esc(h)}</th>`).join('')}${canDelete ? `<th scope="col">${esc(L.actions)}</th>` : ''}</tr></thead><tbody>${rows}</tbody></table></div>` +
        `<ul class="fs-cards" aria-label="${esc(L.title)}">${cards}</ul>`
      : '') +
    `</main></div><script type="application/json" id="first-screen-data">${data}</script>`
  );
}

/** The first screen of /admin for `spa` (http/static.ts): the markup for this request, or null. */
export function firstScreenFor(app: AppContext, title: string): (ctx: Koa.Context) => Promise<string | null> {
  return async (ctx) => {
    const data = await firstScreenData(app, ctx);
    return data && firstScreenHtml(data, title);
  };
}
