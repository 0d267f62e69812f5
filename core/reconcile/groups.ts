/** The matcher's second pass over what the assignment left: groups, suggested (never confirmed), kept off unpaid. */
import { DAY_MS, taipeiDayNumber } from '../time.js';
import { compareDigits, mayPay } from './evidence.js';
import { firstAtOrAfter } from './lineIndex.js';
import type { MatchResult } from './match.js';
import type { Reason } from './reasons.js';
import type { ReconcileLine, ReconcileReport } from './types.js';

export type GroupReason =
  | 'larger credit showing the last five'
  | 'larger credit of this and the customer’s other orders'
  | 'split, showing the last five'
  | 'split, digitless and close';

interface FoundGroup {
  reason: GroupReason;
  reports: number[];
  lines: number[];
}

interface Month {
  reports: ReconcileReport[];
  lines: ReconcileLine[];
  before: number;
  after: number;
}

type Used = { reports: Set<number>; lines: Set<number> };

const TWO_HOURS = 2 * 3_600_000;
const THREE_HOURS = 3 * 3_600_000;

export function secondPass(
  m: Month,
  assigned: { partner: Int32Array; owner: Int32Array },
  coverable: Uint8Array,
  time: (r: ReconcileReport, l: ReconcileLine) => number,
) {
  const { reports, lines } = m;
  const reportLeft = reports.map((_, ri) => ri).filter((ri) => assigned.partner[ri] < 0);
  const lineLeft = lines.map((_, li) => li).filter((li) => assigned.owner[li] < 0 && lines[li].amount > 0);
  const suggested: Used = { reports: new Set<number>(), lines: new Set<number>() };
  const suggestions = suggest(m, reportLeft, lineLeft, suggested);
  const left = reportLeft.filter((ri) => !suggested.reports.has(ri) && coverable[ri]);
  const found = mayBeGrouped(m, left, lineLeft, time);
  const groupable = new Map([...found].map(([ri, g]) => [ri, g.reason]));
  return { suggestions: suggestions.concat(suggestGroups(m, found, suggested)), suggested, groupable };
}

/** Groups found are suggested too, so their credits are not unreported; another order joins while it fits. */
function suggestGroups(
  { reports, lines }: Month,
  found: Map<number, FoundGroup>,
  suggested: Used,
): MatchResult['suggestions'] {
  const made: FoundGroup[] = [];
  for (const g of found.values()) {
    if (!suggestible(g, reports, lines)) continue;
    if (g.lines.some((li) => suggested.lines.has(li))) {
      const same =
        g.lines.length === 1 ? made.find((m) => m.lines.length === 1 && m.lines[0] === g.lines[0]) : undefined;
      const join = same ? g.reports.filter((ri) => !same.reports.includes(ri) && !suggested.reports.has(ri)) : [];
      if (!same || join.length === 0) continue;
      const sum = [...same.reports, ...join].reduce((t, ri) => t + reports[ri].amount, 0);
      if (sum > lines[same.lines[0]].amount) continue;
      same.reports.push(...join);
      join.forEach((ri) => suggested.reports.add(ri));
      continue;
    }
    g.reports.forEach((ri) => suggested.reports.add(ri));
    g.lines.forEach((li) => suggested.lines.add(li));
    made.push({ ...g, reports: [...g.reports] });
  }
  return made.map((g) => {
    g.reports.sort((x, y) => reports[x].paid_at - reports[y].paid_at);
    return {
      payments: g.reports.map((ri) => reports[ri].uuid),
      lines: g.lines.map((li) => lines[li].id),
      reasons: groupReasons(g, reports, lines),
    };
  });
}

/**
 * Only when the sums meet and a credit shows a last five, or none shows digits: on the calibration
 * half the others were rarely true groups and mostly hid a true unreported credit.
 */
function suggestible(g: FoundGroup, reports: ReconcileReport[], lines: ReconcileLine[]): boolean {
  const paid = g.reports.reduce((s, ri) => s + reports[ri].amount, 0);
  const credited = g.lines.reduce((s, li) => s + lines[li].amount, 0);
  if (paid !== credited) return false;
  const verdicts = g.lines.flatMap((li) =>
    g.reports.map((ri) => compareDigits(reports[ri].last_five, lines[li].digits).verdict),
  );
  return verdicts.includes('equal') || verdicts.every((v) => v === 'unknown');
}

function groupReasons(g: FoundGroup, reports: ReconcileReport[], lines: ReconcileLine[]): Reason[] {
  const sums: Reason =
    g.lines.length > 1
      ? { code: 'credits_sum', count: g.lines.length }
      : { code: 'reports_sum', count: g.reports.length };
  const shown = g.lines.some((li) =>
    g.reports.some((ri) => compareDigits(reports[ri].last_five, lines[li].digits).verdict === 'equal'),
  );
  return [sums, shown ? { code: 'shows_last_five' } : { code: 'no_account_close' }];
}

/**
 * Reports left alone that free credits might pay as a group (never unpaid: the money may be there).
 * Credits merely adding up are not enough: with few prices almost any two do. Only free credits: one
 * another report holds is mostly the customer's own other payment.
 */
function mayBeGrouped(
  m: Month,
  left: number[],
  freeLines: number[],
  time: (r: ReconcileReport, l: ReconcileLine) => number,
): Map<number, FoundGroup> {
  const { reports, lines } = m;
  const out = new Map<number, FoundGroup>();
  const free = freeLines.filter((li) => lines[li].amount > 0).sort((a, b) => lines[a].at - lines[b].at);
  // any report of the store may belong to the group, even one the assignment paired (often wrongly)
  const byStore = new Map<number, number[]>();
  reports.forEach((r, ri) => (byStore.get(r.store_id) ?? byStore.set(r.store_id, []).get(r.store_id)!).push(ri));
  for (const list of byStore.values()) list.sort((a, b) => reports[a].paid_at - reports[b].paid_at);
  for (const ri of left) {
    const inside = freeWithin(m, free, reports[ri]);
    const group = largerCredit(m, ri, inside, nearOrders(reports, byStore, ri), time) || splitCredits(m, ri, inside);
    if (group) out.set(ri, group);
  }
  return out;
}

function freeWithin({ lines, before, after }: Month, free: number[], r: ReconcileReport): number[] {
  const out: number[] = [];
  for (let k = firstAtOrAfter(free, lines, r.paid_at - before - DAY_MS); k < free.length; k++) {
    const li = free[k];
    if (lines[li].at > r.paid_at + after) break;
    if (mayPay(r, lines[li], before, after)) out.push(li);
  }
  return out;
}

/** The store's other reports within two hours of ri. */
function nearOrders(reports: ReconcileReport[], byStore: Map<number, number[]>, ri: number): number[] {
  const r = reports[ri];
  const list = byStore.get(r.store_id) ?? [];
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (reports[list[mid]].paid_at < r.paid_at - TWO_HOURS) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let k = lo; k < list.length && reports[list[k]].paid_at <= r.paid_at + TWO_HOURS; k++)
    if (list[k] !== ri) out.push(list[k]);
  return out;
}

/** The sums one or two of the customer's other orders make (last fives a typo from the report's, or each other's). */
function companions({ reports, lines }: Month, ri: number, near: number[], li: number): Map<number, number[]> {
  const fives = [reports[ri].last_five];
  const digits = lines[li].digits;
  const members: number[] = [];
  for (let grown = true; grown; ) {
    grown = false;
    for (const x of near) {
      if (members.includes(x)) continue;
      const five = reports[x].last_five;
      if (fives.some((f) => sameCustomer(f, five)) || (digits.length >= 3 && sameCustomer(five, digits))) {
        members.push(x);
        fives.push(five);
        grown = true;
      }
    }
  }
  const sums = new Map<number, number[]>();
  const add = (xs: number[]) => {
    const sum = xs.reduce((s, x) => s + reports[x].amount, 0);
    if (!sums.has(sum)) sums.set(sum, xs);
  };
  members.forEach((x, i) => {
    add([x]);
    for (let j = i + 1; j < members.length; j++) add([x, members[j]]);
  });
  return sums;
}

/**
 * A larger credit showing the last five at a likely booking time (later, it is the next order), or
 * worth the report plus the customer's own orders. Any report making up the rest is not enough: with
 * few prices one nearly always does, and every unpaid report would hide behind it.
 */
function largerCredit(
  m: Month,
  ri: number,
  inside: number[],
  near: number[],
  time: (r: ReconcileReport, l: ReconcileLine) => number,
): FoundGroup | null {
  const r = m.reports[ri];
  for (const li of inside) {
    const l = m.lines[li];
    if (l.amount <= r.amount) continue;
    const others = near.length > 0 ? companions(m, ri, near, li).get(l.amount - r.amount) : undefined;
    const equal = verdictOf(r, l) === 'equal';
    if (equal && !others && time(r, l) < 0) continue;
    if (equal) return { reason: 'larger credit showing the last five', reports: [ri, ...(others ?? [])], lines: [li] };
    if (others)
      return { reason: 'larger credit of this and the customer’s other orders', reports: [ri, ...others], lines: [li] };
  }
  return null;
}

/** A payment split into two or three credits that add up to it. */
function splitCredits(m: Month, ri: number, inside: number[]): FoundGroup | false {
  const { reports, lines } = m;
  const r = reports[ri];
  const parts = inside.filter((li) => lines[li].amount < r.amount);
  let split: FoundGroup | false = false;
  for (let x = 0; x < parts.length && !split; x++)
    for (let y = x + 1; y < parts.length && !split; y++) {
      const ab = lines[parts[x]].amount + lines[parts[y]].amount;
      if (ab === r.amount) split = splitFits(m, ri, [parts[x], parts[y]]);
      else if (ab < r.amount)
        for (let z = y + 1; z < parts.length && !split; z++)
          if (ab + lines[parts[z]].amount === r.amount) split = splitFits(m, ri, [parts[x], parts[y], parts[z]]);
    }
  return split;
}

/**
 * Parts within a day and a half, one showing the last five (or a typo); or, none showing digits,
 * close to the report. A typo beside another account, hours apart, is far more often two customers.
 */
function splitFits({ reports, lines }: Month, ri: number, set: number[]): FoundGroup | false {
  const r = reports[ri];
  const verdict = (li: number) => verdictOf(r, lines[li]);
  const times = set.map((li) => lines[li].at);
  if (Math.max(...times) - Math.min(...times) > 1.5 * DAY_MS) return false;
  if (
    !set.some((li) => verdict(li) === 'equal') &&
    set.some((li) => verdict(li) === 'different') &&
    Math.max(...times) - Math.min(...times) > THREE_HOURS
  )
    return false;
  if (set.some((li) => verdict(li) === 'equal' || verdict(li) === 'typo'))
    return { reason: 'split, showing the last five', reports: [ri], lines: set };
  return (
    set.every((li) => verdict(li) === 'unknown' && close(r, lines[li], THREE_HOURS)) && {
      reason: 'split, digitless and close',
      reports: [ri],
      lines: set,
    }
  );
}

const verdictOf = (r: ReconcileReport, l: ReconcileLine) => compareDigits(r.last_five, l.digits).verdict;

function close(r: ReconcileReport, l: ReconcileLine, span: number): boolean {
  const day = taipeiDayNumber(r.paid_at);
  if (!l.hasTime) return taipeiDayNumber(l.at) - day === 0 || taipeiDayNumber(l.at) - day === 1;
  return Math.abs(l.at - r.paid_at) <= span;
}

function sameCustomer(a: string, b: string): boolean {
  const v = compareDigits(a, b).verdict;
  return v === 'equal' || v === 'typo';
}

function compatible(lastFive: string, digits: string): boolean {
  const v = compareDigits(lastFive, digits).verdict;
  return v === 'equal' || v === 'unknown';
}

/** One credit for 2–3 reports of the same last five, or two credits for one report. */
function suggest(m: Month, reportLeft: number[], lineLeft: number[], used: Used): MatchResult['suggestions'] {
  const { lines } = m;
  const freeLines = lineLeft.filter((li) => lines[li].amount > 0).sort((a, b) => lines[a].at - lines[b].at);
  const out = suggestCombined(m, reportLeft, freeLines, used);
  for (const ri of reportLeft) {
    if (used.reports.has(ri)) continue;
    const pair = twoCredits(m, m.reports[ri], freeLines, used.lines);
    if (!pair) continue;
    out.push({
      payments: [m.reports[ri].uuid],
      lines: [lines[pair[0]].id, lines[pair[1]].id],
      reasons: [{ code: 'credits_sum', count: 2 }, { code: 'shows_last_five' }],
    });
    used.lines.add(pair[0]);
    used.lines.add(pair[1]);
    used.reports.add(ri);
  }
  return out;
}

function suggestCombined(m: Month, reportLeft: number[], freeLines: number[], used: Used): MatchResult['suggestions'] {
  const { reports, lines, before, after } = m;
  const out: MatchResult['suggestions'] = [];
  const byAmount = new Map<number, number[]>();
  for (const li of freeLines) {
    const g = byAmount.get(lines[li].amount);
    if (g) g.push(li);
    else byAmount.set(lines[li].amount, [li]);
  }
  const byFive = new Map<string, number[]>();
  for (const ri of reportLeft) {
    const g = byFive.get(reports[ri].last_five);
    if (g) g.push(ri);
    else byFive.set(reports[ri].last_five, [ri]);
  }
  const tryCombined = (rs: number[]) => {
    if (rs.some((ri) => used.reports.has(ri))) return;
    const sum = rs.reduce((s, ri) => s + reports[ri].amount, 0);
    const li = (byAmount.get(sum) ?? []).find((x) => !used.lines.has(x) && paysTogether(m, rs, x));
    if (li === undefined) return;
    rs.forEach((ri) => used.reports.add(ri));
    used.lines.add(li);
    out.push({
      payments: rs.map((ri) => reports[ri].uuid),
      lines: [lines[li].id],
      reasons: [{ code: 'reports_sum', count: rs.length }, { code: 'same_last_five' }],
    });
  };
  for (const group of byFive.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => reports[a].paid_at - reports[b].paid_at);
    const near = (a: number, b: number) => reports[b].paid_at - reports[a].paid_at <= before + after;
    for (let x = 0; x < group.length; x++)
      for (let y = x + 1; y < group.length && near(group[x], group[y]); y++) {
        for (let z = y + 1; z < group.length && near(group[x], group[z]); z++)
          tryCombined([group[x], group[y], group[z]]);
        tryCombined([group[x], group[y]]);
      }
  }
  return out;
}

/** The line shows the last five, or nothing and the orders were made within half an hour. */
function paysTogether({ reports, lines, before, after }: Month, rs: number[], li: number): boolean {
  const v = compareDigits(reports[rs[0]].last_five, lines[li].digits).verdict;
  const times = rs.map((ri) => reports[ri].paid_at);
  const close = Math.max(...times) - Math.min(...times) <= 30 * 60_000;
  return (
    (v === 'equal' || (v === 'unknown' && close)) && rs.every((ri) => mayPay(reports[ri], lines[li], before, after))
  );
}

/** Two free credits adding up to the report, at least one showing its last five. */
function twoCredits(
  { lines, before, after }: Month,
  r: ReconcileReport,
  freeLines: number[],
  usedLine: Set<number>,
): [number, number] | null {
  const seen = new Map<number, number>();
  for (let k = firstAtOrAfter(freeLines, lines, r.paid_at - before - DAY_MS); k < freeLines.length; k++) {
    const li = freeLines[k];
    const l = lines[li];
    if (l.at > r.paid_at + after) break;
    if (usedLine.has(li) || l.amount >= r.amount || !mayPay(r, l, before, after) || !compatible(r.last_five, l.digits))
      continue;
    const other = seen.get(r.amount - l.amount);
    if (other !== undefined && [other, li].some((x) => compareDigits(r.last_five, lines[x].digits).verdict === 'equal'))
      return [other, li];
    seen.set(l.amount, li);
  }
  return null;
}
