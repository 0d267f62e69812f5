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

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const PRICES = [350, 500, 500, 650, 800, 800, 1000, 1000, 1000, 1200, 1500, 1500, 1800, 2000, 2000, 2500, 3000, 3600];

export interface Truth {
  reports: ReconcileReport[];
  lines: ReconcileLine[];
  coverage: { from: number; to: number };
  /** report uuid → the one line that pays it (plain pairs only) */
  pair: Map<string, number>;
  /** reports that were paid, one way or another (plain, split or combined) */
  paid: Set<string>;
  /** split and combined payments: the reports and the credits that go together */
  groups: Array<{ payments: string[]; lines: number[] }>;
}

function rng(seed: number) {
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

/** `months` months from November 2026 (a year starts in December 2025), about `perDay` reports a day */
export function generate(opts: { months: number; perDay?: number; seed?: number }): Truth {
  const rand = rng(opts.seed ?? 20261123);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const perDay = opts.perDay ?? 50;

  const startMonth = 11 - (opts.months - 1);
  const from = tw(2026, startMonth, 1); // Date.UTC handles month ≤ 0 as the year before
  const to = tw(2026, 12, 1);
  // the accountant downloads the statement a few days after the period
  const coverage = { from, to: to + 3 * DAY - 1 };
  const genFrom = from - 3 * DAY; // transfers before the period post inside it

  const customers = Array.from({ length: 400 * opts.months + 200 }, () => {
    const account = String(int(1, 9)) + Array.from({ length: 13 }, () => int(0, 9)).join('');
    return { account, regular: rand() < 0.15, next: genFrom + int(0, 14) * DAY, price: pick(PRICES), name: pick(['王', '李', '張', '陳', '林', '黃', '吳']) + pick(['小明', '美玲', '志強', '淑芬', '家豪', '怡君']) };
  });
  const regulars = customers.filter((c) => c.regular);
  const occasional = customers.filter((c) => !c.regular);

  const reports: ReconcileReport[] = [];
  const lines: ReconcileLine[] = [];
  const pair = new Map<string, number>();
  const paid = new Set<string>();
  const groups: Truth['groups'] = [];
  const stores = [1, 2, 3, 4, 5];
  const dateOnly = new Set([5]); // this store's bank exports dates only (as 中國信託's older export)
  let uuid = 0;
  let lineId = 0;

  /** when the bank books a transfer made at `at` */
  function posting(at: number): number {
    const r = rand();
    if (r < 0.85) return at + int(0, 2) * MIN;
    const wd = weekday(at);
    const hour = new Date(at + 8 * HOUR).getUTCHours();
    if (r < 0.93 && wd >= 1 && wd <= 5 && hour < 15) return at + int(30, 180) * MIN;
    // next business day, in the morning
    let day = dayStart(at) + DAY;
    while (weekday(day) === 0 || weekday(day) === 6) day += DAY;
    return day + int(9 * 60, 10 * 60 + 30) * MIN;
  }
  function counterparty(account: string): string {
    const r = rand();
    if (r < 0.6) return account.slice(-int(5, 14));
    if (r < 0.95) return account.slice(-int(3, 4));
    return ''; // a name instead of the account
  }
  function credit(store: number, at: number, amount: number, digits: string, note = ''): number {
    const id = ++lineId;
    const booked = dateOnly.has(store) ? dayStart(at) : at;
    lines.push({ id, at: booked, hasTime: !dateOnly.has(store), amount, digits, summary: digits ? '跨行轉入' : pick(['現金存款', '無摺存入', '轉入']), note });
    return id;
  }
  function reportedTime(at: number): number {
    const r = rand();
    const minute = Math.floor(at / MIN) * MIN;
    if (r < 0.7) return minute + int(-3, 3) * MIN;
    if (r < 0.9) return minute + int(5, 60) * MIN;
    if (r < 0.99) return minute + int(60, 360) * MIN;
    return minute + (rand() < 0.5 ? -DAY : DAY);
  }
  function reportedFive(account: string): string {
    const five = account.slice(-5);
    const r = rand();
    if (r < 0.03) {
      const k = int(0, 4);
      return five.slice(0, k) + String((Number(five[k]) + int(1, 9)) % 10) + five.slice(k + 1);
    }
    if (r < 0.04) {
      const k = int(0, 3);
      return five.slice(0, k) + five[k + 1] + five[k] + five.slice(k + 2);
    }
    if (r < 0.05) return String(int(10000, 99999));
    return five;
  }
  const report = (store: number, at: number, amount: number, five: string, note = '') => {
    const r = { uuid: `r${++uuid}`, store_id: store, last_five: five, paid_at: reportedTime(at), amount, note };
    return r;
  };

  for (let day = dayStart(genFrom); day < to + 3 * DAY; day += DAY) {
    const inPeriod = day >= from && day < to;
    const n = Math.round(perDay * (0.8 + 0.4 * rand()) * (weekday(day) === 0 || weekday(day) === 6 ? 1.2 : 1));
    // regulars come back every 3 to 14 days; the rest of the day's orders are occasional customers
    const due = regulars.filter((c) => c.next <= day);
    for (const c of due) c.next = day + int(3, 14) * DAY;
    for (let k = 0; k < n; k++) {
      const store = pick(stores);
      const customer = k < due.length ? due[k] : pick(occasional);
      const at = day + int(10 * 60, 23 * 60) * MIN + int(0, 59) * 1000;
      const amount = customer.regular && rand() < 0.7 ? customer.price : pick(PRICES);
      const cash = rand() < 0.03; // an ATM cash deposit shows no account
      const digits = cash ? '' : counterparty(customer.account);
      const note = rand() < 0.05 ? customer.name : '';
      const kind = rand();
      const keep = (r: ReconcileReport) => {
        if (inPeriod && r.paid_at >= from && r.paid_at < to) reports.push(r);
        return r;
      };
      if (kind < 0.02) {
        // reported, never paid
        keep(report(store, at, amount, customer.account.slice(-5), note));
      } else if (kind < 0.04) {
        // a customer who paid and never reported
        credit(store, posting(at), amount, digits);
      } else if (kind < 0.05) {
        // split into two transfers from the same account
        const part = Math.round((amount * int(3, 7)) / 10 / 50) * 50 || 50;
        const r = keep(report(store, at, amount, reportedFive(customer.account), note));
        const a = credit(store, posting(at), part, digits);
        const b = credit(store, posting(at + int(1, 10) * MIN), amount - part, counterparty(customer.account));
        paid.add(r.uuid);
        groups.push({ payments: [r.uuid], lines: [a, b] });
      } else if (kind < 0.06) {
        // two or three orders paid with one transfer
        const orders = Array.from({ length: int(2, 3) }, () => pick(PRICES));
        const five = reportedFive(customer.account);
        const rs = orders.map((a, j) => keep(report(store, at + j * int(0, 3) * MIN, a, five)));
        const id = credit(store, posting(at), orders.reduce((s, a) => s + a, 0), digits);
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
    for (let k = 0; k < 3; k++) if (rand() < 0.4) credit(pick(stores), day + int(9 * 60, 17 * 60) * MIN, int(1, 400) * 25 + int(0, 3), rand() < 0.5 ? String(int(100, 99999)) : '', '');
  }
  // the statement holds only what was booked inside its coverage; reports outside the period are not asked about
  const inCoverage = lines.filter((l) => l.at >= coverage.from && l.at <= coverage.to);
  const kept = new Set(inCoverage.map((l) => l.id));
  for (const [u, id] of pair) if (!kept.has(id)) pair.delete(u);
  const asked = new Set(reports.map((r) => r.uuid));
  for (const u of pair.keys()) if (!asked.has(u)) pair.delete(u);
  const complete = groups.filter((g) => g.payments.every((u) => asked.has(u)) && g.lines.every((id) => kept.has(id)));
  return { reports, lines: inCoverage, coverage, pair, paid, groups: complete };
}

export interface Score {
  reports: number;
  lines: number;
  auto: number;
  precision: number;
  recall: number;
  reviewFirst: number;
  falseUnpaid: number;
  suggestions: number;
  /** suggestions that are exactly a split or combined payment */
  suggestionsRight: number;
  groups: number;
}

const same = <T>(a: T[], b: T[]) => a.length === b.length && a.every((x) => b.includes(x));

/** The figures the issue asks for, against the ground truth. */
export function score(
  t: Truth,
  res: {
    auto: { payment: string; line: number }[];
    review: { payment: string; candidates: { line: number }[] }[];
    unpaid: { payment: string }[];
    suggestions: { payments: string[]; lines: number[] }[];
  },
): Score {
  const right = res.auto.filter((a) => t.pair.get(a.payment) === a.line).length;
  const autoPaid = new Set(res.auto.map((a) => a.payment));
  const first = new Map(res.review.map((r) => [r.payment, r.candidates[0]?.line]));
  let remaining = 0;
  let rankedFirst = 0;
  for (const [u, id] of t.pair) {
    if (autoPaid.has(u)) continue;
    remaining++;
    if (first.get(u) === id) rankedFirst++;
  }
  return {
    reports: t.reports.length,
    lines: t.lines.length,
    auto: res.auto.length,
    precision: res.auto.length ? right / res.auto.length : 1,
    recall: t.pair.size ? right / t.pair.size : 1,
    reviewFirst: remaining ? rankedFirst / remaining : 1,
    falseUnpaid: res.unpaid.filter((u) => t.paid.has(u.payment)).length / t.reports.length,
    suggestions: res.suggestions.length,
    suggestionsRight: res.suggestions.filter((s) => t.groups.some((g) => same(g.payments, s.payments) && same(g.lines, s.lines))).length,
    groups: t.groups.length,
  };
}
