/**
 * What one run of reconciliation learns from its own data before it scores anything:
 * how long each bank account takes to book a transfer, by the report's hour and weekday; how far
 * reported times stray; how often last fives are mistyped or from another account; how common
 * each account's digits are among a store's credits; how many credits of each amount a window
 * holds. Nothing here is fitted to one month: every figure starts from a prior (a guess about
 * banks in general) worth a few dozen observations, and the month's unambiguous pairs (equal
 * amount alone in its window on both sides, with agreeing digits) move it as far as they can.
 *
 * The result weighs a candidate pair as a natural log of odds: "this line pays this report"
 * against "the report is unpaid and the line is some other credit of that amount", so weights
 * add up across pairs and a one-to-one assignment maximising their sum is the most likely reading.
 */
import {
  DAY_MS,
  nextBusinessDayStart,
  taipeiDayNumber,
  taipeiDayNumberStart,
  taipeiHourOfDay,
  taipeiWeekday,
} from '../time.js';
import type { DigitsVerdict } from './evidence.js';
import type { PayerMemory, ReconcileLine, ReconcileReport } from './types.js';
import { isGenericPayer } from './payer.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

/**
 * Bin edges, in minutes from the reported time, of a booking that did not wait for the next
 * business day. Narrow bins around 12 and 24 hours either way (and 48 after) let a month show the
 * reported time's typical slips, if it has them: the wrong date picked, 下午 read as 上午, a
 * bank stamping a later value date with the transfer's own clock time.
 */
const PROMPT_EDGES = [
  -2160, -1500, -1380, -780, -660, -360, -180, -120, -60, -30, -15, -6, -2, 0, 2, 6, 15, 30, 60, 120, 180, 360, 660,
  780, 1380, 1500, 2160, 2820, 2940, 4320, 6480,
].map((m) => m * MIN);
/** Bin edges, in hours from the start of the next business day, of a booking that waited for it. */
const NEXT_EDGES = [0, 6, 8, 9, 10, 11, 12, 15, 24, 36, 60, 96].map((h) => h * HOUR);
/** Day differences (line's day − report's day) a date-only line may show. */
const DAY_DIFFS = [-2, -1, 0, 1, 2, 3, 4, 5];

/** A probability spread over bins: masses (summing to 1) and each bin's width. */
class Histogram {
  constructor(
    readonly edges: number[],
    readonly mass: Float64Array,
  ) {}
  static fromDensity(edges: number[], density: (x: number) => number): Histogram {
    const mass = new Float64Array(edges.length - 1);
    for (let i = 0; i < mass.length; i++) {
      const a = edges[i];
      const b = edges[i + 1];
      let s = 0;
      for (let k = 0; k < 16; k++) s += density(a + ((k + 0.5) * (b - a)) / 16);
      mass[i] = (s * (b - a)) / 16;
    }
    return new Histogram(edges, normalize(mass));
  }
  bin(x: number): number {
    const e = this.edges;
    if (x < e[0] || x >= e[e.length - 1]) return -1;
    let lo = 0;
    let hi = e.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (e[mid] <= x) lo = mid;
      else hi = mid;
    }
    return lo;
  }
  density(x: number): number {
    const b = this.bin(x);
    return b < 0 ? 0 : this.mass[b] / (this.edges[b + 1] - this.edges[b]);
  }
}

function normalize(m: Float64Array): Float64Array {
  let s = 0;
  for (const x of m) s += x;
  if (s > 0) for (let i = 0; i < m.length; i++) m[i] /= s;
  return m;
}

/** `counts` pulled toward `prior` with the weight of `strength` observations; a floor keeps every bin possible. */
function smooth(prior: Float64Array, counts: Float64Array, strength: number): Float64Array {
  const out = new Float64Array(prior.length);
  for (let i = 0; i < prior.length; i++) out[i] = counts[i] + strength * prior[i] + 1e-3;
  return normalize(out);
}

/** The report's context for booking habits: day type (Mon–Thu, Fri, Sat, Sun) × hour bucket. */
const HOUR_BUCKETS = [9, 12, 14, 15, 16, 18, 21, 24];
const CONTEXTS = 4 * HOUR_BUCKETS.length;
function contextOf(at: number): number {
  const wd = taipeiWeekday(at);
  const dayType = wd === 0 ? 3 : wd === 6 ? 2 : wd === 5 ? 1 : 0;
  const h = taipeiHourOfDay(at);
  let b = 0;
  while (h >= HOUR_BUCKETS[b]) b++;
  return dayType * HOUR_BUCKETS.length + b;
}
/** before the usual 15:30 cut-off on a weekday */
const earlyContext = (ctx: number) => ctx < 3 * HOUR_BUCKETS.length && ctx % HOUR_BUCKETS.length <= 3;

/** The time habits of one bank account (or of all, or the prior). */
interface TimeModel {
  prompt: Histogram;
  next: Histogram;
  /** per context, the share of bookings that waited for the next business day */
  waits: Float64Array;
  /** date-only lines: the day difference, for early and for late contexts */
  days: [Float64Array, Float64Array];
}

function priorTimeModel(): TimeModel {
  // Mostly minutes (the customer's screen and an instant transfer), sometimes hours (typed in
  // later, booked later that day), rarely a day either way; earlier than reported less often.
  const twoSided = (x: number, scale: number) => Math.exp(-Math.abs(x) / scale) / (2 * scale);
  const prompt = Histogram.fromDensity(
    PROMPT_EDGES,
    (x) =>
      (x < 0 ? 0.6 : 1.4) * (0.6 * twoSided(x, 3 * MIN) + 0.28 * twoSided(x, 2 * HOUR) + 0.12 * twoSided(x, 18 * HOUR)),
  );
  const next = new Histogram(
    NEXT_EDGES,
    normalize(Float64Array.from([0.02, 0.05, 0.15, 0.3, 0.2, 0.1, 0.08, 0.04, 0.03, 0.02, 0.01])),
  );
  const waits = new Float64Array(CONTEXTS);
  for (let c = 0; c < CONTEXTS; c++) {
    const bucket = c % HOUR_BUCKETS.length;
    const weekend = c >= 2 * HOUR_BUCKETS.length;
    waits[c] = weekend ? 0.5 : bucket <= 3 ? 0.05 : bucket === 4 ? 0.3 : 0.4;
  }
  const early = Float64Array.from([0.01, 0.05, 0.8, 0.1, 0.02, 0.01, 0.005, 0.005]);
  const late = Float64Array.from([0.01, 0.03, 0.4, 0.35, 0.1, 0.08, 0.02, 0.01]);
  return { prompt, next, waits, days: [normalize(early), normalize(late)] };
}

/** One unambiguous pair: what it says about booking. */
interface TimeAnchor {
  /** line − report */
  x: number;
  /** line − next business day of the report */
  y: number;
  ctx: number;
  hasTime: boolean;
  dayDiff: number;
}

/** Expectation–maximisation over the anchors: which waited for the next business day, and the shapes of both. */
function fitTime(prior: TimeModel, anchors: TimeAnchor[], strength: number): TimeModel {
  const timed = anchors.filter((a) => a.hasTime);
  let model = prior;
  for (let iter = 0; iter < (timed.length ? 8 : 0); iter++) {
    const pc = new Float64Array(prior.prompt.mass.length);
    const nc = new Float64Array(prior.next.mass.length);
    const waited = new Float64Array(CONTEXTS);
    const seen = new Float64Array(CONTEXTS);
    for (const a of timed) {
      const w = model.waits[a.ctx];
      const p = (1 - w) * model.prompt.density(a.x);
      const n = w * model.next.density(a.y);
      const resp = p + n > 0 ? n / (p + n) : 0;
      const pb = model.prompt.bin(a.x);
      const nb = model.next.bin(a.y);
      if (pb >= 0) pc[pb] += 1 - resp;
      if (nb >= 0) nc[nb] += resp;
      waited[a.ctx] += resp;
      seen[a.ctx] += 1;
    }
    const waits = new Float64Array(CONTEXTS);
    // A context's share is pulled toward the prior by a few observations' worth.
    for (let c = 0; c < CONTEXTS; c++) waits[c] = (waited[c] + 4 * prior.waits[c]) / (seen[c] + 4);
    model = {
      prompt: new Histogram(PROMPT_EDGES, smooth(prior.prompt.mass, pc, strength)),
      next: new Histogram(NEXT_EDGES, smooth(prior.next.mass, nc, strength)),
      waits,
      days: prior.days,
    };
  }
  const counts: [Float64Array, Float64Array] = [new Float64Array(DAY_DIFFS.length), new Float64Array(DAY_DIFFS.length)];
  for (const a of anchors) {
    if (a.hasTime) continue;
    const k = DAY_DIFFS.indexOf(a.dayDiff);
    if (k >= 0) counts[earlyContext(a.ctx) ? 0 : 1][k] += 1;
  }
  return { ...model, days: [smooth(prior.days[0], counts[0], strength), smooth(prior.days[1], counts[1], strength)] };
}

/** The digits habits: how often a true pair's visible digits show a typo or another account entirely. */
interface DigitsModel {
  typo: number;
  different: number;
}
const PRIOR_DIGITS: DigitsModel = { typo: 0.04, different: 0.02 };

interface Window {
  before: number;
  after: number;
}

/** What the model needs of a candidate pair. */
export interface PairFacts {
  digits: DigitsVerdict;
  visible: number;
  note: boolean;
}

export interface Model {
  /** the log-likelihood ratio: how much likelier the facts are if l pays r than if l is another credit of that amount */
  likelihood(r: ReconcileReport, l: ReconcileLine, facts: PairFacts, line: number): number;
  /** the booking time's part of it: how much likelier l's time is if l pays r than by chance */
  time(r: ReconcileReport, l: ReconcileLine): number;
  /**
   * what turns the ratio into the log odds that l pays r against r unpaid and l another credit:
   * the odds a report is paid, less how many credits of its amount a window holds
   */
  offset(r: ReconcileReport): number;
  /** what payer memory says of the pair, for the reasons a person reads (null: nothing) */
  payerNote(r: ReconcileReport, l: ReconcileLine, line: number): PayerNote | null;
  /**
   * Whether the line's payer alone says the report's customer paid it: a name (never a generic
   * label nor a masked name) that confirmed links tie to this last five and no other, and that no
   * other anchor of this month shows with another. This month's names alone never do: the commonest
   * full names are shared by thousands, and one customer using one this month says nothing of the next.
   */
  payerSettles(r: ReconcileReport, l: ReconcileLine, line: number): boolean;
  /** figures for the bench and the curious: anchors used, learned rates */
  summary: { anchors: number; digitAnchors: number; typo: number; different: number; paidShare: number };
}

/**
 * What is known of a line's payer: from confirmed links (payer memory, `memory`) or from this
 * month's unambiguous pairs that show the same name (`month`); whether the report's last five is
 * among the payer's.
 */
export interface PayerNote {
  known: 'same' | 'other';
  fives: string[];
  from: 'memory' | 'month';
}

const PRIOR_STRENGTH = 30;
/** How much of the booking times' reading comes from pairs chosen without a look at their times (the bench's calibration half). */
const TIME_SPREAD = 0.5;
/**
 * Of a payer's credits, the share that pays for a last five the payer was seen paying for from an
 * account whose digits are not that last five (a spouse's, a parent's, a company's account)
 */
const KIN_TELLS = 0.5;

export interface Candidate {
  report: number;
  line: number;
  facts: PairFacts;
}

/**
 * Which pairs teach the month's habits, and the share of reports paid. The product reads them off
 * the month itself (MONTH_TEACHER); the bench's bound hands in the true ones instead.
 */
export interface Teacher {
  /** the pairs the booking times, accounts and payer names are learned from; `sure`: those a first reading of the month was sure of */
  anchors(month: MonthCandidates, sure: Candidate[]): Iterable<Candidate>;
  /**
   * pairs chosen without a look at their times (digits that agree, or the one candidate on both
   * sides): the booking times' whole spread, late and odd ones included, is learned from them
   */
  unbiased(month: MonthCandidates): Iterable<Candidate>;
  /** the pairs the digits' habits (typos, other accounts) are counted on; `likely`: each report's one pair likely by time alone on both sides, or null */
  digitPairs(month: MonthCandidates, likely: Array<Candidate | null>): Iterable<Candidate>;
  /** the share of reports paid, given the month's own estimate */
  paidShare(estimate: number): number;
}

export interface MonthCandidates {
  reports: ReconcileReport[];
  lines: ReconcileLine[];
  ofReport: Candidate[][];
  ofLine: Candidate[][];
}

/** Unambiguous: the digits agree (at least three visible) and no other candidate's digits agree, on either side. */
function* unambiguous({ ofReport, ofLine }: MonthCandidates): Generator<Candidate> {
  const agrees = (c: Candidate) => c.facts.digits === 'equal' && c.facts.visible >= 3;
  for (const cands of ofReport) {
    const mine = cands.filter(agrees);
    if (mine.length === 1 && ofLine[mine[0].line].filter(agrees).length === 1) yield mine[0];
  }
}

/** Alone: the report's one candidate, and the line's one; the digits do not show another account. */
function* alone({ ofReport, ofLine }: MonthCandidates): Generator<Candidate> {
  for (const cands of ofReport) {
    if (cands.length !== 1) continue;
    const c = cands[0];
    if (ofLine[c.line].length === 1 && c.facts.digits !== 'different') yield c;
  }
}

/**
 * The month's own reading: its unambiguous pairs; then, once a first reading has been made, the
 * pairs it was sure of too (on a month where few credits show digits, the unambiguous pairs alone
 * are too few to tell one bank's booking habits from another's). Chosen without a look at the
 * times: the unambiguous pairs and those alone on both sides.
 */
export const MONTH_TEACHER: Teacher = {
  anchors: function* (month, sure) {
    const taught = new Set<number>();
    for (const c of unambiguous(month)) {
      taught.add(c.report);
      yield c;
    }
    for (const c of sure) if (!taught.has(c.report)) yield c;
  },
  unbiased: function* (month) {
    const taught = new Set<number>();
    for (const c of unambiguous(month)) {
      taught.add(c.report);
      yield c;
    }
    for (const c of alone(month)) if (!taught.has(c.report)) yield c;
  },
  digitPairs: (_, likely) => likely.filter((c): c is Candidate => c !== null),
  paidShare: (estimate) => estimate,
};

/** What a first reading of the month teaches the second. */
interface FirstReading {
  /** pairs it is sure of (report, line): they teach booking habits and payer names too */
  sure: Array<[number, number]>;
  /**
   * pairs it made although the line shows another account's digits (and a payer): they teach
   * which payer pays for which last five from an account of its own
   */
  kin: Array<[number, number]>;
  /** the share of reports it found paid, each report left alone counted by its chance of being paid */
  paidShare?: number;
}

/**
 * Learns the month's habits from the unambiguous pairs among `candidates` (each report's lines of
 * equal amount inside the window), per bank account where it has enough of them.
 */
export function learnModel(
  reports: ReconcileReport[],
  lines: ReconcileLine[],
  candidates: { ofReport: Candidate[][]; ofLine: Candidate[][] },
  win: Window,
  payers: PayerMemory[] = [],
  teacher: Teacher = MONTH_TEACHER,
  reading: FirstReading = { sure: [], kin: [] },
): Model {
  const { sure, kin } = reading;
  const { ofReport, ofLine } = candidates;
  const month = { reports, lines, ofReport, ofLine };
  const anchorOf = (r: ReconcileReport, l: ReconcileLine): TimeAnchor => ({
    x: l.at - r.paid_at,
    y: l.at - nextBusinessDayStart(r.paid_at),
    ctx: contextOf(r.paid_at),
    hasTime: l.hasTime,
    dayDiff: taipeiDayNumber(l.at) - taipeiDayNumber(r.paid_at),
  });
  const sourceOf = (l: ReconcileLine) => l.source ?? `store:${l.store_id ?? 'all'}`;

  /** Booking habits learned from these pairs: over every account, and per account (its source). */
  const learnTimes = (pairs: Candidate[]) => {
    const perSource = new Map<string, TimeAnchor[]>();
    for (const c of pairs) {
      const src = sourceOf(lines[c.line]);
      const list = perSource.get(src) ?? perSource.set(src, []).get(src)!;
      list.push(anchorOf(reports[c.report], lines[c.line]));
    }
    const pooled = fitTime(priorTimeModel(), [...perSource.values()].flat(), PRIOR_STRENGTH);
    const bySource = new Map([...perSource].map(([src, list]) => [src, fitTime(pooled, list, 2 * PRIOR_STRENGTH)]));
    return (l: ReconcileLine) => bySource.get(sourceOf(l)) ?? pooled;
  };
  // the payer names the anchors show, per store: this month's own payer memory
  const namedAnchors = new Map<string, Array<{ line: number; five: string }>>();
  const nameKey = (ri: number, li: number) => `${reports[ri].store_id}|${lines[li].payer}`;
  const learnName = (ri: number, li: number, into = namedAnchors) => {
    if (!lines[li].payer) return;
    const list = into.get(nameKey(ri, li));
    if (list) list.push({ line: li, five: reports[ri].last_five });
    else into.set(nameKey(ri, li), [{ line: li, five: reports[ri].last_five }]);
  };
  // Names only from the anchors themselves: a pair a first reading was sure of because of its
  // payer's name never teaches that name back (see the sure pairs' names below).
  for (const c of teacher.anchors(month, [])) learnName(c.report, c.line);
  const sureCandidates = sure.map(([ri, li]) => ofReport[ri].find((c) => c.line === li)!);
  const anchors = [...teacher.anchors(month, sureCandidates)];
  // Two readings of the booking times: the anchors with the pairs a reading was sure of show the
  // usual times sharply, but a pair booked late or at an odd time is never among the sure ones; the
  // pairs chosen without a look at their times show the whole spread. A paid report whose credit
  // came at such a time must not look unpaid, nor a sharp habit be blurred: their mixture.
  const sharpTimes = learnTimes(anchors);
  const spreadTimes = learnTimes([...teacher.unbiased(month)]);
  const storeAnchors = anchors.map((c): [number, string] => [reports[c.report].store_id, sourceOf(lines[c.line])]);

  // Which account each store's customers pay into: on a statement for all stores (lines of several
  // accounts, none tied to a store) a store's transfers land on its own account nearly always, a
  // habit the anchors show. The ratio of the share of a store's anchors on an account to the
  // account's share of that store's candidates, pulled toward 1 by a few observations' worth: one
  // account, or lines each tied to their store, weigh nothing.
  const candOfStore = new Map<number, Map<string, number>>();
  const candTotal = new Map<number, number>();
  for (const cands of ofReport) {
    if (cands.length === 0) continue;
    const st = reports[cands[0].report].store_id;
    let m = candOfStore.get(st);
    if (!m) candOfStore.set(st, (m = new Map()));
    for (const c of cands) {
      const src = sourceOf(lines[c.line]);
      m.set(src, (m.get(src) ?? 0) + 1);
    }
    candTotal.set(st, (candTotal.get(st) ?? 0) + cands.length);
  }
  const anchorOfStore = new Map<number, Map<string, number>>();
  const anchorTotal = new Map<number, number>();
  for (const [st, src] of storeAnchors) {
    let m = anchorOfStore.get(st);
    if (!m) anchorOfStore.set(st, (m = new Map()));
    m.set(src, (m.get(src) ?? 0) + 1);
    anchorTotal.set(st, (anchorTotal.get(st) ?? 0) + 1);
  }
  const ACCOUNT_PRIOR = 10;
  const accountWeight = (r: ReconcileReport, l: ReconcileLine): number => {
    const bg = candOfStore.get(r.store_id);
    const src = sourceOf(l);
    const share = (bg?.get(src) ?? 0) / Math.max(1, candTotal.get(r.store_id) ?? 0);
    if (!(share > 0) || share >= 1) return 0;
    const n = anchorTotal.get(r.store_id) ?? 0;
    const k = anchorOfStore.get(r.store_id)?.get(src) ?? 0;
    return Math.log((k + ACCOUNT_PRIOR * share) / (n + ACCOUNT_PRIOR) / share);
  };

  const chanceTime = 1 / (win.before + win.after);
  const dayChance = (r: ReconcileReport, dd: number) => {
    // the share of the window a day at that difference covers
    const start = taipeiDayNumberStart(taipeiDayNumber(r.paid_at) + dd);
    const lo = Math.max(start, r.paid_at - win.before);
    const hi = Math.min(start + DAY_MS, r.paid_at + win.after);
    return Math.max(hi - lo, HOUR) / (win.before + win.after);
  };
  const timeDensity = (m: TimeModel, r: ReconcileReport, l: ReconcileLine): number => {
    const ctx = contextOf(r.paid_at);
    if (!l.hasTime) {
      const dd = taipeiDayNumber(l.at) - taipeiDayNumber(r.paid_at);
      const k = DAY_DIFFS.indexOf(dd);
      const p = k < 0 ? 1e-3 : m.days[earlyContext(ctx) ? 0 : 1][k];
      return p / dayChance(r, dd);
    }
    const w = m.waits[ctx];
    const density =
      (1 - w) * m.prompt.density(l.at - r.paid_at) + w * m.next.density(l.at - nextBusinessDayStart(r.paid_at));
    return density / chanceTime;
  };
  const timeWeight = (r: ReconcileReport, l: ReconcileLine): number => {
    const ratio =
      (1 - TIME_SPREAD) * timeDensity(sharpTimes(l), r, l) + TIME_SPREAD * timeDensity(spreadTimes(l), r, l);
    return Math.log(Math.max(ratio, 1e-4));
  };

  // Digits: pairs alone on both sides in being likely by time (ten times chance or more) are
  // nearly all true; how often do their digits disagree?
  let nDigits = 0;
  let nTypo = 0;
  let nDiff = 0;
  const LIKELY = Math.log(10);
  const strongOfLine = new Int32Array(lines.length);
  const strongOfReport: Array<Candidate | null> = ofReport.map(() => null);
  ofReport.forEach((list, ri) => {
    let n = 0;
    for (const c of list) {
      if (timeWeight(reports[c.report], lines[c.line]) < LIKELY) continue;
      strongOfLine[c.line]++;
      n++;
      strongOfReport[ri] = n === 1 ? c : null;
    }
  });
  for (const c of teacher.digitPairs(
    month,
    strongOfReport.map((x) => (x && strongOfLine[x.line] === 1 ? x : null)),
  )) {
    if (c.facts.visible < 3 || c.facts.digits === 'unknown') continue;
    nDigits++;
    if (c.facts.digits === 'typo') nTypo++;
    else if (c.facts.digits === 'different') nDiff++;
  }
  const S = 50;
  const digitsModel: DigitsModel = {
    typo: (nTypo + S * PRIOR_DIGITS.typo) / (nDigits + S),
    different: (nDiff + S * PRIOR_DIGITS.different) / (nDigits + S),
  };

  // How common each store's visible digits are among its credits: a regular customer's digits
  // on a line say less than a one-off's, and two customers sharing a last five say less still.
  const suffixCount = new Map<string, number>();
  const shownCount = new Map<string, number>();
  const storeKey = (l: ReconcileLine) => String(l.store_id ?? 'all');
  for (const l of lines) {
    if (l.amount <= 0) continue;
    const k = Math.min(l.digits.length, 5);
    if (k < 3) continue;
    const sk = `${storeKey(l)}|${k}`;
    shownCount.set(sk, (shownCount.get(sk) ?? 0) + 1);
    const key = `${sk}|${l.digits.slice(-k)}`;
    suffixCount.set(key, (suffixCount.get(key) ?? 0) + 1);
  }
  const chanceEqual = (l: ReconcileLine, k: number) => {
    const sk = `${storeKey(l)}|${k}`;
    const n = shownCount.get(sk) ?? 0;
    const c = suffixCount.get(`${sk}|${l.digits.slice(-k)}`) ?? 1;
    // other credits showing these digits, besides this one
    return Math.max(10 ** -k, n > 1 ? (c - 1) / n : 0);
  };
  const digitsWeight = (l: ReconcileLine, f: PairFacts): number => {
    const k = f.visible;
    if (f.digits === 'equal') return Math.log((1 - digitsModel.typo - digitsModel.different) / chanceEqual(l, k));
    if (f.digits === 'typo') return Math.log(digitsModel.typo / (9 * k + k - 1) / 10 ** -k);
    if (f.digits === 'different') return Math.log(digitsModel.different / (1 - 10 ** -k * (10 * k)));
    return 0;
  };

  // Credits of each amount a window holds, per store (a statement for all stores counts for each).
  // And how many of the store's credits show each payer: a payer known to pay for a last five says
  // the more, the rarer its credits are.
  const amountCount = new Map<string, number>();
  const storeCredits = new Map<string, number>();
  const payerCount = new Map<string, number>();
  const bump = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1);
  let first = Infinity;
  let last = -Infinity;
  for (const l of lines) {
    if (l.amount <= 0) continue;
    bump(amountCount, `${storeKey(l)}|${l.amount}`);
    bump(storeCredits, storeKey(l));
    if (l.payer) bump(payerCount, `${storeKey(l)}|${l.payer}`);
    if (l.at < first) first = l.at;
    if (l.at > last) last = l.at;
  }
  const span = Math.max(last - first, 7 * DAY_MS);

  // The share of reports paid: of the reports whose whole window the statement spans (a report
  // made after the statement's last day has no candidate because its credit is not there yet),
  // those with a candidate, less what the month shows as unpaid at most.
  let spanned = 0;
  let withCandidates = 0;
  reports.forEach((r, ri) => {
    if (r.paid_at - win.before < first || r.paid_at + win.after > last) return;
    spanned++;
    if (ofReport[ri].length > 0) withCandidates++;
  });
  const paidShare = teacher.paidShare(
    Math.min(0.99, Math.max(0.5, reading.paidShare ?? (spanned >= 20 ? (withCandidates / spanned) * 0.99 : 0.95))),
  );
  const background = (r: ReconcileReport, amount: number) => {
    const n = (amountCount.get(`${r.store_id}|${amount}`) ?? 0) + (amountCount.get(`all|${amount}`) ?? 0);
    return Math.max(0.05, (Math.max(0, n - 1) * (win.before + win.after)) / span);
  };

  const priorOdds = Math.log(paidShare / (1 - paidShare));

  // Payer memory: on this store's statements, this payer reported these last fives.
  const memory = new Map<string, Set<string>>();
  for (const p of payers) {
    if (!p.payer) continue;
    const key = `${p.store_id}|${p.payer}`;
    const set = memory.get(key);
    if (set) set.add(p.last_five);
    else memory.set(key, new Set([p.last_five]));
  }
  // The month's own memory: a name an anchor shows, with the anchor's last five. How far a name
  // tells a customer apart is learned too: of the anchors whose name another anchor of the store
  // also shows, the share whose last five is among that other anchor's (a masked name such as
  // 王*明 may be several people; a family shares one account).
  let nameSeen = 0;
  let nameSame = 0;
  for (const list of namedAnchors.values()) {
    if (list.length < 2) continue;
    for (const x of list) {
      nameSeen++;
      if (list.some((y) => y !== x && y.five === x.five)) nameSame++;
    }
  }
  // Names no anchor shows, from the pairs a first reading was sure of (without the name, which it
  // did not know): a name an anchor shows is never taught back by a pair its name made sure.
  const anchored = new Set(namedAnchors.keys());
  for (const [ri, li] of sure) if (!anchored.has(nameKey(ri, li))) learnName(ri, li);
  // Another account that pays for a customer (a spouse's, a parent's, a company's): its digits are
  // not the customer's, so no anchor shows it; the pairs a first reading made in spite of the
  // digits do. A line never teaches itself (payerNote leaves its own line out).
  // Kept apart: they say a payer pays for a last five, never that it pays only for those (the
  // spouse's own orders are the spouse's).
  const kinOf = new Map<string, Array<{ line: number; five: string }>>();
  for (const [ri, li] of kin) learnName(ri, li, kinOf);
  const payerChance = (l: ReconcileLine) => {
    const n = storeCredits.get(storeKey(l)) ?? 1;
    return Math.max(1, (payerCount.get(`${storeKey(l)}|${l.payer}`) ?? 1) - 1) / n;
  };
  const NAME_PRIOR = 10;
  const nameTells = (nameSame + NAME_PRIOR * 0.85) / (nameSeen + NAME_PRIOR);
  const payerNote = (r: ReconcileReport, l: ReconcileLine, self = -1): PayerNote | null => {
    if (!l.payer) return null;
    const fives = memory.get(`${r.store_id}|${l.payer}`);
    if (fives) return { known: fives.has(r.last_five) ? 'same' : 'other', fives: [...fives], from: 'memory' };
    const key = `${r.store_id}|${l.payer}`;
    const seen = namedAnchors.get(key)?.filter((x) => x.line !== self) ?? [];
    const paysFor = kinOf.get(key)?.filter((x) => x.line !== self) ?? [];
    const month = [...new Set([...seen, ...paysFor].map((x) => x.five))];
    if (paysFor.some((x) => x.five === r.last_five)) return { known: 'same', fives: month, from: 'month' };
    if (!seen.length) return null;
    return { known: month.includes(r.last_five) ? 'same' : 'other', fives: month, from: 'month' };
  };
  const payerSettles = (r: ReconcileReport, l: ReconcileLine, self = -1): boolean => {
    if (!l.payer || isGenericPayer(l.payer)) return false;
    const key = `${r.store_id}|${l.payer}`;
    const fives = memory.get(key);
    if (!fives || fives.size !== 1 || !fives.has(r.last_five)) return false;
    const others = [...(namedAnchors.get(key) ?? []), ...(kinOf.get(key) ?? [])].filter((x) => x.line !== self);
    return others.every((x) => x.five === r.last_five);
  };
  const payerWeight = (r: ReconcileReport, l: ReconcileLine, li: number, f: PairFacts) => {
    const note = payerNote(r, l, li);
    if (!note) return 0;
    // Other digits, from a payer known to pay for this last five (a confirmed link, or this month's
    // pairs made in spite of the digits): another account that pays for the customer. The digits
    // said "some other account's credit"; the payer says which account, and how rare its credits are.
    if (f.digits === 'different') return note.known === 'same' ? Math.log(KIN_TELLS / payerChance(l)) : 0;
    // what the memory adds beyond the digits the line shows
    const hidden = f.digits === 'equal' ? 5 - f.visible : f.digits === 'unknown' ? 5 : 0;
    if (note.from === 'memory')
      return note.known === 'same' ? Math.log(0.85 * 10 ** Math.min(hidden, 3)) : Math.log(0.3);
    // a mistyped or other account the digits already weigh: the name the anchors saw with the
    // right last five says the same again
    if (f.digits !== 'equal' && f.digits !== 'unknown') return 0;
    return note.known === 'same'
      ? Math.log(nameTells * 10 ** Math.min(hidden, 3))
      : Math.log(Math.max(0.05, 1 - nameTells));
  };

  return {
    likelihood(r, l, f, li) {
      return (
        digitsWeight(l, f) +
        timeWeight(r, l) +
        accountWeight(r, l) +
        (f.note ? Math.log(20) : 0) +
        payerWeight(r, l, li, f)
      );
    },
    time: timeWeight,
    offset(r) {
      return priorOdds - Math.log(background(r, r.amount));
    },
    payerNote,
    payerSettles,
    summary: {
      anchors: anchors.length,
      digitAnchors: nDigits,
      typo: digitsModel.typo,
      different: digitsModel.different,
      paidShare,
    },
  };
}
