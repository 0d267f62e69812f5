/**
 * A seeded synthetic month (or year) of remittance reports and the bank credits that pay them,
 * with the ground truth, for the reconciliation scenario of `npm run bench`. Built from how shops
 * and banks behave, not from how the matcher decides:
 * - 5 stores, about 50 reports a day, amounts from a short price list (so many are equal), regular
 *   customers who come back every 3 to 14 days and mostly pay the same amount again;
 * - the reported time: mostly the minute on the customer's screen, sometimes the time the staff
 *   typed it in (minutes to hours later), rarely the wrong day;
 * - posting: most transfers are instant; some inter-bank transfers post later that day, or, after
 *   15:30 and on weekends, the next business day in the morning; cash deposits at an ATM (3%) show
 *   no account;
 * - one of the five banks exports dates without times (as 中國信託's older export does);
 * - the counterparty: the whole account (60%), a masked one showing 3–4 digits (35%), or a name
 *   only (5%);
 * - typos in the reported last five (one digit, two swapped, or a wrong account), reports never
 *   paid, credits nobody reported (other income, customers who never reported), a payment split
 *   into two transfers, two or three orders paid with one transfer.
 */
import type { ReconcileLine, ReconcileReport } from '../core/reconcile/types.js';
import { DEFAULT_KNOBS, type MonthKnobs } from './reconcile-knobs.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const PRICES = [350, 500, 500, 650, 800, 800, 1000, 1000, 1000, 1200, 1500, 1500, 1800, 2000, 2000, 2500, 3000, 3600];

/** A month (or year) with its ground truth, as the sweep scores it: both generators give this shape. */
export interface Truth {
  name?: string;
  /** every report of the generated span: the period's and, around it, those whose credits the statement may hold */
  reports: ReconcileReport[];
  lines: ReconcileLine[];
  /** the month asked about: [from, to) */
  period: { from: number; to: number };
  /** every report made in this span is in `reports` */
  reportsCover: { from: number; to: number };
  coverage: { from: number; to: number };
  /** report uuid → the one line that pays it (plain pairs only) */
  pair: Map<string, number>;
  /** reports that were paid, one way or another (plain, split or combined) */
  paid: Set<string>;
  /** reports never paid */
  unpaid: Set<string>;
  /** credits no report explains */
  unreported: Set<number>;
  /** split and combined payments: the reports and the credits that go together */
  groups: Array<{ payments: string[]; lines: number[] }>;
  /**
   * paid reports whose amount was mistyped (generator C): no credit of the reported amount exists,
   * so listing one as unpaid is what the accountant needs to see; it counts as neither found nor false
   */
  amountTypos?: Set<string>;
}

export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Taiwan wall clock → instant */
const tw = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h - 8, min);
const weekday = (at: number) => new Date(at + 8 * HOUR).getUTCDay();
const dayStart = (at: number) => Math.floor((at + 8 * HOUR) / DAY) * DAY - 8 * HOUR;

/** the price list: the default 18 (with repeats, so some amounts are far more common), fewer, or many more */
function priceList(n: number, rand: () => number): number[] {
  if (n <= PRICES.length) return PRICES.slice(0, Math.max(1, Math.round(n)));
  const out = [...PRICES];
  while (out.length < n)
    out.push(Math.round((200 + rand() * 9800) / (rand() < 0.5 ? 10 : 1)) * (rand() < 0.5 ? 10 : 1));
  return out;
}

/**
 * `months` months ending with November 2026 (a year starts in December 2025), with the habits of
 * `knobs` (bench/reconcile-knobs.ts; the defaults are the month the matcher was first built on).
 */
export function generate(opts: { months: number; perDay?: number; seed?: number; knobs?: Partial<MonthKnobs> }): Truth {
  const k: MonthKnobs = { ...DEFAULT_KNOBS, ...opts.knobs, ...(opts.perDay ? { perDay: opts.perDay } : {}) };
  const rand = rng(opts.seed ?? 20261123);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const prices = priceList(k.amountDiversity, rand);

  const startMonth = 11 - (opts.months - 1);
  const from = tw(2026, startMonth, 1); // Date.UTC handles month ≤ 0 as the year before
  const to = tw(2026, 12, 1);
  // the accountant downloads the statement a few days after the period
  const coverage = { from, to: to + 3 * DAY - 1 };
  const genFrom = from - 6 * DAY; // transfers before the period post inside it
  const genTo = to + 5 * DAY;

  const customers = Array.from({ length: 400 * opts.months + 200 }, () => {
    const account = String(int(1, 9)) + Array.from({ length: 13 }, () => int(0, 9)).join('');
    return {
      account,
      regular: rand() < k.regularShare,
      next: genFrom + int(0, 14) * DAY,
      price: pick(prices),
      name: pick(['王', '李', '張', '陳', '林', '黃', '吳']) + pick(['小明', '美玲', '志強', '淑芬', '家豪', '怡君']),
    };
  });
  // customers who share their last five with another customer
  for (let i = 1; i < customers.length; i++) {
    if (rand() < k.sharedLastFive) {
      const other = customers[int(0, i - 1)];
      customers[i].account = customers[i].account.slice(0, 9) + other.account.slice(-5);
    }
  }
  const regulars = customers.filter((c) => c.regular);
  const occasional = customers.filter((c) => !c.regular);
  if (occasional.length === 0) occasional.push(...customers);

  const reports: ReconcileReport[] = [];
  const lines: ReconcileLine[] = [];
  const pair = new Map<string, number>();
  const paid = new Set<string>();
  const unpaid = new Set<string>();
  const unreported = new Set<number>();
  const groups: Truth['groups'] = [];
  const stores = Array.from({ length: k.stores }, (_, i) => i + 1);
  const dateOnly = new Set(k.stores >= 5 ? [5] : []); // this store's bank exports dates only (as 中國信託's older export)
  let uuid = 0;
  let lineId = 0;

  /** when the bank books a transfer made at `at` */
  function posting(at: number): number {
    const r = rand();
    const late = Math.min(0.9, 0.15 * k.bookingDelay);
    if (r >= late) return at + int(0, 2) * MIN;
    const wd = weekday(at);
    const hour = new Date(at + 8 * HOUR).getUTCHours();
    if (r < late * 0.53 && wd >= 1 && wd <= 5 && hour < 15)
      return at + int(30, 180 * Math.max(1, k.bookingDelay)) * MIN;
    // next business day, in the morning (a slow bank: sometimes the day after)
    let day = dayStart(at) + DAY;
    while (weekday(day) === 0 || weekday(day) === 6) day += DAY;
    if (k.bookingDelay > 1 && rand() < (k.bookingDelay - 1) * 0.3) {
      day += DAY;
      while (weekday(day) === 0 || weekday(day) === 6) day += DAY;
    }
    return day + int(9 * 60, 10 * 60 + 30) * MIN;
  }
  function counterparty(account: string): string {
    const r = rand() * (k.masking.whole + k.masking.masked + k.masking.none);
    if (r < k.masking.whole) return account.slice(-int(5, 14));
    if (r < k.masking.whole + k.masking.masked) return account.slice(-int(3, 4));
    return ''; // a name instead of the account
  }
  function credit(store: number, at: number, amount: number, digits: string, note = ''): number {
    const id = ++lineId;
    const booked = dateOnly.has(store) ? dayStart(at) : at;
    lines.push({
      id,
      at: booked,
      hasTime: !dateOnly.has(store),
      amount,
      digits,
      summary: digits ? '跨行轉入' : pick(['現金存款', '無摺存入', '轉入']),
      note,
      source: `store:${store}`,
    });
    return id;
  }
  function reportedTime(at: number): number {
    const r = rand();
    const minute = Math.floor(at / MIN) * MIN;
    const e = k.reportTimeError;
    if (e === 0) return minute;
    if (r < 1 - 0.3 * e) return minute + int(-3, 3) * MIN;
    if (r < 1 - 0.1 * e) return minute + int(5, 60) * MIN;
    if (r < 1 - 0.01 * e * e) return minute + int(60, 360 * e) * MIN;
    return minute + (rand() < 0.5 ? -DAY : DAY);
  }
  function reportedFive(account: string): string {
    const five = account.slice(-5);
    const r = rand();
    if (r < k.typoRate) {
      const j = int(0, 4);
      return five.slice(0, j) + String((Number(five[j]) + int(1, 9)) % 10) + five.slice(j + 1);
    }
    if (r < k.typoRate + k.swapRate) {
      const j = int(0, 3);
      if (five[j] !== five[j + 1]) return five.slice(0, j) + five[j + 1] + five[j] + five.slice(j + 2);
      return five;
    }
    if (r < k.typoRate + k.swapRate + 0.01) return String(int(10000, 99999)); // paid from a family member's account
    return five;
  }
  const report = (store: number, at: number, amount: number, five: string, note = '') => {
    const r = { uuid: `r${++uuid}`, store_id: store, last_five: five, paid_at: reportedTime(at), amount, note };
    return r;
  };
  const keep = (r: ReconcileReport) => {
    if (r.paid_at >= genFrom && r.paid_at < genTo) reports.push(r);
    return r;
  };

  const unpaidAt = k.unpaid;
  const unreportedAt = unpaidAt + k.unreported;
  const splitAt = unreportedAt + k.split;
  const combinedAt = splitAt + k.combined;
  for (let day = dayStart(genFrom); day < genTo; day += DAY) {
    const n = Math.round(k.perDay * (0.8 + 0.4 * rand()) * (weekday(day) === 0 || weekday(day) === 6 ? 1.2 : 1));
    // regulars come back every 3 to 14 days; the rest of the day's orders are occasional customers
    const due = regulars.filter((c) => c.next <= day);
    for (const c of due) c.next = day + int(3, 14) * DAY;
    for (let j = 0; j < n; j++) {
      const store = pick(stores);
      const customer = j < due.length ? due[j] : pick(occasional);
      const at = day + int(10 * 60, 23 * 60) * MIN + int(0, 59) * 1000;
      const amount = customer.regular && rand() < 0.7 ? customer.price : pick(prices);
      const cash = rand() < 0.03; // an ATM cash deposit shows no account
      const digits = cash ? '' : counterparty(customer.account);
      const note = rand() < 0.05 ? customer.name : '';
      const kind = rand();
      if (kind < unpaidAt) {
        // reported, never paid
        unpaid.add(keep(report(store, at, amount, customer.account.slice(-5), note)).uuid);
      } else if (kind < unreportedAt) {
        // a customer who paid and never reported
        unreported.add(credit(store, posting(at), amount, digits));
      } else if (kind < splitAt) {
        // split into two transfers from the same account
        const part = Math.round((amount * int(3, 7)) / 10 / 50) * 50 || 50;
        const r = keep(report(store, at, amount, reportedFive(customer.account), note));
        const a = credit(store, posting(at), part, digits);
        const b = credit(store, posting(at + int(1, 10) * MIN), amount - part, counterparty(customer.account));
        paid.add(r.uuid);
        groups.push({ payments: [r.uuid], lines: [a, b] });
      } else if (kind < combinedAt) {
        // two or three orders paid with one transfer
        const orders = Array.from({ length: int(2, 3) }, () => pick(prices));
        const five = reportedFive(customer.account);
        const rs = orders.map((a, i) => keep(report(store, at + i * int(0, 3) * MIN, a, five)));
        const id = credit(
          store,
          posting(at),
          orders.reduce((s, a) => s + a, 0),
          digits,
        );
        rs.forEach((r) => paid.add(r.uuid));
        groups.push({ payments: rs.map((r) => r.uuid), lines: [id] });
      } else {
        const r = keep(report(store, at, amount, reportedFive(customer.account), note));
        const id = credit(store, posting(at), amount, digits, note && rand() < 0.5 ? `${note} 貨款` : '');
        pair.set(r.uuid, id);
        paid.add(r.uuid);
      }
    }
    // other income: interest, refunds, transfers between the business's accounts
    for (let j = 0; j < 3; j++)
      if (rand() < 0.4)
        unreported.add(
          credit(
            pick(stores),
            day + int(9 * 60, 17 * 60) * MIN,
            int(1, 400) * 25 + int(0, 3),
            rand() < 0.5 ? String(int(100, 99999)) : '',
            '',
          ),
        );
  }
  // the statement holds only what was booked inside its coverage
  const inCoverage = lines.filter((l) => l.at >= coverage.from && l.at <= coverage.to);
  const kept = new Set(inCoverage.map((l) => l.id));
  const asked = new Set(reports.map((r) => r.uuid));
  for (const [u, id] of pair) if (!kept.has(id) || !asked.has(u)) pair.delete(u);
  for (const id of unreported) if (!kept.has(id)) unreported.delete(id);
  // a credit whose report falls outside the generated span is nobody's in these data
  const explained = new Set([
    ...pair.values(),
    ...groups.flatMap((g) => (g.payments.some((u) => asked.has(u)) ? g.lines : [])),
  ]);
  for (const l of inCoverage) if (!explained.has(l.id)) unreported.add(l.id);
  const complete = groups.filter((g) => g.payments.every((u) => asked.has(u)) && g.lines.every((id) => kept.has(id)));
  return {
    reports,
    lines: inCoverage,
    period: { from, to },
    reportsCover: { from: genFrom + DAY, to: genTo - DAY },
    coverage,
    pair,
    paid,
    unpaid,
    unreported,
    groups: complete,
  };
}

export interface Score {
  reports: number;
  lines: number;
  auto: number;
  /** automatic pairs whose line shows digits that disagree with the last five (the goal: none) */
  autoDigitsDisagree: number;
  precision: number;
  recall: number;
  reviewFirst: number;
  reviewTop3: number;
  /** true unpaid reports whose window the statement covers, and how many of them are listed */
  unpaidTrue: number;
  unpaidFound: number;
  /** paid reports listed as unpaid, as a share of the period's reports */
  falseUnpaid: number;
  /** true unreported credits whose every possible report is known, how many are listed, and the list's length */
  unreportedTrue: number;
  unreportedFound: number;
  unreportedListed: number;
  suggestions: number;
  /** suggestions that are exactly a split or combined payment */
  suggestionsRight: number;
  groups: number;
}

const same = <T>(a: T[], b: T[]) => a.length === b.length && a.every((x) => b.includes(x));

/** What the bench asks of the statement before it counts an unpaid or unreported as findable: one day before, three and a half after. */
export const FINDABLE = { before: DAY, after: 3.5 * DAY };

/** The figures the issue asks for, against the ground truth, over the period's reports. */
export function score(
  t: Truth,
  res: {
    auto: { payment: string; line: number }[];
    review: { payment: string; candidates: { line: number }[] }[];
    unpaid: { payment: string }[];
    unreported: { line: number }[];
    suggestions: { payments: string[]; lines: number[] }[];
  },
): Score {
  const inPeriod = (r: ReconcileReport) => r.paid_at >= t.period.from && r.paid_at < t.period.to;
  const period = t.reports.filter(inPeriod);
  const asked = new Set(period.map((r) => r.uuid));
  const reportOf = new Map(t.reports.map((r) => [r.uuid, r]));
  const lineOf = new Map(t.lines.map((l) => [l.id, l]));
  const pairs = [...t.pair].filter(([u]) => asked.has(u));
  const auto = res.auto.filter((a) => asked.has(a.payment));
  const right = auto.filter((a) => t.pair.get(a.payment) === a.line).length;
  const disagree = auto.filter((a) => {
    const d = lineOf.get(a.line)?.digits ?? '';
    const five = reportOf.get(a.payment)!.last_five;
    const n = Math.min(d.length, 5);
    return n > 0 && d.slice(-n) !== five.slice(-n);
  }).length;
  const autoPaid = new Set(auto.map((a) => a.payment));
  const cands = new Map(res.review.map((r) => [r.payment, r.candidates]));
  let remaining = 0;
  let rankedFirst = 0;
  let top3 = 0;
  for (const [u, id] of pairs) {
    if (autoPaid.has(u)) continue;
    remaining++;
    const c = cands.get(u) ?? [];
    if (c[0]?.line === id) rankedFirst++;
    if (c.slice(0, 3).some((x) => x.line === id)) top3++;
  }
  const findable = (at: number) => at - FINDABLE.before >= t.coverage.from && at + FINDABLE.after <= t.coverage.to;
  const unpaidTrue = period.filter((r) => t.unpaid.has(r.uuid) && findable(r.paid_at)).map((r) => r.uuid);
  const listedUnpaid = new Set(res.unpaid.map((u) => u.payment));
  const known = (at: number) =>
    at - FINDABLE.after - DAY >= t.reportsCover.from && at + FINDABLE.before + DAY <= t.reportsCover.to;
  // credits of the period, as reports of the period: those around it are context, never listed
  const lineInPeriod = (at: number) => at >= t.period.from && at < t.period.to;
  const unreportedTrue = t.lines
    .filter((l) => l.amount > 0 && t.unreported.has(l.id) && known(l.at) && lineInPeriod(l.at))
    .map((l) => l.id);
  const listedUnreported = new Set(res.unreported.map((u) => u.line));
  return {
    reports: period.length,
    lines: t.lines.length,
    auto: auto.length,
    autoDigitsDisagree: disagree,
    precision: auto.length ? right / auto.length : 1,
    recall: pairs.length ? right / pairs.length : 1,
    reviewFirst: remaining ? rankedFirst / remaining : 1,
    reviewTop3: remaining ? top3 / remaining : 1,
    unpaidTrue: unpaidTrue.length,
    unpaidFound: unpaidTrue.filter((u) => listedUnpaid.has(u)).length,
    falseUnpaid: period.length
      ? res.unpaid.filter((u) => t.paid.has(u.payment) && !t.amountTypos?.has(u.payment)).length / period.length
      : 0,
    unreportedTrue: unreportedTrue.length,
    unreportedFound: unreportedTrue.filter((id) => listedUnreported.has(id)).length,
    unreportedListed: res.unreported.length,
    suggestions: res.suggestions.length,
    suggestionsRight: res.suggestions.filter((s) =>
      t.groups.some((g) => same(g.payments, s.payments) && same(g.lines, s.lines)),
    ).length,
    groups: t.groups.filter((g) => g.payments.some((u) => asked.has(u))).length,
  };
}
