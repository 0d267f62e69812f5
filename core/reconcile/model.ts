/**
 * What one run learns from its own month: every figure starts from a prior worth a few dozen
 * observations, moved by the month's unambiguous pairs. A pair weighs a log of odds, so weights add
 * up and the maximum-weight assignment is the most likely reading.
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
 * Bin edges (minutes from the reported time) of a booking that did not wait for the next business
 * day. Narrow bins at ±12 h, ±24 h and +48 h catch typical slips: the wrong date, 下午 read as 上午.
 */
const PROMPT_EDGES = [
  -2160, -1500, -1380, -780, -660, -360, -180, -120, -60, -30, -15, -6, -2, 0, 2, 6, 15, 30, 60, 120, 180, 360, 660,
  780, 1380, 1500, 2160, 2820, 2940, 4320, 6480,
].map((m) => m * MIN);
const NEXT_EDGES = [0, 6, 8, 9, 10, 11, 12, 15, 24, 36, 60, 96].map((h) => h * HOUR);
const DAY_DIFFS = [-2, -1, 0, 1, 2, 3, 4, 5];

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

/** `counts` pulled toward `prior` by `strength` observations; a floor keeps every bin possible. */
function smooth(prior: Float64Array, counts: Float64Array, strength: number): Float64Array {
  const out = new Float64Array(prior.length);
  for (let i = 0; i < prior.length; i++) out[i] = counts[i] + strength * prior[i] + 1e-3;
  return normalize(out);
}

/** The report's context for booking habits: day type (Mon–Thu, Fri, Sat, Sun) × hour. */
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

interface TimeModel {
  prompt: Histogram;
  next: Histogram;
  waits: Float64Array;
  days: [Float64Array, Float64Array];
}

function priorTimeModel(): TimeModel {
  // Mostly minutes, sometimes hours (typed in later), rarely a day; earlier than reported less often.
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

interface TimeAnchor {
  x: number;
  y: number;
  ctx: number;
  hasTime: boolean;
  dayDiff: number;
}

/** Expectation–maximisation: which anchors waited for the next business day, and the shapes of both. */
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

interface DigitsModel {
  typo: number;
  different: number;
}
const PRIOR_DIGITS: DigitsModel = { typo: 0.04, different: 0.02 };

interface Window {
  before: number;
  after: number;
}

export interface PairFacts {
  digits: DigitsVerdict;
  visible: number;
  note: boolean;
}

export interface Model {
  /** how much likelier (log) the facts are if l pays r than if l is another credit of that amount */
  likelihood(r: ReconcileReport, l: ReconcileLine, facts: PairFacts, line: number): number;
  time(r: ReconcileReport, l: ReconcileLine): number;
  /** turns the ratio into log odds against r unpaid: the odds it is paid, less its amount's credits per window */
  offset(r: ReconcileReport): number;
  payerNote(r: ReconcileReport, l: ReconcileLine, line: number): PayerNote | null;
  /** A name confirmed links tie to this last five only (this month's never: common names are shared by thousands). */
  payerSettles(r: ReconcileReport, l: ReconcileLine, line: number): boolean;
  summary: { anchors: number; digitAnchors: number; typo: number; different: number; paidShare: number };
}

export interface PayerNote {
  known: 'same' | 'other';
  fives: string[];
  from: 'memory' | 'month';
}

const PRIOR_STRENGTH = 30;
/** The booking times' share read from pairs chosen without a look at their times (chosen on the calibration half). */
const TIME_SPREAD = 0.5;
/** Of a payer's credits, the share for a last five it was seen paying from another account (a spouse's). */
const KIN_TELLS = 0.5;

export interface Candidate {
  report: number;
  line: number;
  facts: PairFacts;
}

/** Which pairs teach the month's habits: the month's own (MONTH_TEACHER), or the bench's truth. */
export interface Teacher {
  /** `sure`: the pairs a first reading was sure of */
  anchors(month: MonthCandidates, sure: Candidate[]): Iterable<Candidate>;
  /** pairs chosen without a look at their times: the whole spread, late ones included */
  unbiased(month: MonthCandidates): Iterable<Candidate>;
  /** `likely`: each report's one pair likely by time alone on both sides, or null */
  digitPairs(month: MonthCandidates, likely: Array<Candidate | null>): Iterable<Candidate>;
  paidShare(estimate: number): number;
}

export interface MonthCandidates {
  reports: ReconcileReport[];
  lines: ReconcileLine[];
  ofReport: Candidate[][];
  ofLine: Candidate[][];
}

/** The digits agree (three or more visible), and no other candidate's on either side. */
function* unambiguous({ ofReport, ofLine }: MonthCandidates): Generator<Candidate> {
  const agrees = (c: Candidate) => c.facts.digits === 'equal' && c.facts.visible >= 3;
  for (const cands of ofReport) {
    const mine = cands.filter(agrees);
    if (mine.length === 1 && ofLine[mine[0].line].filter(agrees).length === 1) yield mine[0];
  }
}

/** The one candidate on both sides, not showing another account. */
function* alone({ ofReport, ofLine }: MonthCandidates): Generator<Candidate> {
  for (const cands of ofReport) {
    if (cands.length !== 1) continue;
    const c = cands[0];
    if (ofLine[c.line].length === 1 && c.facts.digits !== 'different') yield c;
  }
}

/**
 * The month's unambiguous pairs, then a first reading's sure ones (with few digits shown, the
 * unambiguous alone cannot tell banks apart); unbiased: the unambiguous and those alone on both sides.
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

export interface FirstReading {
  sure: Array<[number, number]>;
  /** pairs made although the line shows another account's digits */
  kin: Array<[number, number]>;
  paidShare?: number;
}

/** `store|payer` → the lines and last fives that showed it. */
type Names = Map<string, Array<{ line: number; five: string }>>;

const sourceOf = (l: ReconcileLine) => l.source ?? `store:${l.store_id ?? 'all'}`;
const storeKey = (l: ReconcileLine) => String(l.store_id ?? 'all');
const bump = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1);

export function learnModel(
  reports: ReconcileReport[],
  lines: ReconcileLine[],
  candidates: { ofReport: Candidate[][]; ofLine: Candidate[][] },
  win: Window,
  payers: PayerMemory[] = [],
  teacher: Teacher = MONTH_TEACHER,
  reading: FirstReading = { sure: [], kin: [] },
): Model {
  const { ofReport, ofLine } = candidates;
  const month = { reports, lines, ofReport, ofLine };
  // names from the anchors alone: a pair sure because of its payer's name never teaches it back
  const named: Names = new Map();
  for (const c of teacher.anchors(month, [])) learnName(month, named, c.report, c.line);
  const sure = reading.sure.map(([ri, li]) => ofReport[ri].find((c) => c.line === li)!);
  const anchors = [...teacher.anchors(month, sure)];
  // sure pairs show the usual times sharply but never a late one; unbiased pairs the spread: a mixture
  const timeWeight = timeWeigher(learnTimes(month, anchors), learnTimes(month, [...teacher.unbiased(month)]), win);
  const accountWeight = accountWeigher(month, anchors);
  const digits = learnDigits(month, teacher, timeWeight);
  const digitsWeight = digitsWeigher(lines, digits.model);
  const credits = countCredits(lines);
  const paidShare = teacher.paidShare(estimatePaidShare(month, win, credits, reading.paidShare));
  const priorOdds = Math.log(paidShare / (1 - paidShare));
  const payer = payerKnowledge(month, payers, named, reading, credits);

  return {
    likelihood(r, l, f, li) {
      return (
        digitsWeight(l, f) +
        timeWeight(r, l) +
        accountWeight(r, l) +
        (f.note ? Math.log(20) : 0) +
        payer.weight(r, l, li, f)
      );
    },
    time: timeWeight,
    offset(r) {
      return priorOdds - Math.log(background(credits, win, r, r.amount));
    },
    payerNote: payer.note,
    payerSettles: payer.settles,
    summary: {
      anchors: anchors.length,
      digitAnchors: digits.anchors,
      typo: digits.model.typo,
      different: digits.model.different,
      paidShare,
    },
  };
}

function nameKey({ reports, lines }: MonthCandidates, ri: number, li: number): string {
  return `${reports[ri].store_id}|${lines[li].payer}`;
}

function learnName(month: MonthCandidates, into: Names, ri: number, li: number): void {
  if (!month.lines[li].payer) return;
  const key = nameKey(month, ri, li);
  const list = into.get(key);
  if (list) list.push({ line: li, five: month.reports[ri].last_five });
  else into.set(key, [{ line: li, five: month.reports[ri].last_five }]);
}

function anchorOf(r: ReconcileReport, l: ReconcileLine): TimeAnchor {
  return {
    x: l.at - r.paid_at,
    y: l.at - nextBusinessDayStart(r.paid_at),
    ctx: contextOf(r.paid_at),
    hasTime: l.hasTime,
    dayDiff: taipeiDayNumber(l.at) - taipeiDayNumber(r.paid_at),
  };
}

/** Booking habits over every account, and per account. */
function learnTimes({ reports, lines }: MonthCandidates, pairs: Candidate[]): (l: ReconcileLine) => TimeModel {
  const perSource = new Map<string, TimeAnchor[]>();
  for (const c of pairs) {
    const src = sourceOf(lines[c.line]);
    const list = perSource.get(src) ?? perSource.set(src, []).get(src)!;
    list.push(anchorOf(reports[c.report], lines[c.line]));
  }
  const pooled = fitTime(priorTimeModel(), [...perSource.values()].flat(), PRIOR_STRENGTH);
  const bySource = new Map([...perSource].map(([src, list]) => [src, fitTime(pooled, list, 2 * PRIOR_STRENGTH)]));
  return (l: ReconcileLine) => bySource.get(sourceOf(l)) ?? pooled;
}

function timeWeigher(
  sharpTimes: (l: ReconcileLine) => TimeModel,
  spreadTimes: (l: ReconcileLine) => TimeModel,
  win: Window,
): (r: ReconcileReport, l: ReconcileLine) => number {
  const chanceTime = 1 / (win.before + win.after);
  const dayChance = (r: ReconcileReport, dd: number) => {
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
  return (r, l) => {
    const ratio =
      (1 - TIME_SPREAD) * timeDensity(sharpTimes(l), r, l) + TIME_SPREAD * timeDensity(spreadTimes(l), r, l);
    return Math.log(Math.max(ratio, 1e-4));
  };
}

function perAccount(pairs: Iterable<[number, string]>) {
  const of = new Map<number, Map<string, number>>();
  const total = new Map<number, number>();
  for (const [st, src] of pairs) {
    let m = of.get(st);
    if (!m) of.set(st, (m = new Map()));
    m.set(src, (m.get(src) ?? 0) + 1);
    total.set(st, (total.get(st) ?? 0) + 1);
  }
  return { of, total };
}

/**
 * On a statement for all stores a store's transfers land on its own account nearly always: the
 * anchors' share on an account over the candidates', pulled toward 1.
 */
function accountWeigher(
  { reports, lines, ofReport }: MonthCandidates,
  anchors: Candidate[],
): (r: ReconcileReport, l: ReconcileLine) => number {
  const storeAndAccount = (c: Candidate): [number, string] => [reports[c.report].store_id, sourceOf(lines[c.line])];
  const cands = perAccount(ofReport.flat().map(storeAndAccount));
  const anchored = perAccount(anchors.map(storeAndAccount));
  const ACCOUNT_PRIOR = 10;
  return (r, l) => {
    const bg = cands.of.get(r.store_id);
    const src = sourceOf(l);
    const share = (bg?.get(src) ?? 0) / Math.max(1, cands.total.get(r.store_id) ?? 0);
    if (!(share > 0) || share >= 1) return 0;
    const n = anchored.total.get(r.store_id) ?? 0;
    const k = anchored.of.get(r.store_id)?.get(src) ?? 0;
    return Math.log((k + ACCOUNT_PRIOR * share) / (n + ACCOUNT_PRIOR) / share);
  };
}

/** Typos and other accounts, counted on pairs alone on both sides in being likely by time (nearly all true). */
function learnDigits(
  month: MonthCandidates,
  teacher: Teacher,
  timeWeight: (r: ReconcileReport, l: ReconcileLine) => number,
): { model: DigitsModel; anchors: number } {
  const { reports, lines, ofReport } = month;
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
  const likely = strongOfReport.map((x) => (x && strongOfLine[x.line] === 1 ? x : null));
  for (const c of teacher.digitPairs(month, likely)) {
    if (c.facts.visible < 3 || c.facts.digits === 'unknown') continue;
    nDigits++;
    if (c.facts.digits === 'typo') nTypo++;
    else if (c.facts.digits === 'different') nDiff++;
  }
  const S = 50;
  const model = {
    typo: (nTypo + S * PRIOR_DIGITS.typo) / (nDigits + S),
    different: (nDiff + S * PRIOR_DIGITS.different) / (nDigits + S),
  };
  return { model, anchors: nDigits };
}

/** A regular's digits say less than a one-off's, two customers sharing a last five less still. */
function digitsWeigher(lines: ReconcileLine[], digitsModel: DigitsModel): (l: ReconcileLine, f: PairFacts) => number {
  const suffixCount = new Map<string, number>();
  const shownCount = new Map<string, number>();
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
  return (l, f) => {
    const k = f.visible;
    if (f.digits === 'equal') return Math.log((1 - digitsModel.typo - digitsModel.different) / chanceEqual(l, k));
    if (f.digits === 'typo') return Math.log(digitsModel.typo / (9 * k + k - 1) / 10 ** -k);
    if (f.digits === 'different') return Math.log(digitsModel.different / (1 - 10 ** -k * (10 * k)));
    return 0;
  };
}

interface CreditCounts {
  amount: Map<string, number>;
  store: Map<string, number>;
  payer: Map<string, number>;
  first: number;
  last: number;
}

function countCredits(lines: ReconcileLine[]): CreditCounts {
  const counts: CreditCounts = {
    amount: new Map(),
    store: new Map(),
    payer: new Map(),
    first: Infinity,
    last: -Infinity,
  };
  for (const l of lines) {
    if (l.amount <= 0) continue;
    bump(counts.amount, `${storeKey(l)}|${l.amount}`);
    bump(counts.store, storeKey(l));
    if (l.payer) bump(counts.payer, `${storeKey(l)}|${l.payer}`);
    if (l.at < counts.first) counts.first = l.at;
    if (l.at > counts.last) counts.last = l.at;
  }
  return counts;
}

/** A first reading's share paid, else the spanned reports' with a candidate (a later one's credit is not there yet). */
function estimatePaidShare(
  { reports, ofReport }: MonthCandidates,
  win: Window,
  credits: CreditCounts,
  fromReading: number | undefined,
): number {
  let spanned = 0;
  let withCandidates = 0;
  reports.forEach((r, ri) => {
    if (r.paid_at - win.before < credits.first || r.paid_at + win.after > credits.last) return;
    spanned++;
    if (ofReport[ri].length > 0) withCandidates++;
  });
  return Math.min(0.99, Math.max(0.5, fromReading ?? (spanned >= 20 ? (withCandidates / spanned) * 0.99 : 0.95)));
}

/** Other credits of this amount per window (a statement for all stores counts for each store). */
function background(credits: CreditCounts, win: Window, r: ReconcileReport, amount: number): number {
  const span = Math.max(credits.last - credits.first, 7 * DAY_MS);
  const n = (credits.amount.get(`${r.store_id}|${amount}`) ?? 0) + (credits.amount.get(`all|${amount}`) ?? 0);
  return Math.max(0.05, (Math.max(0, n - 1) * (win.before + win.after)) / span);
}

function rememberPayers(payers: PayerMemory[]): Map<string, Set<string>> {
  const memory = new Map<string, Set<string>>();
  for (const p of payers) {
    if (!p.payer) continue;
    const key = `${p.store_id}|${p.payer}`;
    const set = memory.get(key);
    if (set) set.add(p.last_five);
    else memory.set(key, new Set([p.last_five]));
  }
  return memory;
}

/** How far a name tells a customer apart, from anchors sharing one (王*明 may be several people; a family shares one). */
function nameTellsOf(named: Names): number {
  let nameSeen = 0;
  let nameSame = 0;
  for (const list of named.values()) {
    if (list.length < 2) continue;
    for (const x of list) {
      nameSeen++;
      if (list.some((y) => y !== x && y.five === x.five)) nameSame++;
    }
  }
  const NAME_PRIOR = 10;
  return (nameSame + NAME_PRIOR * 0.85) / (nameSeen + NAME_PRIOR);
}

function payerKnowledge(
  month: MonthCandidates,
  payers: PayerMemory[],
  named: Names,
  { sure, kin }: FirstReading,
  credits: CreditCounts,
) {
  const memory = rememberPayers(payers);
  const nameTells = nameTellsOf(named);
  const anchored = new Set(named.keys());
  for (const [ri, li] of sure) if (!anchored.has(nameKey(month, ri, li))) learnName(month, named, ri, li);
  // kin kept apart: it pays for these last fives, never only for them (the spouse's own orders)
  const kinOf: Names = new Map();
  for (const [ri, li] of kin) learnName(month, kinOf, ri, li);
  const note = payerNoteOf(memory, named, kinOf);
  return {
    note,
    settles: payerSettlesOf(memory, named, kinOf),
    weight: payerWeigher(note, nameTells, (l) => {
      const n = credits.store.get(storeKey(l)) ?? 1;
      return Math.max(1, (credits.payer.get(`${storeKey(l)}|${l.payer}`) ?? 1) - 1) / n;
    }),
  };
}

/** A line never teaches itself: `self` leaves its own line out of the month's names. */
function payerNoteOf(memory: Map<string, Set<string>>, named: Names, kinOf: Names) {
  return (r: ReconcileReport, l: ReconcileLine, self = -1): PayerNote | null => {
    if (!l.payer) return null;
    const fives = memory.get(`${r.store_id}|${l.payer}`);
    if (fives) return { known: fives.has(r.last_five) ? 'same' : 'other', fives: [...fives], from: 'memory' };
    const key = `${r.store_id}|${l.payer}`;
    const seen = named.get(key)?.filter((x) => x.line !== self) ?? [];
    const paysFor = kinOf.get(key)?.filter((x) => x.line !== self) ?? [];
    const month = [...new Set([...seen, ...paysFor].map((x) => x.five))];
    if (paysFor.some((x) => x.five === r.last_five)) return { known: 'same', fives: month, from: 'month' };
    if (!seen.length) return null;
    return { known: month.includes(r.last_five) ? 'same' : 'other', fives: month, from: 'month' };
  };
}

function payerSettlesOf(memory: Map<string, Set<string>>, named: Names, kinOf: Names) {
  return (r: ReconcileReport, l: ReconcileLine, self = -1): boolean => {
    if (!l.payer || isGenericPayer(l.payer)) return false;
    const key = `${r.store_id}|${l.payer}`;
    const fives = memory.get(key);
    if (!fives || fives.size !== 1 || !fives.has(r.last_five)) return false;
    const others = [...(named.get(key) ?? []), ...(kinOf.get(key) ?? [])].filter((x) => x.line !== self);
    return others.every((x) => x.five === r.last_five);
  };
}

/** `payerChance`: the rarer the payer's credits, the more a known payer says. */
function payerWeigher(
  payerNote: (r: ReconcileReport, l: ReconcileLine, self?: number) => PayerNote | null,
  nameTells: number,
  payerChance: (l: ReconcileLine) => number,
) {
  return (r: ReconcileReport, l: ReconcileLine, li: number, f: PairFacts): number => {
    const note = payerNote(r, l, li);
    if (!note) return 0;
    // other digits from a payer known to pay for this last five: the payer says which account
    if (f.digits === 'different') return note.known === 'same' ? Math.log(KIN_TELLS / payerChance(l)) : 0;
    // what the memory adds beyond the digits the line shows
    const hidden = f.digits === 'equal' ? 5 - f.visible : f.digits === 'unknown' ? 5 : 0;
    if (note.from === 'memory')
      return note.known === 'same' ? Math.log(0.85 * 10 ** Math.min(hidden, 3)) : Math.log(0.3);
    // a typo the digits already weigh: the anchors' name says the same again
    if (f.digits !== 'equal' && f.digits !== 'unknown') return 0;
    return note.known === 'same'
      ? Math.log(nameTells * 10 ** Math.min(hidden, 3))
      : Math.log(Math.max(0.05, 1 - nameTells));
  };
}
