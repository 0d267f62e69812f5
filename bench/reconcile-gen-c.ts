/**
 * Generator C: a month of remittance reports and the bank statements that pay them, as files
 * (bytes exactly as the banks export them), with the ground truth. Written from the brief alone,
 * apart from the matcher and the other generators: it knows the shapes the statement reader
 * accepts (core/reconcile/statement.ts, docs/reconciliation.md "What it reads") and nothing of how matching decides.
 *
 * The world: 2–4 stores (3 or 4 by the seed unless `stores` is given), each with its own bank and
 * its own export shape. Customers transfer money (regulars every few days, many one-off), mostly
 * at a handful of list prices; a clerk reports each payment (last five, time, amount) with the
 * habits below; the bank books the transfer, sometimes later; the statement shows the payer as an
 * account (whole, masked with 3/4/5 visible digits in several forms, or none), a name (common
 * names shared by many people, masked names) or a generic label (現金存款, ATM存款, 無摺存入).
 *
 * Shapes written (one per store, the first three always present when there are three stores or more):
 *  - 玉山 (esun): Big5 CSV, title rows with 帳號：, ROC dates `115/11/05`, 交易時間 `14:03:22`,
 *    存入 / 支出 columns, 餘額, 對方帳號, 備註, a 資料筆數 footer; oldest first.
 *  - 國泰世華 (cathay): UTF-8 CSV with BOM, no title, 交易日期 `2026/11/05` and 交易時間 `140322`
 *    in separate columns, a signed 金額, 餘額, 轉出入帳號, 交易備註; oldest first.
 *  - 台北富邦 (fubon): .xlsx, title rows (帳號 in its own cell), 交易日期 as a date-time serial,
 *    帳務日期 as a date serial, 支出金額 / 存入金額, 帳戶餘額, 對方銀行代碼/帳號, 備註, 轉帳留言,
 *    a 以上資料僅供參考 footer; newest first.
 *  - 中華郵政 (post): UTF-8 CSV without BOM, date only (`1151105`, no time), 存入 / 支出, 結存,
 *    對方帳號, 備註, a 合計 footer; oldest first.
 *  - 中國信託 (ctbc): UTF-8 CSV with BOM, 日期時間 `2026/11/05 14:03` in one cell, 存 / 提, 餘額,
 *    註記, 對方帳號; oldest first.
 * A store chosen by `digitsInNote` gets its bank's variant without the counterparty column: the
 * account is then written inside 備註 / 附註 / 註記 / 摘要.
 *
 * Labelling decisions (where the brief left a choice):
 *  - A report with a mistyped amount: in `paid`, not in `pair`; its line (no report of its amount
 *    claims it) is in `unreportedLines`; the true link is also given in `amountTypos`
 *    (report uuid → line) for a bench that wants to score it otherwise.
 *  - A report made twice: the first one made is paid (pair), the duplicate is in `unpaidReports`
 *    (`duplicates`: duplicate uuid → original uuid).
 *  - Split / combined payments near the edges keep whatever part is present: a group lists the
 *    reports of the window and the lines of the files (so a split may show one of its two lines);
 *    a group with no line in the files is dropped (its reports are in `paid` only); a line whose
 *    every report falls outside the report window is in `unreportedLines` (no report of the month
 *    explains it). The same holds for plain payments.
 *  - Customers' cash deposits (masking `none`) are ordinary payments: they are reported and paid.
 */
import iconv from 'iconv-lite';
import * as XLSX from 'xlsx';
import type { ReconcileReport } from '../core/reconcile/types.js';
import type { MonthKnobs } from './reconcile-knobs.js';

// ---- the contract ---------------------------------------------------------------------------

/** The bench's one contract for a month written as files (shared with generator B's types only). */
export type { FileMonth, StatementFile } from './reconcile-gen-b.js';
import type { FileMonth, StatementFile } from './reconcile-gen-b.js';

/** Generator C's own habits, beyond the shared knobs. */
export interface ExtraKnobsC {
  /** list (catalogue) prices per store; default from amountDiversity (clamp(round(d/3), 3, 8)) */
  listPrices: number;
  /** share of transfers at a list price; default from amountDiversity (clamp(1 − d/100, 0.05, 0.97): 18 → 0.82) */
  listShare: number;
  /** share of a regular's transfers at their usual amount */
  regularSameAmount: number;
  /** mean days between a regular's visits (each regular 0.5×–1.5× this) */
  regularEveryDays: number;
  /** of masked accounts, how many digits show: five, four or three (weights) */
  maskDigits: { five: number; four: number; three: number };
  /** share of lines that show the payer's name (full or masked) in the payer column or a note */
  nameShown: number;
  /** of names shown, share masked (王*明) */
  maskedName: number;
  /** share of account-less lines (masking none) whose payer column / note holds a generic label (現金存款, ATM存款, 無摺存入) */
  genericLabel: number;
  /** share of names drawn from the few commonest full names (陳美玲, 林志豪 …), each shared by many customers */
  commonName: number;
  /** share of customers who type a message on their transfer (轉帳留言: 貨款, a nickname, an order number) */
  transferMessage: number;
  /** share of reports whose amount is mistyped (the transfer is the true amount) */
  amountTypo: number;
  /** share of reports made twice (the duplicate is unpaid) */
  duplicateReport: number;
  /** share of reports with a note */
  reportNote: number;
  /** scale of the account's other credits: interest, refunds, platform payouts, staff cash deposits of the takings (0 = none) */
  otherCredits: number;
  /** scale of the debits: rent, fees, suppliers, salaries (0 = none) */
  debits: number;
  /** days of reports before the month (reportsFrom = period.from − this) */
  marginBefore: number;
  /** days of reports after the month (reportsTo = period.to + this − 1 ms) */
  marginAfter: number;
  /** days the statements cover before the month's first day */
  coverageLead: number;
  /** days the statements cover after the month (the download was made a few days into the next month) */
  coverageTail: number;
}

export type KnobsC = MonthKnobs & ExtraKnobsC;

/** Defaults (a `stores` of 0 means 3 or 4 stores, chosen by the seed). */
export const DEFAULT_KNOBS_C: KnobsC = {
  amountDiversity: 18,
  regularShare: 0.15,
  masking: { whole: 0.25, masked: 0.65, none: 0.1 },
  bookingDelay: 1,
  reportTimeError: 1,
  typoRate: 0.03,
  swapRate: 0.01,
  sharedLastFive: 0.03,
  combined: 0.01,
  split: 0.01,
  unreported: 0.02,
  unpaid: 0.02,
  digitsInNote: 0.34,
  perDay: 40,
  stores: 0,
  listPrices: 6,
  listShare: 0.82,
  regularSameAmount: 0.7,
  regularEveryDays: 4,
  maskDigits: { five: 0.55, four: 0.3, three: 0.15 },
  nameShown: 0.35,
  maskedName: 0.4,
  genericLabel: 0.6,
  commonName: 0.35,
  transferMessage: 0.15,
  amountTypo: 0.01,
  duplicateReport: 0.01,
  reportNote: 0.15,
  otherCredits: 1,
  debits: 1,
  marginBefore: 5,
  marginAfter: 4,
  coverageLead: 0,
  coverageTail: 2,
};

/** What generateMonthC returns: the contract, plus the truths the contract has no room for. */
export interface FileMonthC extends FileMonth {
  /** the knobs used, defaults filled in */
  knobs: KnobsC;
  /** report with a mistyped amount → the line that really paid it (in the files) */
  amountTypos: Map<string, string>;
  /** duplicate report → the report it repeats */
  duplicates: Map<string, string>;
  /** line → the visible digits the generator wrote for the payer ('' = none) */
  lineDigits: Map<string, string>;
}

// ---- randomness -----------------------------------------------------------------------------

class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    // splitmix32 to seed sfc32
    let s = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
    const mix = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 15; i++) this.u32();
  }
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  next(): number {
    return this.u32() / 4294967296;
  }
  /** integer in [lo, hi] */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  uniform(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  weighted<T>(xs: readonly T[], ws: readonly number[]): T {
    let total = 0;
    for (const w of ws) total += Math.max(0, w);
    if (total <= 0) return xs[0];
    let r = this.next() * total;
    for (let i = 0; i < xs.length; i++) {
      r -= Math.max(0, ws[i]);
      if (r < 0) return xs[i];
    }
    return xs[xs.length - 1];
  }
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()));
    const l = Math.exp(-lambda);
    let k = 0;
    let p = 1;
    do {
      k++;
      p *= this.next();
    } while (p > l);
    return k - 1;
  }
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  }
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }
  uuid(): string {
    const hex = () => this.u32().toString(16).padStart(8, '0');
    const h = hex() + hex() + hex() + hex();
    const variant = '89ab'[this.int(0, 3)];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

// ---- time (Taiwan, UTC+8, no DST) ----------------------------------------------------------

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const TZ = 8 * HOUR;

const tpe = (y: number, m: number, d: number, hh = 0, mi = 0, ss = 0) => Date.UTC(y, m - 1, d, hh, mi, ss) - TZ;
const wall = (ms: number) => {
  const d = new Date(ms + TZ);
  return {
    y: d.getUTCFullYear(),
    m: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    hh: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    ss: d.getUTCSeconds(),
    dow: d.getUTCDay(),
  };
};
const dayStart = (ms: number) => Math.floor((ms + TZ) / DAY) * DAY - TZ;
const isWeekend = (ms: number) => {
  const w = wall(ms).dow;
  return w === 0 || w === 6;
};
const nextBusinessDay = (ms: number) => {
  let d = dayStart(ms) + DAY;
  while (isWeekend(d)) d += DAY;
  return d;
};
const p2 = (n: number) => String(n).padStart(2, '0');
const gDate = (ms: number, sep = '/') => {
  const w = wall(ms);
  return `${w.y}${sep}${p2(w.m)}${sep}${p2(w.d)}`;
};
const rocDate = (ms: number, sep = '/') => {
  const w = wall(ms);
  return `${w.y - 1911}${sep}${p2(w.m)}${sep}${p2(w.d)}`;
};
const clock = (ms: number, sep = ':', seconds = true) => {
  const w = wall(ms);
  return seconds ? `${p2(w.hh)}${sep}${p2(w.mi)}${sep}${p2(w.ss)}` : `${p2(w.hh)}${sep}${p2(w.mi)}`;
};
const serial = (ms: number) => (ms + TZ) / DAY + 25569;
const floorMinute = (ms: number) => Math.floor(ms / MIN) * MIN;
/** interpolates a value at level 0, 1 and 2 (levels beyond 2 extrapolate gently, clamped to [0, 1] by the caller) */
const at3 = (level: number, v: [number, number, number]) => {
  const l = Math.max(0, level);
  if (l <= 1) return v[0] + (v[1] - v[0]) * l;
  return v[1] + (v[2] - v[1]) * (l - 1);
};
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

// ---- the world's vocabulary ----------------------------------------------------------------

/** The commonest full names, shared by thousands of people (weighted by rank). */
const COMMON_NAMES = [
  '陳美玲',
  '林志豪',
  '王小明',
  '張淑芬',
  '李建宏',
  '陳怡君',
  '林雅婷',
  '黃志明',
  '張家豪',
  '王淑惠',
  '李佳穎',
  '吳美惠',
  '劉建志',
  '陳志偉',
  '林淑貞',
  '蔡宗翰',
];
const SURNAMES = [
  '陳',
  '林',
  '黃',
  '張',
  '李',
  '王',
  '吳',
  '劉',
  '蔡',
  '楊',
  '許',
  '鄭',
  '謝',
  '郭',
  '洪',
  '曾',
  '邱',
  '廖',
  '賴',
  '周',
  '徐',
  '蘇',
  '葉',
  '莊',
  '呂',
  '江',
  '何',
  '蕭',
  '羅',
  '高',
];
const SURNAME_W = SURNAMES.map((_, i) => 1 / (i + 3));
const GIVEN = [
  '美',
  '玲',
  '志',
  '豪',
  '明',
  '淑',
  '芬',
  '建',
  '宏',
  '怡',
  '君',
  '雅',
  '婷',
  '家',
  '佳',
  '穎',
  '惠',
  '俊',
  '傑',
  '宗',
  '翰',
  '承',
  '恩',
  '宇',
  '軒',
  '欣',
  '冠',
  '廷',
  '柏',
  '彥',
  '詩',
  '涵',
  '子',
  '晴',
  '文',
  '華',
  '秀',
  '英',
  '麗',
  '珍',
  '國',
  '榮',
  '信',
  '心',
  '瑜',
  '偉',
  '琪',
  '安',
  '庭',
  '昱',
];
const BANK_CODES = [
  '004',
  '005',
  '006',
  '007',
  '008',
  '009',
  '011',
  '012',
  '013',
  '017',
  '048',
  '050',
  '052',
  '053',
  '054',
  '081',
  '101',
  '103',
  '108',
  '118',
  '147',
  '700',
  '803',
  '805',
  '806',
  '807',
  '808',
  '809',
  '810',
  '812',
  '815',
  '816',
  '822',
];
const CASH_LABELS = ['現金存款', 'ATM存款', '無摺存入'];
const MESSAGES = ['貨款', '訂單', '謝謝', '購物', '付款', '團購', '阿明', '小美', 'Amy', '訂金', '尾款', '補差額'];
const REPORT_NOTES = ['2件', '含運', 'LINE訂單', '自取', '宅配', '會員', '補寄', '團購', '預購', '現場'];
const CATALOGUE = [290, 390, 450, 590, 680, 880, 990, 1280, 1480, 1680, 1980, 2380, 2880, 3200, 4500, 5800];
const STORE_CODES = ['TPE', 'TXG', 'KHH', 'TNN', 'HSZ', 'TYN', 'ILA', 'CYI'];
/** weight of a transfer at each hour of the day (Taiwan time) */
const HOUR_W = [
  0.25, 0.12, 0.06, 0.03, 0.02, 0.04, 0.15, 0.45, 0.9, 1.4, 2, 2.4, 3, 2.8, 2.3, 2.2, 2.2, 2.3, 2.5, 3, 3.2, 3, 2, 0.8,
];
const HOURS = HOUR_W.map((_, i) => i);

type ShapeId = 'esun' | 'cathay' | 'fubon' | 'post' | 'ctbc';
const BANK_NAME: Record<ShapeId, string> = {
  esun: '玉山',
  cathay: '國泰世華',
  fubon: '台北富邦',
  post: '中華郵政',
  ctbc: '中國信託',
};
const BANK_OWN_CODE: Record<ShapeId, string> = { esun: '808', cathay: '013', fubon: '012', post: '700', ctbc: '822' };

interface Bank {
  shape: ShapeId;
  name: string;
  code: string;
  hasCp: boolean;
  account: string;
  /** minutes after midnight of the inter-bank cut-off */
  cutoff: number;
  /** minutes after midnight at which deferred transfers are booked */
  batch: number;
  /** per visible-digit count, the form this bank prefers */
  pref: Record<3 | 4 | 5, number>;
  /** without a counterparty column: account written in 摘要 (true) or in a note (false), as a habit */
  acctInSummary: number;
}

type Kind = 'whole' | 'masked' | 'none';
interface Customer {
  store: number;
  code: string;
  account: string;
  last5: string;
  name: string;
  kind: Kind;
  shown: 3 | 4 | 5;
  form: number;
  regular: boolean;
  fav: number;
  hour: number;
  message: string;
  /** a none-kind customer who deposits cash (else a transfer whose account the bank hides) */
  cash: boolean;
}

/** masked account forms by visible digits; each returns the text as the bank shows it */
const MASK_FORMS: Record<3 | 4 | 5, Array<(c: Customer) => string>> = {
  5: [
    (c) => `${c.code}****${c.account.slice(-5)}`,
    (c) => `${'X'.repeat(9)}${c.account.slice(-5)}`,
    (c) => `${c.code}-****-${c.account.slice(-5)}`,
    (c) => `***${c.account.slice(-5)}`,
  ],
  4: [
    (c) => `***${c.account.slice(-4)}`,
    (c) => `*****${c.account.slice(-4)} 轉帳`,
    (c) => `${c.account.slice(0, 6)}****${c.account.slice(-4)}`,
  ],
  3: [(c) => `******${c.account.slice(-3)}`, (c) => `${c.code}${'*'.repeat(8)}${c.account.slice(-3)}`],
};

const maskName = (name: string) =>
  name.length <= 2 ? `${name[0]}*` : `${name[0]}${'*'.repeat(name.length - 2)}${name[name.length - 1]}`;
const money = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

// ---- the simulation's records --------------------------------------------------------------

type PaymentKind = 'plain' | 'typo-amount' | 'combined' | 'split';
interface Payment {
  kind: PaymentKind;
  reports: string[];
  transfers: number[];
}
interface Line {
  id: number;
  store: number;
  /** booked instant */
  at: number;
  /** signed NT$ */
  amount: number;
  summary: string;
  cp: string;
  note: string;
  /** a second note column (轉帳留言) where the shape has one, else joined into note */
  note2: string;
  digits: string;
  /** the payment it belongs to (customer transfers), else -1 */
  payment: number;
}

// ---- generation -----------------------------------------------------------------------------

function resolveKnobs(k: Partial<KnobsC>, rng: Rng): KnobsC {
  const out: KnobsC = {
    ...DEFAULT_KNOBS_C,
    ...k,
    masking: { ...DEFAULT_KNOBS_C.masking, ...(k.masking ?? {}) },
    maskDigits: { ...DEFAULT_KNOBS_C.maskDigits, ...(k.maskDigits ?? {}) },
  };
  const d = out.amountDiversity;
  if (k.listPrices === undefined) out.listPrices = Math.min(8, Math.max(3, Math.round(d / 3)));
  if (k.listShare === undefined) out.listShare = Math.min(0.97, Math.max(0.05, 1 - d / 100));
  const stores = Math.round(out.stores);
  out.stores = stores >= 1 ? stores : rng.chance(0.5) ? 3 : 4;
  return out;
}

export function generateMonthC(
  knobs: Partial<MonthKnobs> & Partial<ExtraKnobsC>,
  seed: number,
  month: { year: number; month: number } = { year: 2026, month: 11 },
): FileMonthC {
  const rng = new Rng(seed);
  const K = resolveKnobs(knobs, rng);

  const period = {
    from: tpe(month.year, month.month, 1),
    to: tpe(month.month === 12 ? month.year + 1 : month.year, month.month === 12 ? 1 : month.month + 1, 1),
  };
  const reportsFrom = period.from - Math.round(K.marginBefore * DAY);
  const reportsTo = period.to + Math.round(K.marginAfter * DAY) - 1;
  const coverage = {
    from: period.from - Math.round(K.coverageLead) * DAY,
    to: period.to + Math.round(K.coverageTail) * DAY,
  };
  // transfers from well before the report window (booked late, reported late) to a little after it
  const simFrom = dayStart(Math.min(reportsFrom, coverage.from) - 6 * DAY);
  const simTo = dayStart(Math.max(reportsTo, coverage.to) + 2 * DAY);
  const simDays = Math.round((simTo - simFrom) / DAY);
  const yyyymm = `${month.year}${p2(month.month)}`;

  // -- stores and their banks
  const nStores = K.stores;
  const shapes: ShapeId[] = [
    ...rng.shuffle<ShapeId>(['esun', 'cathay', 'fubon']),
    ...rng.shuffle<ShapeId>(['post', 'ctbc']),
  ];
  const noCp = new Set(
    rng
      .shuffle(Array.from({ length: nStores }, (_, i) => i + 1))
      .slice(0, Math.round(clamp01(K.digitsInNote) * nStores)),
  );
  const banks: Bank[] = [];
  const storeWeight: number[] = [];
  for (let s = 1; s <= nStores; s++) {
    const shape = shapes[(s - 1) % shapes.length];
    const accLen = shape === 'post' ? 14 : shape === 'esun' ? 13 : 12;
    banks[s] = {
      shape,
      name: BANK_NAME[shape],
      code: BANK_OWN_CODE[shape],
      hasCp: !noCp.has(s),
      account: String(rng.int(1, 9)) + rng.digits(accLen - 1),
      cutoff: rng.pick([15 * 60 + 30, 15 * 60 + 30, 16 * 60, 15 * 60]),
      batch: rng.pick([5, 30, 7 * 60, 8 * 60 + 30, 9 * 60]),
      pref: {
        3: rng.int(0, MASK_FORMS[3].length - 1),
        4: rng.int(0, MASK_FORMS[4].length - 1),
        5: rng.int(0, MASK_FORMS[5].length - 1),
      },
      acctInSummary: rng.pick([0.1, 0.5, 0.85]),
    };
    storeWeight[s] = rng.uniform(0.6, 1.4);
  }
  const wSum = storeWeight.slice(1).reduce((a, b) => a + b, 0);

  // -- customers
  const customers: Customer[][] = [];
  const regulars: Customer[][] = [];
  const prices: number[][] = [];
  const priceW: number[][] = [];
  const drawName = () => {
    if (rng.chance(K.commonName))
      return rng.weighted(
        COMMON_NAMES,
        COMMON_NAMES.map((_, i) => 1 / (i + 1)),
      );
    const given = rng.chance(0.9) ? rng.pick(GIVEN) + rng.pick(GIVEN) : rng.pick(GIVEN);
    return rng.weighted(SURNAMES, SURNAME_W) + given;
  };
  const variedAmount = () => {
    const x = Math.exp(Math.log(1500) + 0.8 * rng.normal());
    const v = Math.min(60000, Math.max(100, x));
    return rng.chance(0.65) ? Math.round(v / 10) * 10 : Math.round(v);
  };
  const pickAmount = (c: Customer) => {
    if (c.regular && rng.chance(K.regularSameAmount)) return c.fav;
    if (rng.chance(K.listShare)) return rng.weighted(prices[c.store], priceW[c.store]);
    return variedAmount();
  };
  const newCustomer = (store: number, regular: boolean): Customer => {
    const code = rng.pick(BANK_CODES);
    const len = code === '700' ? 14 : rng.pick([12, 13, 14]);
    let account = String(rng.int(1, 9)) + rng.digits(len - 1);
    const pool = customers[store];
    if (pool.length > 0 && rng.chance(clamp01(K.sharedLastFive) / 2)) {
      const other = regulars[store].length > 0 && rng.chance(0.5) ? rng.pick(regulars[store]) : rng.pick(pool);
      account = account.slice(0, -5) + other.last5;
    }
    const kind = rng.weighted<Kind>(['whole', 'masked', 'none'], [K.masking.whole, K.masking.masked, K.masking.none]);
    const shown = rng.weighted<3 | 4 | 5>([5, 4, 3], [K.maskDigits.five, K.maskDigits.four, K.maskDigits.three]);
    const form = rng.chance(0.7) ? banks[store].pref[shown] : rng.int(0, MASK_FORMS[shown].length - 1);
    const c: Customer = {
      store,
      code,
      account,
      last5: account.slice(-5),
      name: drawName(),
      kind,
      shown,
      form,
      regular,
      fav: 0,
      hour: rng.weighted(HOURS, HOUR_W),
      message: rng.chance(K.transferMessage)
        ? rng.chance(0.3)
          ? `訂單${rng.int(1000, 9999)}`
          : rng.pick(MESSAGES)
        : '',
      cash: rng.chance(0.75),
    };
    c.fav = rng.chance(K.listShare) ? rng.weighted(prices[store], priceW[store]) : variedAmount();
    pool.push(c);
    if (regular) regulars[store].push(c);
    return c;
  };

  // -- purchase events: regulars on their rhythm, one-off customers at random
  interface Event {
    t: number;
    c: Customer;
  }
  const events: Event[][] = [];
  const dayWeight = (ms: number) => [1.15, 0.9, 0.95, 0.95, 1, 1.1, 1.25][wall(ms).dow];
  const meanDayWeight = 1.043;
  const timeOfDay = (day: number) => day + rng.weighted(HOURS, HOUR_W) * HOUR + rng.int(0, 3599) * 1000;
  for (let s = 1; s <= nStores; s++) {
    customers[s] = [];
    regulars[s] = [];
    const np = Math.max(1, Math.round(K.listPrices));
    prices[s] = rng
      .shuffle([...CATALOGUE])
      .slice(0, Math.min(np, CATALOGUE.length))
      .sort((a, b) => a - b);
    priceW[s] = rng.shuffle(prices[s].map((_, i) => 1 / (i + 1)));
    events[s] = [];
    const lambda = (K.perDay * storeWeight[s]) / wSum; // events a day
    const share = clamp01(K.regularShare);
    const every = Math.max(1, K.regularEveryDays);
    const total = lambda * simDays;
    const nReg =
      share >= 1
        ? Math.round(total / (simDays / every))
        : Math.round((share * total) / (1 - share + (share * simDays) / every));
    const regRate = nReg / every; // visits a day
    const oneOffRate = Math.max(0, lambda - regRate);
    for (let i = 0; i < nReg; i++) {
      const c = newCustomer(s, true);
      const mine = every * rng.uniform(0.5, 1.5);
      let t = simFrom + rng.uniform(0, mine) * DAY;
      while (t < simTo) {
        const day = dayStart(t);
        const at =
          day +
          Math.min(
            23.99 * HOUR,
            Math.max(6 * HOUR, c.hour * HOUR + rng.normal() * 1.2 * HOUR + rng.int(0, 3599) * 1000),
          );
        events[s].push({ t: Math.round(at / 1000) * 1000, c });
        t += Math.max(0.6, mine * rng.uniform(0.5, 1.5)) * DAY;
      }
    }
    for (let day = simFrom; day < simTo; day += DAY) {
      const n = rng.poisson((oneOffRate * dayWeight(day)) / meanDayWeight);
      for (let i = 0; i < n; i++) events[s].push({ t: timeOfDay(day), c: newCustomer(s, false) });
    }
    events[s].sort((a, b) => a.t - b.t);
  }

  // -- reports, transfers, payments
  const reports: ReconcileReport[] = [];
  const reportPaid = new Map<string, number>(); // uuid → payment index (paid reports only)
  const unpaidIds = new Set<string>();
  const duplicates = new Map<string, string>();
  const payments: Payment[] = [];
  const lines: Line[] = [];
  let lineId = 0;

  const typed = (last5: string) => {
    let s = last5;
    const r = rng.next();
    if (r < K.typoRate) {
      const i = rng.int(0, 4);
      let d = rng.int(0, 8);
      if (String(d) >= s[i]) d++;
      s = s.slice(0, i) + String(d) + s.slice(i + 1);
    } else if (r < K.typoRate + K.swapRate) {
      const pairs = [0, 1, 2, 3].filter((i) => s[i] !== s[i + 1]);
      if (pairs.length > 0) {
        const i = rng.pick(pairs);
        s = s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
      } else {
        const d = (Number(s[2]) + 1) % 10;
        s = s.slice(0, 2) + String(d) + s.slice(3);
      }
    }
    return s;
  };
  const reportTime = (t: number) => {
    const L = K.reportTimeError;
    const base = floorMinute(t);
    if (L <= 0) return base;
    const pDay = clamp01(at3(L, [0, 0.01, 0.05]));
    const pHours = clamp01(at3(L, [0, 0.06, 0.2]));
    const pMinutes = clamp01(at3(L, [0, 0.25, 0.35]));
    const r = rng.next();
    const sign = rng.chance(0.75) ? 1 : -1;
    if (r < pDay) return base + (rng.chance(0.55) ? -DAY : DAY);
    if (r < pDay + pHours) return base + sign * (rng.int(60, 360) * MIN);
    if (r < pDay + pHours + pMinutes) return base + sign * rng.int(4, 59) * MIN;
    return base + rng.int(-1, 3) * MIN;
  };
  const makeReport = (c: Customer, t: number, amount: number, note?: string): ReconcileReport => {
    const r: ReconcileReport = {
      uuid: rng.uuid(),
      store_id: c.store,
      last_five: typed(c.last5),
      paid_at: reportTime(t),
      amount,
      note: note ?? (rng.chance(K.reportNote) ? (rng.chance(0.3) ? c.name : rng.pick(REPORT_NOTES)) : ''),
      status: '未確認',
    };
    reports.push(r);
    return r;
  };
  const maybeDuplicate = (r: ReconcileReport) => {
    if (!rng.chance(K.duplicateReport)) return;
    const d: ReconcileReport = {
      ...r,
      uuid: rng.uuid(),
      paid_at: rng.chance(0.4) ? r.paid_at : r.paid_at + rng.int(1, 25) * MIN,
      note: rng.chance(0.2) ? (r.note ? r.note : '重新回報') : r.note,
    };
    reports.push(d);
    unpaidIds.add(d.uuid);
    duplicates.set(d.uuid, r.uuid);
  };
  const bookAt = (t: number, bank: Bank) => {
    const L = K.bookingDelay;
    if (L <= 0) return t + rng.int(0, 50) * 1000;
    const w = wall(t);
    const afterCut = w.hh * 60 + w.mi >= bank.cutoff;
    const pDefer = clamp01(at3(L, [0, 0.25, 0.6]));
    const pExtra = clamp01(at3(L, [0, 0.08, 0.3]));
    const pHours = clamp01(at3(L, [0, 0.06, 0.18]));
    if ((afterCut || isWeekend(t)) && rng.chance(pDefer)) {
      let day = nextBusinessDay(t);
      if (rng.chance(pExtra)) day = nextBusinessDay(day);
      const at = day + bank.batch * MIN + rng.int(0, 40 * 60) * 1000;
      const limit = (L >= 1.5 ? 3.5 : 3) * DAY;
      if (at - t <= limit) return at;
      const first = nextBusinessDay(t) + bank.batch * MIN + rng.int(0, 40 * 60) * 1000;
      if (first - t <= limit) return first;
    }
    if (rng.chance(pHours)) return t + rng.int(60, 8 * 60) * MIN + rng.int(0, 59) * 1000;
    return t + (rng.chance(0.85) ? rng.int(0, 50) * 1000 : rng.int(1, 20) * MIN);
  };
  /** the statement's picture of a customer's transfer (payer column, notes, digits) */
  const describe = (c: Customer, bank: Bank) => {
    let summary: string;
    let cp = '';
    let note = '';
    let note2 = c.message;
    let digits = '';
    const nameText = rng.chance(K.nameShown) ? (rng.chance(K.maskedName) ? maskName(c.name) : c.name) : '';
    if (c.kind === 'none') {
      summary = c.cash ? rng.pick(CASH_LABELS) : rng.pick(['跨行轉入', '轉帳存入']);
      let who = nameText;
      if (!who && rng.chance(K.genericLabel)) who = c.cash ? rng.pick(CASH_LABELS) : rng.pick(['跨行轉帳', '網路轉帳']);
      if (c.cash) note2 = '';
      if (bank.hasCp && rng.chance(0.5)) cp = who;
      // a teller writes the label and the depositor's name (無摺存入 陳美玲)
      else note = c.cash && nameText && rng.chance(0.4) ? `${rng.pick(CASH_LABELS)} ${nameText}` : who;
    } else {
      const acct =
        c.kind === 'whole'
          ? rng.chance(0.5)
            ? `${c.code}${c.account}`
            : c.account
          : MASK_FORMS[c.shown][c.form % MASK_FORMS[c.shown].length](c);
      digits = c.kind === 'whole' ? c.account.slice(-5) : c.account.slice(-c.shown);
      const sameBank = c.code === bank.code;
      summary = sameBank ? '轉帳存入' : rng.pick(['跨行轉入', '跨行轉入', '網銀轉入', 'ATM轉入', '行動銀行轉入']);
      if (bank.hasCp) {
        cp = acct;
        note = nameText;
      } else if (rng.chance(bank.acctInSummary)) {
        summary = `${summary} ${acct}`;
        note = nameText;
      } else {
        note = nameText ? (rng.chance(0.5) ? `${acct} ${nameText}` : `${nameText} ${acct}`) : acct;
      }
    }
    return { summary, cp, note, note2, digits };
  };
  const addTransfer = (c: Customer, t: number, amount: number, payment: number) => {
    const bank = banks[c.store];
    const d = describe(c, bank);
    lines.push({ id: lineId++, store: c.store, at: bookAt(t, bank), amount, ...d, payment });
    return lineId - 1;
  };

  for (let s = 1; s <= nStores; s++) {
    for (const { t, c } of events[s]) {
      const r = rng.next();
      const cut1 = K.unpaid;
      const cut2 = cut1 + K.unreported;
      const cut3 = cut2 + K.combined;
      const cut4 = cut3 + K.split;
      if (r < cut1) {
        const rep = makeReport(c, t, pickAmount(c));
        unpaidIds.add(rep.uuid);
        maybeDuplicate(rep);
      } else if (r < cut2) {
        const p = payments.push({ kind: 'plain', reports: [], transfers: [] }) - 1;
        payments[p].transfers.push(addTransfer(c, t, pickAmount(c), p));
      } else if (r < cut3) {
        const k = rng.chance(0.75) ? 2 : 3;
        const p = payments.push({ kind: 'combined', reports: [], transfers: [] }) - 1;
        let sum = 0;
        const together = rng.chance(0.3) ? rng.pick(['一起匯款', '合併匯款', '同一筆']) : undefined;
        for (let i = 0; i < k; i++) {
          const a = pickAmount(c);
          sum += a;
          const rep = makeReport(c, t + i * rng.int(0, 3) * MIN, a, together);
          payments[p].reports.push(rep.uuid);
          reportPaid.set(rep.uuid, p);
        }
        payments[p].transfers.push(addTransfer(c, t, sum, p));
      } else if (r < cut4) {
        const p = payments.push({ kind: 'split', reports: [], transfers: [] }) - 1;
        let total = pickAmount(c);
        if (total < 400) total += rng.pick(prices[s]);
        const first = rng.chance(0.5) ? Math.round((total * rng.uniform(0.3, 0.7)) / 100) * 100 : Math.round(total / 2);
        const a1 = Math.min(total - 1, Math.max(1, first));
        const t2 = rng.chance(0.8) ? t + rng.int(1, 30) * MIN : t + DAY + rng.int(-120, 120) * MIN;
        payments[p].transfers.push(addTransfer(c, t, a1, p), addTransfer(c, t2, total - a1, p));
        const rep = makeReport(
          c,
          rng.chance(0.5) ? t2 : t,
          total,
          rng.chance(0.3) ? rng.pick(['分兩筆匯款', '分2次', '分開匯']) : undefined,
        );
        payments[p].reports.push(rep.uuid);
        reportPaid.set(rep.uuid, p);
      } else {
        const amount = pickAmount(c);
        const p = payments.push({ kind: 'plain', reports: [], transfers: [] }) - 1;
        payments[p].transfers.push(addTransfer(c, t, amount, p));
        let reported = amount;
        if (rng.chance(K.amountTypo)) {
          payments[p].kind = 'typo-amount';
          reported = mistype(amount, rng);
        }
        const rep = makeReport(c, t, reported);
        payments[p].reports.push(rep.uuid);
        reportPaid.set(rep.uuid, p);
        maybeDuplicate(rep);
      }
    }
  }

  // -- the accounts' other credits and debits
  const staff = ['陳美玲', '林雅婷', '王小明', '黃志明', '張淑芬'];
  const other = (store: number, at: number, amount: number, summary: string, cp = '', note = '', note2 = '') => {
    const acct = /\d{10,}/.exec(`${cp} ${note}`);
    lines.push({
      id: lineId++,
      store,
      at,
      amount,
      summary,
      cp,
      note,
      note2,
      digits: acct ? acct[0].slice(-5) : '',
      payment: -1,
    });
  };
  for (let s = 1; s <= nStores; s++) {
    const bank = banks[s];
    const oc = Math.max(0, K.otherCredits);
    const db = Math.max(0, K.debits);
    const companyAcct = () => rng.pick(BANK_CODES) + String(rng.int(1, 9)) + rng.digits(12);
    const noteAcct = (acct: string, text: string) =>
      bank.hasCp ? { cp: acct, note: text } : { cp: '', note: `${acct} ${text}` };
    for (let day = simFrom; day < simTo; day += DAY) {
      const w = wall(day);
      const business = !isWeekend(day);
      // staff deposit the takings (cash) most business days
      if (business && rng.chance(0.55 * Math.min(1, oc))) {
        for (let i = 0, n = oc > 1 ? rng.poisson(oc) : 1; i < n; i++) {
          const amt = rng.chance(0.5) ? rng.int(30, 600) * 100 : rng.int(3000, 60000);
          const label = rng.pick(CASH_LABELS);
          const who = rng.chance(0.5) ? rng.pick(staff) : rng.chance(0.5) ? '營業收入' : '';
          other(
            s,
            day + rng.int(10 * 60, 16 * 60) * MIN + rng.int(0, 59) * 1000,
            amt,
            label,
            bank.hasCp && rng.chance(0.3) ? who : '',
            bank.hasCp ? '' : who,
          );
        }
      }
      // interest on the 21st
      if (w.d === 21 && rng.chance(Math.min(1, oc)))
        other(s, day + rng.int(0, 30) * MIN, rng.int(3, 180), rng.pick(['利息存入', '結算息', '存款息']));
      // refunds and platform payouts
      if (rng.chance(Math.min(1, 0.08 * oc))) {
        const x = noteAcct(companyAcct(), rng.pick(['退款', '貨款退回', '溢付退還', '廠商退款']));
        other(s, timeOfDay(day), rng.int(15, 300) * 10, '跨行轉入', x.cp, x.note);
      }
      if (w.dow === 2 && rng.chance(Math.min(1, 0.7 * oc))) {
        const x = noteAcct(companyAcct(), rng.pick(['街口支付撥款', 'LINE Pay 撥款', '信用卡撥款']));
        other(s, day + rng.int(9 * 60, 11 * 60) * MIN, rng.int(2000, 40000), '跨行轉入', x.cp, x.note);
      }
      if (db <= 0) continue;
      // debits
      if (w.d === 5 && rng.chance(Math.min(1, db))) {
        const x = noteAcct(companyAcct(), '房租');
        other(s, day + rng.int(9 * 60, 12 * 60) * MIN, -rng.int(35, 80) * 1000, '轉帳支出', x.cp, x.note);
        other(s, day + rng.int(12 * 60, 13 * 60) * MIN, -15, '跨行手續費');
      }
      if (w.d === 10 && rng.chance(Math.min(1, db)))
        for (const who of staff.slice(0, rng.int(2, 4)))
          other(s, day + 10 * HOUR + rng.int(0, 30) * MIN, -rng.int(280, 420) * 100, '薪資轉帳', '', who);
      if (w.d === 15 && rng.chance(Math.min(1, db)))
        other(s, day + rng.int(8, 12) * HOUR, -rng.int(2500, 9000), rng.pick(['電費', '台電代繳']));
      if (w.d === 18 && rng.chance(Math.min(1, db)))
        other(s, day + rng.int(8, 12) * HOUR, -rng.int(600, 1600), rng.pick(['電信費', '中華電信']));
      if (business && rng.chance(Math.min(1, 0.25 * db))) {
        const x = noteAcct(companyAcct(), rng.pick(['進貨', '貨款', '廠商']));
        other(s, day + rng.int(9 * 60, 15 * 60) * MIN, -rng.int(80, 900) * 100, '轉帳支出', x.cp, x.note);
        other(s, day + rng.int(15 * 60, 16 * 60) * MIN, -rng.pick([10, 15]), '跨行手續費');
      }
      if (rng.chance(Math.min(1, 0.05 * db))) other(s, timeOfDay(day), -rng.int(1, 20) * 1000, 'ATM提款');
    }
  }

  // -- the files: the lines in coverage, per store, with running balances
  const files: StatementFile[] = [];
  const lineName = new Map<number, string>();
  const lineDigits = new Map<string, string>();
  for (let s = 1; s <= nStores; s++) {
    const bank = banks[s];
    const mine = lines
      .filter((l) => l.store === s && l.at >= coverage.from && l.at < coverage.to)
      .sort((a, b) => a.at - b.at || a.id - b.id);
    if (mine.length === 0) continue; // a bank has no statement without a transaction (the reader refuses one)
    let bal = rng.int(300, 900) * 1000 + rng.int(0, 999);
    const balances = mine.map((l) => (bal += l.amount));
    const ext = bank.shape === 'fubon' ? 'xlsx' : 'csv';
    const name = `${bank.name}_${STORE_CODES[(s - 1) % STORE_CODES.length]}${s > STORE_CODES.length ? s : ''}_${yyyymm}.${ext}`;
    const { bytes, rows } = render(bank, mine, balances, coverage);
    mine.forEach((l, i) => {
      const key = `${name}#${rows[i]}`;
      lineName.set(l.id, key);
      if (l.amount > 0) lineDigits.set(key, l.digits);
    });
    files.push({ name, store_id: s, account: bank.account, bytes });
  }

  // -- the truth
  const inWindow = reports
    .filter((r) => r.paid_at >= reportsFrom && r.paid_at <= reportsTo)
    .sort((a, b) => a.paid_at - b.paid_at || (a.uuid < b.uuid ? -1 : 1));
  const present = new Set(inWindow.map((r) => r.uuid));
  const pair = new Map<string, string>();
  const paid = new Set<string>();
  const unpaidReports = new Set<string>();
  const unreportedLines = new Set<string>();
  const groups: FileMonth['groups'] = [];
  const amountTypos = new Map<string, string>();
  for (const r of inWindow) {
    if (reportPaid.has(r.uuid)) paid.add(r.uuid);
    else unpaidReports.add(r.uuid);
  }
  for (const p of payments) {
    const reps = p.reports.filter((u) => present.has(u));
    const ls = p.transfers.map((id) => lineName.get(id)).filter((x): x is string => x !== undefined);
    if (ls.length === 0) continue; // paid outside coverage (or not at all in the files)
    if (reps.length === 0) {
      for (const l of ls) unreportedLines.add(l);
      continue;
    }
    if (p.kind === 'plain') pair.set(reps[0], ls[0]);
    else if (p.kind === 'typo-amount') {
      unreportedLines.add(ls[0]);
      amountTypos.set(reps[0], ls[0]);
    } else groups.push({ payments: reps, lines: ls });
  }
  for (const l of lines)
    if (l.payment < 0 && l.amount > 0 && lineName.has(l.id)) unreportedLines.add(lineName.get(l.id)!);

  return {
    reports: inWindow,
    reportsFrom,
    reportsTo,
    period,
    coverage,
    files,
    pair,
    paid,
    unpaidReports,
    unreportedLines,
    groups,
    knobs: K,
    amountTypos,
    duplicates: new Map([...duplicates].filter(([d]) => present.has(d))),
    lineDigits,
  };
}

/** A clerk's slip on an amount: two digits swapped, a zero dropped or doubled, one digit wrong. */
function mistype(amount: number, rng: Rng): number {
  for (let tries = 0; tries < 10; tries++) {
    const s = String(amount);
    let out = s;
    const how = rng.int(0, 3);
    if (how === 0 && s.length >= 2) {
      const i = rng.int(0, s.length - 2);
      out = s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
    } else if (how === 1 && s.endsWith('0')) out = s.slice(0, -1);
    else if (how === 2) out = s + '0';
    else {
      const i = rng.int(0, s.length - 1);
      out = s.slice(0, i) + String((Number(s[i]) + rng.int(1, 9)) % 10) + s.slice(i + 1);
    }
    const v = Number(out);
    if (v > 0 && v !== amount && !out.startsWith('0')) return v;
  }
  return amount + 100;
}

// ---- the exports ----------------------------------------------------------------------------

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csv = (rows: string[][]) => rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
const join = (...xs: string[]) => xs.filter(Boolean).join(' ');
const dashed = (acct: string) => `${acct.slice(0, 4)}-${acct.slice(4, 7)}-${acct.slice(7)}`;

/** The file's bytes, and for each line (in the given chronological order) its row number. */
function render(
  bank: Bank,
  lines: Line[],
  balances: number[],
  coverage: { from: number; to: number },
): { bytes: Uint8Array; rows: number[] } {
  const rowOf: number[] = new Array(lines.length);
  const last = coverage.to - DAY;
  switch (bank.shape) {
    case 'esun': {
      const out: string[][] = [
        [`${bank.name}銀行 臺幣存款交易明細查詢`],
        [`帳號：${dashed(bank.account)}`],
        [`查詢期間：${rocDate(coverage.from)} ~ ${rocDate(last)}`],
        ['交易日期', '交易時間', '摘要', '支出', '存入', '餘額', ...(bank.hasCp ? ['對方帳號'] : []), '備註'],
      ];
      lines.forEach((l, i) => {
        out.push([
          rocDate(l.at),
          clock(l.at),
          l.summary,
          l.amount < 0 ? money(-l.amount) : '',
          l.amount > 0 ? money(l.amount) : '',
          money(balances[i]),
          ...(bank.hasCp ? [l.cp] : []),
          join(l.note, l.note2),
        ]);
        rowOf[i] = out.length;
      });
      out.push([`資料筆數：${lines.length}`]);
      return { bytes: new Uint8Array(iconv.encode(csv(out), 'big5')), rows: rowOf };
    }
    case 'cathay': {
      const out: string[][] = [
        [
          '交易日期',
          '交易時間',
          '摘要',
          '金額',
          '餘額',
          ...(bank.hasCp ? ['轉出入帳號'] : []),
          '交易備註',
          ...(bank.hasCp ? [] : ['附註']),
        ],
      ];
      lines.forEach((l, i) => {
        const amt = l.amount < 0 ? `-${money(-l.amount)}` : money(l.amount);
        out.push([
          gDate(l.at),
          clock(l.at, ''),
          l.summary,
          amt,
          money(balances[i]),
          ...(bank.hasCp ? [l.cp, join(l.note, l.note2)] : [l.note2, l.note]),
        ]);
        rowOf[i] = out.length;
      });
      const text = '\ufeff' + csv(out);
      return { bytes: new Uint8Array(Buffer.from(text, 'utf8')), rows: rowOf };
    }
    case 'post': {
      const out: string[][] = [
        [`${bank.name} 存簿儲金交易明細`],
        [`存款帳號：${bank.account}`],
        ['交易日期', '摘要', '支出', '存入', '結存', ...(bank.hasCp ? ['對方帳號'] : []), '備註'],
      ];
      let cr = 0;
      let dr = 0;
      lines.forEach((l, i) => {
        if (l.amount > 0) cr += l.amount;
        else dr -= l.amount;
        out.push([
          rocDate(l.at, ''),
          l.summary,
          l.amount < 0 ? String(-l.amount) : '',
          l.amount > 0 ? String(l.amount) : '',
          String(balances[i]),
          ...(bank.hasCp ? [l.cp] : []),
          join(l.note, l.note2),
        ]);
        rowOf[i] = out.length;
      });
      out.push(['合計', '', String(dr), String(cr), '']);
      return { bytes: new Uint8Array(Buffer.from(csv(out), 'utf8')), rows: rowOf };
    }
    case 'ctbc': {
      const out: string[][] = [['日期時間', '摘要', '提', '存', '餘額', '註記', ...(bank.hasCp ? ['對方帳號'] : [])]];
      lines.forEach((l, i) => {
        out.push([
          `${gDate(l.at)} ${clock(l.at, ':', false)}`,
          l.summary,
          l.amount < 0 ? money(-l.amount) : '',
          l.amount > 0 ? money(l.amount) : '',
          money(balances[i]),
          join(l.note, l.note2),
          ...(bank.hasCp ? [l.cp] : []),
        ]);
        rowOf[i] = out.length;
      });
      return { bytes: new Uint8Array(Buffer.from('\ufeff' + csv(out), 'utf8')), rows: rowOf };
    }
    case 'fubon': {
      type Cell = string | number | null;
      const out: Cell[][] = [
        [`${bank.name}銀行 存款交易明細`],
        ['帳號', bank.account],
        ['查詢期間', `${gDate(coverage.from)} ~ ${gDate(last)}`],
        [],
        [
          '交易日期',
          '帳務日期',
          '摘要',
          '支出金額',
          '存入金額',
          '帳戶餘額',
          ...(bank.hasCp ? ['對方銀行代碼/帳號'] : []),
          '備註',
          '轉帳留言',
        ],
      ];
      const dateCells: Array<[number, number, string]> = [];
      // newest first
      for (let i = lines.length - 1; i >= 0; i--) {
        const l = lines[i];
        const r = out.length;
        out.push([
          serial(l.at),
          Math.floor(serial(l.at)),
          l.summary,
          l.amount < 0 ? -l.amount : null,
          l.amount > 0 ? l.amount : null,
          balances[i],
          ...(bank.hasCp ? [l.cp || null] : []),
          l.note || null,
          l.note2 || null,
        ]);
        dateCells.push([r, 0, 'yyyy/mm/dd hh:mm:ss'], [r, 1, 'yyyy/mm/dd']);
        rowOf[i] = r + 1;
      }
      out.push([], ['以上資料僅供參考，實際請以本行帳務為準']);
      const ws = XLSX.utils.aoa_to_sheet(out);
      for (const [r, c, z] of dateCells) {
        const cell = ws[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined;
        if (cell) cell.z = z;
      }
      const wb = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(wb, ws, '交易明細');
      const data = XLSX.write(wb, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer;
      return { bytes: new Uint8Array(data), rows: rowOf };
    }
  }
}
