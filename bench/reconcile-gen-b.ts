/**
 * An independent month of bank-reconciliation test data ("generator B"). It was written apart
 * from the matcher and from bench/reconcile-data.ts, from how Taiwanese shops, customers and banks
 * behave, so that a matcher tuned to one generator can be checked against another.
 *
 * The world it simulates, per store:
 * - customers (a share of them regulars, who come back every few days at about the same hour and
 *   mostly pay the same amount), each with their own account at a Taiwanese bank (bank code and an
 *   11- to 14-digit number); some pay from a family member's account; some share their last five
 *   with another customer of the same store;
 * - each payment is a transfer (網銀 / 行動銀行 through 財金, ATM 轉帳, 臨櫃或網銀匯款, a same-bank
 *   transfer) or an ATM cash deposit (無摺存款) that shows no account;
 * - the shop's bank books it: at once, or (after the 15:30 cut-off, on weekends and holidays) on
 *   the next business day, slower banks more often and up to 3½ days later;
 * - the clerk records a report (last five, time, amount): the time as the customer said it or as
 *   the clerk typed it in later, sometimes hours or a day off; the last five sometimes with a wrong
 *   digit or two digits swapped; some payments are never reported, some reports never paid, some
 *   transfers pay several reports, some reports are paid in two or three transfers;
 * - and the rest of a shop account's life: rent, payroll, suppliers, utilities, ATM withdrawals,
 *   fees, the staff's cash deposits of the takings, refunds and interest.
 *
 * Each store's bank exports its 存款交易明細 in its own shape (see SHAPES): Big5 or UTF-8 CSV with
 * or without BOM, title rows, ROC (民國) dates, ="…" cells, footer rows, an .xlsx; the payer's
 * account in a counterparty column or inside 備註 / 附註, whole, masked or absent.
 *
 * Deterministic for a seed; no Math.random, no clock.
 */
import iconv from 'iconv-lite';
import * as XLSX from 'xlsx';
import type { ReconcileReport } from '../core/reconcile/types.js';
import type { MonthKnobs } from './reconcile-knobs.js';

// ---- the API ------------------------------------------------------------------------------

/** The knobs are the bench's one list (bench/reconcile-knobs.ts); this generator's defaults are its own. */
export type { MonthKnobs };

export const DEFAULT_KNOBS: MonthKnobs = {
  amountDiversity: 60,
  regularShare: 0.3,
  masking: { whole: 0.25, masked: 0.6, none: 0.15 },
  bookingDelay: 1,
  reportTimeError: 1,
  typoRate: 0.03,
  swapRate: 0.01,
  sharedLastFive: 0.03,
  combined: 0.03,
  split: 0.02,
  unreported: 0.04,
  unpaid: 0.02,
  digitsInNote: 0.25,
  perDay: 45,
  stores: 4,
};

export interface StatementFile {
  /** e.g. '中信_TPE_202611.csv' */
  name: string;
  /** 1..stores */
  store_id: number;
  /** the shop's own bank account number (digits) */
  account: string;
  /** exactly what the bank's export would be: CSV (UTF-8 with/without BOM, or Big5) or .xlsx */
  bytes: Uint8Array;
}

export interface FileMonth {
  /** every report whose reported time falls in [reportsFrom, reportsTo] (a margin around the month, so that lines near the edges can find their report) */
  reports: ReconcileReport[];
  reportsFrom: number;
  reportsTo: number;
  /** the month being reconciled: [from, to) epoch ms, Taiwan time (UTC+8, no DST) */
  period: { from: number; to: number };
  /** what the statements cover (epoch ms): [from, to) */
  coverage: { from: number; to: number };
  files: StatementFile[];
  /**
   * Ground truth; a line is named `${file name}#${row}` where row is the 1-based row number as a
   * spreadsheet shows it (title rows and header included).
   * - pair: report uuid → the one line that pays it (plain one-to-one payments whose line is in the files)
   * - paid: every report that was paid (plain, split or combined). A report near the edges may be
   *   paid by a line the files do not cover (booked before coverage.from or from coverage.to on):
   *   it is in `paid` but in neither `pair` nor `groups`.
   * - unpaidReports: reports never paid; paid and unpaidReports partition `reports`
   * - unreportedLines: credit lines no report in `reports` explains (payments nobody reported,
   *   refunds, interest, the staff's cash deposits)
   * - groups: split and combined payments, with the reports and lines of each that are present;
   *   every credit line of the files is in exactly one of pair's values, groups' lines, unreportedLines
   */
  pair: Map<string, string>;
  paid: Set<string>;
  unpaidReports: Set<string>;
  unreportedLines: Set<string>;
  groups: Array<{ payments: string[]; lines: string[] }>;
}

// ---- randomness ---------------------------------------------------------------------------

/** sfc32 seeded through splitmix32: small, fast, good enough, and the same on every machine. */
class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.u32();
  }
  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }
  /** [0, 1) */
  next(): number {
    return this.u32() / 4294967296;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** integer in [lo, hi] */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  range(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  /** an index drawn by weights (cumulative array) */
  weighted(cum: readonly number[]): number {
    const x = this.next() * cum[cum.length - 1];
    let lo = 0,
      hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
  expo(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }
  normal(): number {
    return Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
  }
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }
  uuid(): string {
    let v = '';
    for (let i = 0; i < 4; i++) {
      const x = this.u32();
      v += HEX[x >>> 24] + HEX[(x >>> 16) & 255] + HEX[(x >>> 8) & 255] + HEX[x & 255];
    }
    const variant = '89ab'[this.int(0, 3)];
    return `${v.slice(0, 8)}-${v.slice(8, 12)}-4${v.slice(13, 16)}-${variant}${v.slice(17, 20)}-${v.slice(20, 32)}`;
  }
}
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** a stable number in [0,1) for a key: decisions that must be the same whenever the key recurs */
function hashUnit(seed: number, key: string): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39) >>> 0;
  return ((h ^ (h >>> 15)) >>> 0) / 4294967296;
}

// ---- Taiwan time and the banks' calendar --------------------------------------------------

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const TZ = 8 * HOUR;

const tw = (y: number, m: number, d: number, h = 0, mi = 0, s = 0) => Date.UTC(y, m - 1, d, h, mi, s) - TZ;
const dayStart = (ms: number) => Math.floor((ms + TZ) / DAY) * DAY - TZ;
/** days since 1970-01-01, Taiwan dates */
const dayIndex = (ms: number) => Math.floor((ms + TZ) / DAY);
/** Taiwan wall-clock parts, without a Date (civil-from-days) */
const parts = (ms: number) => {
  const local = ms + TZ;
  const z0 = Math.floor(local / DAY);
  let rest = local - z0 * DAY;
  const h = Math.floor(rest / HOUR);
  rest -= h * HOUR;
  const mi = Math.floor(rest / MIN);
  const s = Math.floor((rest - mi * MIN) / 1000);
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return { y, m, d, h, mi, s, dow: (((z0 + 4) % 7) + 7) % 7 };
};
const p2 = (n: number) => (n < 10 ? '0' + n : String(n));

/**
 * Days the banks are closed besides weekends (人事行政總處 calendars; lunar holidays and the
 * Friday/Monday a weekend holiday moves to). Other years get the fixed-date holidays only.
 */
const HOLIDAYS: Record<number, string[]> = {
  2025: [
    '01-01',
    '01-25..02-02',
    '02-28',
    '04-03',
    '04-04',
    '05-01',
    '05-30',
    '09-29',
    '10-06',
    '10-10',
    '10-24',
    '12-25',
  ],
  2026: [
    '01-01',
    '02-14..02-22',
    '02-27',
    '04-03',
    '04-06',
    '05-01',
    '06-19',
    '09-25',
    '09-28',
    '10-09',
    '10-26',
    '12-25',
  ],
  2027: ['01-01', '02-05..02-10', '03-01', '04-05', '04-06', '06-09', '09-15', '09-28', '10-11', '10-25', '12-24'],
};
const FIXED_HOLIDAYS = ['01-01', '02-28', '04-04', '04-05', '05-01', '10-10', '12-25'];

class BankCalendar {
  private closed = new Set<number>();
  constructor(years: number[]) {
    for (const y of years) {
      for (const spec of HOLIDAYS[y] ?? FIXED_HOLIDAYS) {
        const [a, b] = spec.split('..');
        const [am, ad] = a.split('-').map(Number);
        let t = tw(y, am, ad);
        const end = b ? tw(y, Number(b.split('-')[0]), Number(b.split('-')[1])) : t;
        for (; t <= end; t += DAY) this.closed.add(dayIndex(t));
      }
    }
  }
  isBusinessDay(ms: number): boolean {
    const z = dayIndex(ms);
    const dow = (((z + 4) % 7) + 7) % 7;
    return dow !== 0 && dow !== 6 && !this.closed.has(z);
  }
  isHoliday(ms: number): boolean {
    return !this.isBusinessDay(ms);
  }
  /** before the 15:30 cut-off of a business day */
  inBusinessHours(ms: number): boolean {
    const p = parts(ms);
    const m = p.h * 60 + p.mi;
    return this.isBusinessDay(ms) && m >= 9 * 60 && m < 15 * 60 + 30;
  }
  /** 00:00 of the first business day after the day of `ms` */
  nextBusinessDay(ms: number): number {
    let t = dayStart(ms) + DAY;
    for (let i = 0; i < 30 && !this.isBusinessDay(t); i++) t += DAY;
    return t;
  }
}

// ---- banks, people, prices ----------------------------------------------------------------

interface Acct {
  code: string;
  num: string;
}
interface Person {
  name: string;
  acct: Acct;
}

/** the payer's banks: code, name, account length, how common among shoppers */
const BANKS: Array<{ code: string; len: number; w: number }> = [
  { code: '004', len: 12, w: 6 }, // 臺灣銀行
  { code: '005', len: 12, w: 3 }, // 土地銀行
  { code: '006', len: 13, w: 5 }, // 合作金庫
  { code: '007', len: 11, w: 5 }, // 第一銀行
  { code: '008', len: 12, w: 4 }, // 華南銀行
  { code: '009', len: 14, w: 3 }, // 彰化銀行
  { code: '012', len: 12, w: 5 }, // 台北富邦
  { code: '013', len: 12, w: 10 }, // 國泰世華
  { code: '017', len: 11, w: 3 }, // 兆豐
  { code: '700', len: 14, w: 12 }, // 中華郵政
  { code: '803', len: 12, w: 2 }, // 聯邦
  { code: '807', len: 14, w: 4 }, // 永豐
  { code: '808', len: 14, w: 7 }, // 玉山
  { code: '812', len: 14, w: 7 }, // 台新
  { code: '822', len: 12, w: 12 }, // 中國信託
  { code: '824', len: 12, w: 3 }, // 連線銀行
  { code: '826', len: 14, w: 1 }, // 樂天
];
const BANK_CUM = (() => {
  let s = 0;
  return BANKS.map((b) => (s += b.w));
})();

const SURNAMES = '陳林黃張李王吳劉蔡楊許鄭謝郭洪曾邱廖賴周徐蘇葉莊呂江何蕭羅高潘簡朱鍾游彭詹胡施沈余盧梁趙顏柯翁魏孫戴';
const GIVEN =
  '美玲淑芬惠雅婷怡君佳蓉志明偉俊宏家豪建國文華瑋翔宗信哲宇欣庭嘉琪秀麗珍慧靜宜柏凱承恩育誠冠廷子晴思妤品涵郁雯心瑜彥宏政達';
const COMPANIES = [
  '宏達貿易有限公司',
  '欣興企業社',
  '大成食品股份有限公司',
  '全聯實業',
  '永信包裝材料行',
  '台灣大哥大',
  '中華電信',
  '新光物流',
];

function makeName(rng: Rng, surname?: string): string {
  const s = surname ?? SURNAMES[rng.int(0, SURNAMES.length - 1)];
  const g1 = GIVEN[rng.int(0, GIVEN.length - 1)];
  if (rng.chance(0.08)) return s + g1;
  let g2 = GIVEN[rng.int(0, GIVEN.length - 1)];
  if (g2 === g1) g2 = GIVEN[(GIVEN.indexOf(g1) + 7) % GIVEN.length];
  return s + g1 + g2;
}

function makeAcct(rng: Rng, code?: string): Acct {
  const bank = code ? (BANKS.find((b) => b.code === code) ?? BANKS[0]) : BANKS[rng.weighted(BANK_CUM)];
  return { code: bank.code, num: String(rng.int(1, 9)) + rng.digits(bank.len - 1) };
}

/** a shop's price points: bestsellers first, rounded as shops price things (390, 1,280, 2,990) */
function priceList(n: number, rng: Rng): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  let tries = 0;
  while (out.length < n) {
    tries++;
    const x = Math.exp(rng.range(Math.log(120), Math.log(6800)));
    const relax = tries > n * 30; // a long list runs out of round numbers
    const style = rng.next();
    let p: number;
    if (relax) p = Math.round(x);
    else if (x < 1000)
      p =
        style < 0.45 ? Math.round(x / 10) * 10 : style < 0.75 ? Math.round(x / 50) * 50 : Math.round(x / 100) * 100 - 1;
    else
      p =
        style < 0.45
          ? Math.round(x / 100) * 100
          : style < 0.75
            ? Math.round(x / 50) * 50
            : Math.round(x / 10) * 10 - 10;
    if (p < 50 || seen.has(p)) continue;
    seen.add(p);
    out.push(p);
  }
  return out;
}

// ---- statement lines ----------------------------------------------------------------------

type Channel = 'online' | 'internal' | 'atm' | 'wire' | 'cash';
type Display = 'whole' | 'masked' | 'none';

interface PayerView {
  person: Person | null;
  display: Display;
  /** visible trailing digits when masked */
  visible: number;
  /** whether the bank writes the payer's name */
  showName: boolean;
  internal: boolean;
}

/** one line of a statement, before it is written in its bank's shape */
interface Line {
  booked: number;
  real: number;
  amount: number;
  kind: 'customer' | 'income' | 'debit';
  /** what kind of transaction, for 摘要 */
  tx:
    | Channel
    | 'interest'
    | 'refund'
    | 'deposit'
    | 'fee'
    | 'rent'
    | 'payroll'
    | 'supplier'
    | 'utility'
    | 'withdraw'
    | 'sweep';
  payer: PayerView | null;
  /** a company or account for other lines */
  party: string;
  memo: string;
  seq: number;
  balance: number;
  name: string;
}

// ---- the export shapes --------------------------------------------------------------------

interface ShapeCtx {
  account: string;
  from: number;
  to: number;
  lines: Line[];
}
interface Shape {
  key: string;
  /** the bank's short name, for the file name */
  bank: string;
  code: string;
  acctLen: number;
  kind: 'big5' | 'utf8' | 'utf8bom' | 'xlsx';
  /** the payer's account is written inside a note column, not in a counterparty column */
  inNote: boolean;
  newestFirst: boolean;
  /** cells as ="…" (Excel text formulas) */
  formulaCells: boolean;
  title(ctx: ShapeCtx): string[][];
  header: string[];
  row(l: Line): Array<string | XCell>;
  footer(ctx: ShapeCtx): string[][];
}
/** an .xlsx cell written as a number with a format */
interface XCell {
  n: number;
  z: string;
}

const comma = (n: number) => String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const roc = (y: number) => String(y - 1911);
const fmt = {
  slash: (ms: number) => {
    const p = parts(ms);
    return `${p.y}/${p2(p.m)}/${p2(p.d)}`;
  },
  compact: (ms: number) => {
    const p = parts(ms);
    return `${p.y}${p2(p.m)}${p2(p.d)}`;
  },
  roc: (ms: number) => {
    const p = parts(ms);
    return `${roc(p.y)}/${p2(p.m)}/${p2(p.d)}`;
  },
  rocCompact: (ms: number) => {
    const p = parts(ms);
    return `${roc(p.y)}${p2(p.m)}${p2(p.d)}`;
  },
  hms: (ms: number) => {
    const p = parts(ms);
    return `${p2(p.h)}:${p2(p.mi)}:${p2(p.s)}`;
  },
  hmsCompact: (ms: number) => {
    const p = parts(ms);
    return `${p2(p.h)}${p2(p.mi)}${p2(p.s)}`;
  },
  hm: (ms: number) => {
    const p = parts(ms);
    return `${p2(p.h)}:${p2(p.mi)}`;
  },
};

const mask = (digits: string, visible: number, ch: string, keepLead = 0) => {
  const v = Math.min(visible, digits.length - 1);
  const lead = Math.max(0, Math.min(keepLead, digits.length - v - 1));
  return digits.slice(0, lead) + ch.repeat(digits.length - lead - v) + digits.slice(-v);
};
const pad16 = (a: Acct) => a.num.padStart(16, '0');
/** 陳美玲 → 陳*玲, as banks show a payer's name */
const maskName = (name: string, ch: string) =>
  name.length <= 2 ? name[0] + ch : name[0] + ch.repeat(name.length - 2) + name[name.length - 1];

/** the payer as a counterparty cell; '' for none (the name, when shown, goes to the note instead) */
type PayerFormat = (v: PayerView) => string;

function summaryOf(l: Line, words: Partial<Record<Line['tx'], string>>): string {
  const base: Record<Line['tx'], string> = {
    online: '跨行轉入',
    internal: '轉帳存入',
    atm: 'ATM轉入',
    wire: '匯款存入',
    cash: '現金存款',
    interest: '利息存入',
    refund: '跨行轉入',
    deposit: '現金存款',
    fee: '手續費',
    rent: '轉帳支出',
    payroll: '薪資轉帳',
    supplier: '跨行轉出',
    utility: '代繳費用',
    withdraw: 'ATM提款',
    sweep: '轉帳支出',
  };
  return words[l.tx] ?? base[l.tx];
}

function payerCell(l: Line, f: PayerFormat): string {
  if (l.payer) return l.payer.display === 'none' ? '' : f(l.payer);
  return l.party;
}
/** the name written in a note when the account is not shown */
function nameNote(l: Line, masked?: string): string {
  const p = l.payer;
  if (!p || p.display !== 'none' || !p.showName || !p.person) return '';
  return masked ? maskName(p.person.name, masked) : p.person.name;
}

const SHAPES: Record<string, Shape> = {};

/** 中國信託: Big5, two title rows (one with the account), date only, 支出/存入 with 結餘, 轉出入帳號 */
SHAPES.ctbc = {
  key: 'ctbc',
  bank: '中信',
  code: '822',
  acctLen: 13,
  kind: 'big5',
  inNote: false,
  newestFirst: false,
  formulaCells: false,
  title: (c) => [
    ['中國信託商業銀行 存款交易明細'],
    [
      `帳號：${c.account.slice(0, 4)}-${c.account.slice(4, 7)}-${c.account.slice(7)}`,
      `查詢期間：${fmt.slash(c.from)}~${fmt.slash(c.to - 1)}`,
    ],
  ],
  header: ['日期', '摘要', '支出', '存入', '結餘', '備註', '轉出入帳號', '註記'],
  row: (l) => {
    const cp = payerCell(l, (v) => {
      const a = v.person!.acct;
      if (v.internal) return v.display === 'whole' ? a.num : mask(a.num, v.visible, '*', 4);
      return v.display === 'whole' ? a.code + pad16(a) : a.code + mask(pad16(a), v.visible, '*', 6);
    });
    return [
      fmt.slash(l.booked),
      summaryOf(l, {
        online: '跨行轉入',
        atm: '跨行轉入',
        wire: '匯入匯款',
        cash: '無摺存款',
        refund: '跨行轉入',
        interest: '存款息',
        withdraw: '提款',
      }),
      l.amount < 0 ? comma(l.amount) : '',
      l.amount > 0 ? comma(l.amount) : '',
      comma(l.balance),
      nameNote(l) || l.memo,
      cp,
      '',
    ];
  },
  footer: () => [],
};

/** 國泰世華: Big5, one title row, 交易日期 YYYYMMDD and 交易時間 HHMMSS, 轉出/轉入, newest first, 帳號 */
SHAPES.cathay = {
  key: 'cathay',
  bank: '國泰世華',
  code: '013',
  acctLen: 12,
  kind: 'big5',
  inNote: false,
  newestFirst: true,
  formulaCells: false,
  title: () => [['國泰世華商業銀行 臺幣活期存款交易明細']],
  header: ['交易日期', '交易時間', '轉出', '轉入', '餘額', '說明', '帳號', '備註'],
  row: (l) => {
    const cp = payerCell(l, (v) => {
      const a = v.person!.acct;
      if (v.display === 'whole') return v.internal ? a.num : a.code + a.num;
      return `${a.code}-****-${a.num.slice(-v.visible)}`;
    });
    return [
      fmt.compact(l.booked),
      fmt.hmsCompact(l.booked),
      l.amount < 0 ? String(-l.amount) : '',
      l.amount > 0 ? String(l.amount) : '',
      String(l.balance),
      summaryOf(l, {
        online: '跨行轉入',
        internal: '網銀轉入',
        atm: 'ATM轉入',
        wire: '跨行匯入',
        cash: 'ATM存款',
        interest: '利息',
      }),
      cp,
      nameNote(l) || l.memo,
    ];
  },
  footer: () => [],
};

/** 玉山: UTF-8 with BOM, title rows and a blank row, 帳務日期 + 交易日期 (date and real time), 提/存, 對方銀行代碼/帳號, 轉帳留言 */
SHAPES.esun = {
  key: 'esun',
  bank: '玉山',
  code: '808',
  acctLen: 13,
  kind: 'utf8bom',
  inNote: false,
  newestFirst: false,
  formulaCells: false,
  title: (c) => [
    ['玉山銀行 臺幣存款交易明細'],
    ['帳號', c.account],
    ['查詢期間', `${fmt.slash(c.from)} - ${fmt.slash(c.to - 1)}`],
    [],
  ],
  header: ['帳務日期', '交易日期', '摘要', '提', '存', '餘額', '對方銀行代碼/帳號', '轉帳留言'],
  row: (l) => {
    const cp = payerCell(l, (v) => {
      const a = v.person!.acct;
      return v.display === 'whole' ? `${a.code}/${a.num}` : `${a.code}/${mask(a.num, v.visible, '*')}`;
    });
    return [
      fmt.slash(l.booked),
      `${fmt.slash(l.real)} ${fmt.hms(l.real)}`,
      summaryOf(l, { online: '跨行轉帳', internal: '行動轉帳', wire: '跨行匯款', cash: '無摺存款' }),
      l.amount < 0 ? comma(l.amount) : '',
      l.amount > 0 ? comma(l.amount) : '',
      comma(l.balance),
      cp,
      l.memo,
    ];
  },
  footer: () => [],
};

/** 台北富邦: .xlsx, title rows, 交易日期 as a date cell (booking date) and 交易時間 as text (real time), 支出金額/存入金額, 對方帳號 without bank code */
SHAPES.fubon = {
  key: 'fubon',
  bank: '富邦',
  code: '012',
  acctLen: 12,
  kind: 'xlsx',
  inNote: false,
  newestFirst: false,
  formulaCells: false,
  title: (c) => [
    ['台北富邦銀行 存款往來明細'],
    [`帳號：${c.account}`],
    [`查詢期間：${fmt.roc(c.from)} ~ ${fmt.roc(c.to - 1)}`],
    [],
  ],
  header: ['交易日期', '交易時間', '摘要', '支出金額', '存入金額', '餘額', '對方帳號', '備註'],
  row: (l) => {
    const cp = payerCell(l, (v) =>
      v.display === 'whole' ? v.person!.acct.num : `***${v.person!.acct.num.slice(-v.visible)}`,
    );
    return [
      { n: Math.floor((l.booked + TZ) / DAY) + 25569, z: 'yyyy/mm/dd' },
      fmt.hms(l.real),
      summaryOf(l, { online: '跨行轉入', wire: '匯款轉入', cash: '現金存入', interest: '利息' }),
      l.amount < 0 ? { n: -l.amount, z: '#,##0' } : '',
      l.amount > 0 ? { n: l.amount, z: '#,##0' } : '',
      { n: l.balance, z: '#,##0' },
      cp,
      nameNote(l, '*') || l.memo,
    ];
  },
  footer: () => [],
};

/** 永豐: Big5, title rows, tab-padded cells, 交易日 'YYYY/MM/DD HH:MM', 轉出入帳號/戶名 with the payer's (masked) name */
SHAPES.sinopac = {
  key: 'sinopac',
  bank: '永豐',
  code: '807',
  acctLen: 14,
  kind: 'big5',
  inNote: false,
  newestFirst: false,
  formulaCells: false,
  title: (c) => [['永豐銀行 臺幣存款交易明細查詢'], [`帳號：${c.account}`, '幣別：TWD']],
  header: ['交易日', '計息日', '摘要', '支出', '存入', '餘額', '轉出入帳號/戶名', '備註'],
  row: (l) => {
    let cp: string;
    const v = l.payer;
    if (v && v.person) {
      const nm = maskName(v.person.name, 'Ｏ');
      const a = v.person.acct;
      cp =
        v.display === 'whole'
          ? `${nm} ${a.code}${a.num}`
          : v.display === 'masked'
            ? `${nm} ${a.code}-${mask(a.num, v.visible, '*')}`
            : v.showName
              ? nm
              : '';
    } else cp = l.party;
    return [
      `\t${fmt.slash(l.booked)} ${fmt.hm(l.booked)}`,
      fmt.slash(l.booked),
      summaryOf(l, { online: '跨行匯入', atm: 'ATM轉入', wire: '台幣匯款', cash: '無摺存入' }),
      l.amount < 0 ? comma(l.amount) : '',
      l.amount > 0 ? comma(l.amount) : '',
      comma(l.balance),
      cp ? `\t${cp}` : '',
      l.memo,
    ];
  },
  footer: () => [],
};

/** 中華郵政: Big5, ROC date-time in one ="…" cell, 支出/存入/餘額, the payer's account in 備註, footer rows (資料筆數, 合計, 以上資料僅供參考) */
SHAPES.post = {
  key: 'post',
  bank: '郵局',
  code: '700',
  acctLen: 14,
  kind: 'big5',
  inNote: true,
  newestFirst: false,
  formulaCells: true,
  title: (c) => [
    [
      `郵政存簿儲金交易明細 帳號：${c.account.slice(0, 7)}-${c.account.slice(7)} 查詢區間：${fmt.roc(c.from)}~${fmt.roc(c.to - 1)}`,
    ],
  ],
  header: ['交易日期', '摘要', '支票號碼', '支出', '存入', '餘額', '備註', '附註'],
  row: (l) => {
    const note = l.payer
      ? l.payer.display === 'none'
        ? nameNote(l)
        : (() => {
            const v = l.payer!;
            const a = v.person!.acct;
            const code4 = '0' + a.code;
            return v.display === 'whole'
              ? `${code4} ${pad16(a)}`
              : `${code4} ${mask(pad16(a), v.visible, 'X', 16 - 4 - v.visible)}`;
          })()
      : l.party;
    return [
      `${fmt.roc(l.booked)} ${fmt.hms(l.booked)}`,
      summaryOf(l, {
        online: '跨行轉入',
        internal: '轉帳存入',
        atm: '跨行轉入',
        wire: '匯款存入',
        cash: '無摺存款',
        interest: '存簿息',
        deposit: '現金存款',
        withdraw: '提款',
      }),
      '',
      l.amount < 0 ? String(-l.amount) : '',
      l.amount > 0 ? String(l.amount) : '',
      String(l.balance),
      note,
      l.memo,
    ];
  },
  footer: (c) => {
    const out = c.lines.filter((l) => l.amount < 0).reduce((s, l) => s - l.amount, 0);
    const inn = c.lines.filter((l) => l.amount > 0).reduce((s, l) => s + l.amount, 0);
    return [
      [`資料筆數：${c.lines.length}`],
      ['合計', '', '', comma(out), comma(inn), '', '', ''],
      ['以上資料僅供參考'],
    ];
  },
};

/** 第一銀行: UTF-8 without BOM, title rows, ROC compact date 1151121 + HHMMSS, amounts with .00, the payer in 附註, a 合計 footer */
SHAPES.first = {
  key: 'first',
  bank: '一銀',
  code: '007',
  acctLen: 11,
  kind: 'utf8',
  inNote: true,
  newestFirst: false,
  formulaCells: false,
  title: (c) => [
    ['第一商業銀行 活期性存款交易明細'],
    [`帳號：${c.account.slice(0, 3)}-${c.account.slice(3, 5)}-${c.account.slice(5)}`],
    [`查詢區間：${fmt.rocCompact(c.from)}～${fmt.rocCompact(c.to - 1)}`],
  ],
  header: ['交易日', '交易時間', '摘要', '支出金額', '存入金額', '帳戶餘額', '附註', '交易行'],
  row: (l) => {
    const note = l.payer
      ? l.payer.display === 'none'
        ? nameNote(l)
        : (() => {
            const v = l.payer!;
            const a = v.person!.acct;
            const acct = v.display === 'whole' ? `${a.code}-${a.num}` : `${a.code}-****-${a.num.slice(-v.visible)}`;
            return l.tx === 'online' || l.tx === 'atm' ? `跨行轉入 ${acct}` : acct;
          })()
      : l.party;
    const dec = (n: number) => `${comma(n)}.00`;
    return [
      fmt.rocCompact(l.booked),
      fmt.hmsCompact(l.booked),
      summaryOf(l, { online: '網路轉帳', atm: '自動櫃員機', wire: '跨行匯款', cash: '現金存款', interest: '結息' }),
      l.amount < 0 ? dec(l.amount) : '0.00',
      l.amount > 0 ? dec(l.amount) : '0.00',
      dec(l.balance),
      note,
      l.tx === 'cash' || l.tx === 'deposit' || l.tx === 'withdraw' ? '0071 營業部' : '',
    ];
  },
  footer: (c) => {
    const out = c.lines.filter((l) => l.amount < 0).reduce((s, l) => s - l.amount, 0);
    const inn = c.lines.filter((l) => l.amount > 0).reduce((s, l) => s + l.amount, 0);
    return [
      ['合計', '', '', `${comma(out)}.00`, `${comma(inn)}.00`, '', '', ''],
      ['以上資料僅供參考，實際請以存摺或對帳單為準'],
    ];
  },
};

/** 台新 (Richart): UTF-8 with BOM, no title, one signed 金額 column ($1,200 / -$1,234), the payer inside 備註 */
SHAPES.taishin = {
  key: 'taishin',
  bank: '台新',
  code: '812',
  acctLen: 14,
  kind: 'utf8bom',
  inNote: true,
  newestFirst: true,
  formulaCells: false,
  title: () => [],
  header: ['交易日期', '摘要', '金額', '餘額', '備註'],
  row: (l) => {
    const v = l.payer;
    let note = '';
    let summary = summaryOf(l, {
      online: '轉入',
      internal: '轉入',
      atm: '轉入',
      wire: '匯入',
      cash: '存款',
      interest: '利息',
      supplier: '轉出',
      rent: '轉出',
    });
    if (v && v.person && v.display !== 'none') {
      const a = v.person.acct;
      const acct = v.display === 'whole' ? `${a.code}-${a.num}` : `***${a.num.slice(-v.visible)}`;
      // an ATM transfer carries the account in 摘要; the others in 備註, after the payer's name
      if (l.tx === 'atm') summary = `ATM轉入 ${acct}`;
      else note = v.showName ? `${maskName(v.person.name, '*')} ${acct}` : acct;
    } else note = v ? nameNote(l, '*') : l.party;
    if (l.memo) note = note ? `${l.memo} ${note}` : l.memo;
    return [
      `${fmt.slash(l.booked)} ${fmt.hm(l.booked)}`,
      summary,
      `${l.amount < 0 ? '-' : ''}$${comma(l.amount)}`,
      `$${comma(l.balance)}`,
      note,
    ];
  },
  footer: () => [],
};

const COLUMN_SHAPES = ['ctbc', 'fubon', 'cathay', 'esun', 'sinopac'];
const NOTE_SHAPES = ['post', 'first', 'taishin'];
const STORE_CODES = ['TPE', 'TXG', 'KHH', 'TNN', 'TYN', 'HSZ', 'NTP', 'KEL', 'CYI', 'ILA', 'HUN', 'PIF'];

// ---- writing files -------------------------------------------------------------------------

const csvCell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

function writeFile(shape: Shape, ctx: ShapeCtx, ordered: Line[]): { bytes: Uint8Array; firstRow: number } {
  const title = shape.title(ctx);
  const firstRow = title.length + 2; // the header is row title.length + 1
  const body = ordered.map((l) => shape.row(l));
  const foot = shape.footer(ctx);
  if (shape.kind === 'xlsx') {
    const rows: Array<Array<string | XCell>> = [...title, shape.header, ...body, ...foot];
    const ws: XLSX.WorkSheet = {};
    let maxC = 0;
    rows.forEach((r, ri) => {
      r.forEach((v, ci) => {
        if (v === '') return;
        const ref = XLSX.utils.encode_cell({ r: ri, c: ci });
        ws[ref] = typeof v === 'string' ? { t: 's', v } : { t: 'n', v: v.n, z: v.z };
        if (ci > maxC) maxC = ci;
      });
    });
    ws['!ref'] = XLSX.utils.encode_range({
      s: { r: 0, c: 0 },
      e: { r: rows.length - 1, c: Math.max(maxC, shape.header.length - 1) },
    });
    ws['!cols'] = shape.header.map((h) => ({ wch: Math.max(10, h.length * 2 + 2) }));
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, '交易明細');
    const out = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Uint8Array;
    return { bytes: new Uint8Array(out.buffer, out.byteOffset, out.byteLength), firstRow };
  }
  const cell = (s: string | XCell) => {
    const t = typeof s === 'string' ? s : String(s.n);
    return shape.formulaCells ? `="${t.replace(/"/g, '')}"` : csvCell(t);
  };
  const plain = (r: string[]) => r.map(csvCell).join(',');
  const text = [
    ...title.map(plain),
    shape.header.map(csvCell).join(','),
    ...body.map((r) => r.map(cell).join(',')),
    ...foot.map(plain),
  ];
  if (shape.kind === 'big5')
    return { bytes: new Uint8Array(iconv.encode(text.join('\r\n') + '\r\n', 'big5')), firstRow };
  const s = (shape.kind === 'utf8bom' ? '\uFEFF' : '') + text.join('\n') + '\n';
  return { bytes: new TextEncoder().encode(s), firstRow };
}

// ---- the simulation ------------------------------------------------------------------------

interface Customer {
  own: Person;
  family: Person | null;
  regular: boolean;
  usual: number;
  /** a regular's habitual hour of day (fraction) */
  hour: number;
}

interface Rep {
  report: ReconcileReport;
}
interface Event {
  reports: Rep[];
  transfers: Line[];
  unpaid: boolean;
}

function clamp(x: number, lo: number, hi: number): number {
  return Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : lo;
}

function normalizeKnobs(k: Partial<MonthKnobs>): MonthKnobs {
  const m = { ...DEFAULT_KNOBS, ...k };
  const mk = { ...DEFAULT_KNOBS.masking, ...(k.masking ?? {}) };
  let w = clamp(mk.whole, 0, 1),
    ms = clamp(mk.masked, 0, 1),
    n = clamp(mk.none, 0, 1);
  const sum = w + ms + n;
  if (sum <= 0) ({ whole: w, masked: ms, none: n } = DEFAULT_KNOBS.masking);
  else {
    w /= sum;
    ms /= sum;
    n /= sum;
  }
  return {
    amountDiversity: Math.round(clamp(m.amountDiversity, 1, 2000)),
    regularShare: clamp(m.regularShare, 0, 1),
    masking: { whole: w, masked: ms, none: n },
    bookingDelay: clamp(m.bookingDelay, 0, 2),
    reportTimeError: clamp(m.reportTimeError, 0, 2),
    typoRate: clamp(m.typoRate, 0, 1),
    swapRate: clamp(m.swapRate, 0, 1),
    sharedLastFive: clamp(m.sharedLastFive, 0, 1),
    combined: clamp(m.combined, 0, 1),
    split: clamp(m.split, 0, 1),
    unreported: clamp(m.unreported, 0, 1),
    unpaid: clamp(m.unpaid, 0, 1),
    digitsInNote: clamp(m.digitsInNote, 0, 1),
    perDay: clamp(m.perDay, 0.5, 5000),
    stores: Math.round(clamp(m.stores, 1, STORE_CODES.length)),
  };
}

/** a time of day a customer transfers: shop hours mostly, evenings online, a few early or past midnight */
function timeOfDay(rng: Rng): number {
  const u = rng.next();
  let h: number;
  if (u < 0.08) h = rng.range(7, 11);
  else if (u < 0.75) {
    // two peaks: lunch and after work
    h = rng.chance(0.4) ? 12.5 + rng.normal() * 1.3 : 19 + rng.normal() * 1.6;
    h = Math.min(21.5, Math.max(10.5, h));
  } else if (u < 0.94) h = rng.range(21, 24);
  else h = rng.range(0, 2);
  return Math.min(h * HOUR + rng.int(0, 59) * 1000, DAY - 1000);
}

/** when the clerk's reported time says the payment was made */
function reportedTime(t: number, s: number, rng: Rng): number {
  const tm = Math.floor(t / MIN) * MIN;
  if (s <= 0) return tm;
  const a = Math.min(s, 1),
    b = Math.max(0, s - 1);
  const pLater = 0.3 * a + 0.05 * b;
  const pHours = 0.06 * a + 0.17 * b;
  const pDay = 0.01 * a + 0.09 * b;
  const pAmPm = 0.005 * a + 0.035 * b;
  const pRound = 0.04 * a;
  const pJitter = 0.15 * a;
  let u = rng.next();
  if ((u -= pLater) < 0) return tm + Math.round(Math.min(150, 4 + rng.expo(18))) * MIN; // typed in later
  if ((u -= pHours) < 0) return tm + (rng.chance(0.8) ? 1 : -1) * Math.round(rng.range(1, 5.5) * 60) * MIN;
  if ((u -= pDay) < 0) return tm + (rng.chance(0.5) ? DAY : -DAY) + rng.int(-40, 40) * MIN; // the wrong date
  if ((u -= pAmPm) < 0) return tm + (parts(tm).h >= 12 ? -12 : 12) * HOUR; // 14:30 typed as 02:30
  if ((u -= pRound) < 0) return Math.round(tm / (30 * MIN)) * 30 * MIN; // "around half past two"
  if ((u -= pJitter) < 0) return tm + rng.int(-3, 3) * MIN;
  return tm;
}

/** when the shop's bank books a transfer made at `t` */
function bookedTime(t: number, ch: Channel, s: number, cal: BankCalendar, rng: Rng): number {
  if (s <= 0) return t + rng.int(0, 150) * 1000;
  let booked = t + Math.round(Math.min(40, rng.expo(0.3 + 0.8 * s)) * MIN) + rng.int(0, 59) * 1000;
  if (ch === 'internal') return booked;
  const cap = (s <= 1 ? 3 * s : 3 + 0.5 * (s - 1)) * DAY;
  const biz = cal.inBusinessHours(t);
  let defer = false;
  if (!biz) {
    const p = { online: 0.1, atm: 0.18, wire: 0.55, cash: 0.22 }[ch] * s;
    defer = rng.chance(Math.min(0.95, p));
  } else if (ch === 'wire')
    booked = t + Math.round(rng.range(3, 20 + 70 * s)) * MIN; // 匯款 queues
  else if (rng.chance(0.02 * s)) booked = t + Math.round(rng.range(10, 60 + 90 * s)) * MIN;
  if (defer) {
    // 次營業日帳: booked in the night batch or the morning of the next business day
    const nb = cal.nextBusinessDay(t) + (rng.chance(0.55) ? rng.range(0, 1.5) * HOUR : rng.range(8, 10.5) * HOUR);
    if (nb - t <= cap) booked = Math.round(nb / 1000) * 1000;
  }
  if (s > 1 && rng.chance(0.07 * (s - 1))) {
    // a slow bank: one more business day
    const nb = cal.nextBusinessDay(booked) + rng.range(0, 10) * HOUR;
    if (nb - t <= cap) booked = Math.round(nb / 1000) * 1000;
  }
  return booked;
}

const KEYPAD_NEIGHBOURS: Record<string, string> = {
  '0': '89',
  '1': '247',
  '2': '1358',
  '3': '26',
  '4': '1578',
  '5': '2468',
  '6': '359',
  '7': '148',
  '8': '5790',
  '9': '680',
};

function typo(five: string, rng: Rng): string {
  const i = rng.int(0, 4);
  const near = KEYPAD_NEIGHBOURS[five[i]];
  let d = rng.chance(0.7) ? near[rng.int(0, near.length - 1)] : String(rng.int(0, 9));
  if (d === five[i]) d = String((Number(d) + 1) % 10);
  return five.slice(0, i) + d + five.slice(i + 1);
}
function swap(five: string, rng: Rng): string {
  const pairs = [0, 1, 2, 3].filter((i) => five[i] !== five[i + 1]);
  if (!pairs.length) return typo(five, rng);
  const i = pairs[rng.int(0, pairs.length - 1)];
  return five.slice(0, i) + five[i + 1] + five[i] + five.slice(i + 2);
}

const NOTES_PLAIN = [
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '預購',
  '寄送',
  'LINE訂單',
  '老客人',
  '自取',
  '補差額',
];
/** what payers type into 轉帳留言 (most type nothing) */
const MEMOS = [
  ...Array<string>(40).fill(''),
  '貨款',
  '訂金',
  '謝謝',
  '衣服',
  '訂單',
  '小林',
  '王小姐',
  '週末取貨',
  '尾款',
  '陳太太',
];

export function generateMonth(
  knobs: Partial<MonthKnobs>,
  seed: number,
  month: { year: number; month: number } = { year: 2026, month: 11 },
): FileMonth {
  const K = normalizeKnobs(knobs);
  const rng = new Rng(seed ^ 0x5eed0b);
  const { year, month: mon } = month;
  const period = { from: tw(year, mon, 1), to: mon === 12 ? tw(year + 1, 1, 1) : tw(year, mon + 1, 1) };
  // The accountant downloads the statements a few days into the next month.
  const coverage = { from: period.from, to: period.to + 3 * DAY };
  // Reports from 5 days before to 2 days after the statements: every line the files hold finds
  // the report that explains it (booking takes at most 3½ days, a reported time is at most a
  // day and some hours off).
  const reportsFrom = coverage.from - 5 * DAY;
  const reportsTo = coverage.to + 2 * DAY;
  const simFrom = reportsFrom - 2 * DAY;
  const simTo = reportsTo + DAY;
  const cal = new BankCalendar([year - 1, year, year + 1]);
  const prices = priceList(K.amountDiversity, rng);
  const zipf = 1 - 0.5 * Math.min(1, Math.log10(Math.max(1, prices.length)) / 2.5);
  const priceCum: number[] = [];
  prices.reduce((s, _, i) => {
    const v = s + 1 / Math.pow(i + 1, zipf);
    priceCum.push(v);
    return v;
  }, 0);
  const price = (r: Rng) => prices[r.weighted(priceCum)];
  const pWhole = K.masking.whole + K.masking.masked > 0 ? K.masking.whole / (K.masking.whole + K.masking.masked) : 0;

  const reports: ReconcileReport[] = [];
  const files: StatementFile[] = [];
  const pair = new Map<string, string>();
  const paid = new Set<string>();
  const unpaidReports = new Set<string>();
  const unreportedLines = new Set<string>();
  const groups: FileMonth['groups'] = [];

  const noteStores = Math.round(K.digitsInNote * K.stores);
  const simDays = Math.round((simTo - simFrom) / DAY);
  const weekday = [1.2, 0.9, 0.9, 0.95, 1.0, 1.1, 1.3]; // Sun..Sat

  for (let store = 1; store <= K.stores; store++) {
    const srng = new Rng((Math.imul(seed, 0x9e3779b1) + store * 40503) >>> 0);
    const isNote = store > K.stores - noteStores;
    const shape =
      SHAPES[
        isNote
          ? NOTE_SHAPES[(K.stores - store) % NOTE_SHAPES.length]
          : COLUMN_SHAPES[(store - 1) % COLUMN_SHAPES.length]
      ];
    const storeCode = STORE_CODES[store - 1];
    const account = String(srng.int(1, 9)) + srng.digits(shape.acctLen - 1);
    const lines: Line[] = [];
    let seq = 0;
    const events: Event[] = [];

    // -- customers
    const perStoreDay = K.perDay / K.stores;
    const expected = perStoreDay * simDays;
    const regularRate = 1 / 4.2; // visits a day
    const occasionalVisits = 1.15;
    const nCust = Math.max(
      3,
      Math.round(expected / (K.regularShare * regularRate * simDays + (1 - K.regularShare) * occasionalVisits)),
    );
    const customers: Customer[] = [];
    for (let i = 0; i < nCust; i++) {
      const name = makeName(srng);
      const own = { name, acct: makeAcct(srng) };
      const family = srng.chance(0.06)
        ? { name: makeName(srng, srng.chance(0.7) ? name[0] : undefined), acct: makeAcct(srng) }
        : null;
      customers.push({ own, family, regular: srng.chance(K.regularShare), usual: price(srng), hour: timeOfDay(srng) });
    }
    // shared last five: pairs of customers whose accounts end alike
    const sharers = Math.round((K.sharedLastFive * nCust) / 2);
    for (let i = 0; i < sharers && nCust >= 2; i++) {
      const a = customers[(i * 2) % nCust],
        b = customers[(i * 2 + 1) % nCust];
      const five = a.own.acct.num.slice(-5);
      b.own.acct = { code: b.own.acct.code, num: b.own.acct.num.slice(0, -5) + five };
    }
    // the customers were drawn in order; shuffle who visits when
    for (let i = customers.length - 1; i > 0; i--) {
      const j = srng.int(0, i);
      [customers[i], customers[j]] = [customers[j], customers[i]];
    }

    // -- visits: each a payment event at an instant
    const visits: Array<{ c: Customer; t: number }> = [];
    const dayCum: number[] = [];
    for (let d = 0, s = 0; d < simDays; d++) {
      const t = simFrom + d * DAY;
      s += weekday[parts(t).dow] * (cal.isHoliday(t) && parts(t).dow !== 0 && parts(t).dow !== 6 ? 1.15 : 1);
      dayCum.push(s);
    }
    for (const c of customers) {
      if (c.regular) {
        const gap = srng.range(2, 7);
        for (let t = simFrom + srng.range(0, gap) * DAY; t < simTo; t += Math.max(1, gap + srng.normal() * 0.8) * DAY) {
          const d = dayStart(t);
          const tod = Math.min(DAY - MIN, Math.max(7 * HOUR, c.hour + srng.normal() * 1.2 * HOUR));
          if (d >= simFrom) visits.push({ c, t: d + tod });
        }
      } else {
        const n = srng.chance(0.13) ? 2 : 1;
        for (let k = 0; k < n; k++) visits.push({ c, t: simFrom + srng.weighted(dayCum) * DAY + timeOfDay(srng) });
      }
    }
    visits.sort((a, b) => a.t - b.t);

    // -- each visit: reports and transfers
    const payerView = (person: Person | null, ch: Channel): PayerView => {
      if (!person || ch === 'cash') return { person, display: 'none', visible: 0, showName: false, internal: false };
      const internal = person.acct.code === shape.code;
      const hw = hashUnit(seed + store, person.acct.code + person.acct.num);
      const hv = hashUnit(seed * 31 + store, person.acct.code);
      return {
        person,
        display: hw < pWhole ? 'whole' : 'masked',
        visible: hv < 0.55 ? 5 : hv < 0.8 ? 4 : 3,
        showName: hashUnit(seed + 7, shape.key + person.acct.code) < 0.75,
        internal,
      };
    };
    const transfer = (amount: number, t: number, from: Person, r: Rng): Line => {
      let ch: Channel;
      let view: PayerView;
      if (r.chance(K.masking.none)) {
        // no account on the statement: an ATM cash deposit, or a remittance that names the payer only
        ch = r.chance(0.45) ? 'cash' : 'wire';
        view = { person: from, display: 'none', visible: 0, showName: ch === 'wire' && r.chance(0.7), internal: false };
      } else {
        ch = from.acct.code === shape.code ? 'internal' : r.chance(0.82) ? 'online' : r.chance(0.72) ? 'atm' : 'wire';
        view = payerView(from, ch);
      }
      const booked = bookedTime(t, ch, K.bookingDelay, cal, r);
      const memo = ch === 'online' || ch === 'internal' ? r.pick(MEMOS) : '';
      return {
        booked,
        real: t,
        amount,
        kind: 'customer',
        tx: ch,
        payer: view,
        party: '',
        memo,
        seq: seq++,
        balance: 0,
        name: '',
      };
    };
    const makeReport = (c: Customer, amount: number, at: number, note: string, r: Rng): Rep => {
      let five = c.own.acct.num.slice(-5);
      if (r.chance(K.typoRate)) five = typo(five, r);
      else if (r.chance(K.swapRate)) five = swap(five, r);
      return { report: { uuid: r.uuid(), store_id: store, last_five: five, paid_at: at, amount, note } };
    };

    for (const { c, t } of visits) {
      const r = srng;
      const payFrom = () => (c.family && r.chance(0.75) ? c.family : c.own);
      const amount = c.regular && r.chance(0.65) ? c.usual : price(r);
      const u = r.next();
      const fate = u < K.unpaid ? 'unpaid' : u < K.unpaid + K.unreported ? 'unreported' : 'paid';
      const k = r.next();
      const ev: Event = { reports: [], transfers: [], unpaid: fate === 'unpaid' };
      if (k < K.combined) {
        // one transfer for two or three orders the clerk recorded separately
        const n = r.chance(0.8) ? 2 : 3;
        const amounts = [amount];
        for (let i = 1; i < n; i++) amounts.push(price(r));
        const at = reportedTime(t, K.reportTimeError, r);
        for (const a of amounts)
          ev.reports.push(
            makeReport(c, a, r.chance(0.7) ? at : at + r.int(0, 3) * MIN, r.chance(0.2) ? '合併付款' : '', r),
          );
        if (fate !== 'unpaid')
          ev.transfers.push(
            transfer(
              amounts.reduce((s, x) => s + x, 0),
              t,
              payFrom(),
              r,
            ),
          );
      } else if (k < K.combined + K.split) {
        // one order paid in two or three transfers: a transfer limit, two accounts, or the rest later
        const total = amount;
        const n = total >= 900 && r.chance(0.15) ? 3 : 2;
        const partsOf: number[] = [];
        let left = total;
        for (let i = n - 1; i >= 1 && left >= 2; i--) {
          const share = r.chance(0.4) ? 1 / (i + 1) : r.range(0.25, 0.75);
          let p = Math.round((left * share) / 100) * 100;
          if (p <= 0 || p >= left) p = Math.max(1, Math.floor(left / 2));
          partsOf.push(p);
          left -= p;
        }
        partsOf.push(left);
        ev.reports.push(
          makeReport(c, total, reportedTime(t, K.reportTimeError, r), r.chance(0.35) ? '分兩次匯款' : '', r),
        );
        if (fate !== 'unpaid') {
          let tt = t;
          const later = r.chance(0.12);
          for (let i = 0; i < partsOf.length; i++) {
            const from =
              i > 0 && c.family && r.chance(0.5)
                ? c.family
                : i > 0 && r.chance(0.15)
                  ? { name: makeName(r), acct: makeAcct(r) }
                  : c.own;
            ev.transfers.push(transfer(partsOf[i], tt, from, r));
            tt += later && i === 0 ? r.range(3, 26) * HOUR : r.range(0.5, 25) * MIN;
          }
        }
      } else {
        const from = payFrom();
        const note = from !== c.own && r.chance(0.25) ? '家人代匯' : r.pick(NOTES_PLAIN);
        ev.reports.push(makeReport(c, amount, reportedTime(t, K.reportTimeError, r), note, r));
        if (fate !== 'unpaid') ev.transfers.push(transfer(amount, t, from, r));
      }
      if (fate === 'unreported') ev.reports = [];
      events.push(ev);
      lines.push(...ev.transfers);
    }

    // -- the rest of the account's life
    const orng = new Rng((Math.imul(seed, 0x85ebca6b) + store * 7919) >>> 0);
    const other = (t: number, amount: number, tx: Line['tx'], party: string, memo = '') => {
      const l: Line = {
        booked: t,
        real: t,
        amount,
        kind: amount > 0 ? 'income' : 'debit',
        tx,
        payer: null,
        party,
        memo,
        seq: seq++,
        balance: 0,
        name: '',
      };
      lines.push(l);
      return l;
    };
    const supplierAcct = (r: Rng) => {
      const a = makeAcct(r);
      return shape.inNote ? `${a.code}-${a.num}` : a.code + a.num.padStart(16, '0');
    };
    const suppliers = [0, 1, 2].map(() => ({ name: orng.pick(COMPANIES), acct: supplierAcct(orng) }));
    const payrollDay = orng.chance(0.5) ? 5 : 10;
    const done = new Set<string>(); // what a month has had once
    for (let d = dayStart(simFrom); d < simTo; d += DAY) {
      if (!cal.isBusinessDay(d)) continue;
      const p = parts(d);
      const at = (h0: number, h1: number) => d + Math.round(orng.range(h0, h1) * 60) * MIN + orng.int(0, 59) * 1000;
      if (p.d <= 7 && !done.has(`rent${p.m}`) && orng.chance(0.4) && done.add(`rent${p.m}`))
        other(at(9, 12), -(orng.int(45, 95) * 1000), 'rent', suppliers[0].acct, '房租');
      if (p.d >= payrollDay && p.d < payrollDay + 4 && !done.has(`pay${p.m}`) && done.add(`pay${p.m}`))
        other(at(9, 11), -orng.int(3, 6) * orng.int(29_000, 41_000), 'payroll', '', '薪資');
      if (p.dow === 2) {
        const s = orng.pick(suppliers);
        other(at(10, 15), -orng.int(12, 70) * 1000 - orng.int(0, 9) * 100, 'supplier', s.acct, '貨款');
        if (!s.acct.startsWith(shape.code)) other(at(15, 15.4), -15, 'fee', '', '跨行轉帳手續費');
      }
      if (p.d === 18 || p.d === 19) {
        if (p.m % 2 === 1 && !done.has(`elec${p.m}`) && done.add(`elec${p.m}`))
          other(at(0, 6), -orng.int(3800, 9800), 'utility', '台灣電力公司', '電費');
        if (!done.has(`tel${p.m}`) && done.add(`tel${p.m}`))
          other(at(0, 6), -orng.pick([1299, 1399, 1599, 2099]), 'utility', '中華電信', '電信費');
      }
      if (orng.chance(0.12)) other(at(10, 18), -orng.pick([3000, 5000, 10000, 20000]), 'withdraw', '', '零用金');
      // the staff deposit the cash takings on some stores' Mondays and Thursdays
      if (store % 2 === 0 && (p.dow === 1 || p.dow === 4))
        other(at(10, 15), orng.int(8, 60) * 1000 + orng.int(0, 99) * 10, 'deposit', '', '營業收入');
      // a refund now and then (a supplier's credit note, a returned fee)
      if (orng.chance(0.05))
        other(
          at(9, 16),
          orng.chance(0.3) ? 15 : orng.int(3, 60) * 100,
          'refund',
          orng.pick(COMPANIES),
          orng.chance(0.5) ? '退款' : '退貨款',
        );
      // interest: twice a year (the 21st of June and December); monthly for a digital bank
      if (
        p.d >= 20 &&
        p.d <= 23 &&
        (p.m === 6 || p.m === 12 || shape.key === 'taishin') &&
        !done.has(`int${p.m}`) &&
        done.add(`int${p.m}`)
      ) {
        other(d + orng.int(0, 3) * MIN, orng.int(12, 640), 'interest', '', '');
      }
    }

    // -- the balance, oldest first: the account never goes negative, and when it passes 600k on a
    // business day the surplus is swept to the head office's account
    lines.sort((a, b) => a.booked - b.booked || a.seq - b.seq);
    const all: Line[] = [];
    let bal = orng.int(60, 320) * 1000 + orng.int(0, 999);
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      if (l.amount < 0 && bal + l.amount < 0) l.amount = -Math.min(-l.amount, bal);
      if (l.amount === 0) continue; // nothing left to pay it with: it did not happen
      bal += l.amount;
      l.balance = bal;
      all.push(l);
      const h = parts(l.booked).h;
      if (bal > 600_000 && l.kind === 'customer' && cal.isBusinessDay(l.booked) && h >= 9 && h < 15) {
        const next = i + 1 < lines.length ? lines[i + 1].booked : Infinity;
        const at = Math.min(l.booked + 2 * MIN, next);
        bal -= 400_000;
        all.push({
          booked: at,
          real: at,
          amount: -400_000,
          kind: 'debit',
          tx: 'sweep',
          payer: null,
          party: '總公司',
          memo: '資金調撥',
          seq: seq++,
          balance: bal,
          name: '',
        });
      }
    }
    const covered = all.filter((l) => l.booked >= coverage.from && l.booked < coverage.to);

    // -- the file
    const ordered = shape.newestFirst ? [...covered].reverse() : covered;
    const ctx: ShapeCtx = { account, from: coverage.from, to: coverage.to, lines: covered };
    const name = `${shape.bank}_${storeCode}_${year}${p2(mon)}.${shape.kind === 'xlsx' ? 'xlsx' : 'csv'}`;
    const { bytes, firstRow } = writeFile(shape, ctx, ordered);
    ordered.forEach((l, i) => (l.name = `${name}#${firstRow + i}`));
    files.push({ name, store_id: store, account, bytes });

    // -- the truth
    for (const ev of events) {
      const reps = ev.reports.filter((r) => r.report.paid_at >= reportsFrom && r.report.paid_at <= reportsTo);
      for (const r of reps) reports.push(r.report);
      const present = ev.transfers.filter((l) => l.name !== '').map((l) => l.name);
      if (reps.length === 0) {
        for (const n of present) unreportedLines.add(n);
        continue;
      }
      if (ev.unpaid) {
        for (const r of reps) unpaidReports.add(r.report.uuid);
        continue;
      }
      for (const r of reps) paid.add(r.report.uuid);
      if (ev.reports.length === 1 && ev.transfers.length === 1) {
        if (present.length === 1) pair.set(reps[0].report.uuid, present[0]);
      } else if (present.length > 0) groups.push({ payments: reps.map((r) => r.report.uuid), lines: present });
    }
    for (const l of covered) if (l.kind === 'income' && l.name) unreportedLines.add(l.name);
  }

  reports.sort((a, b) => a.paid_at - b.paid_at || a.store_id - b.store_id || (a.uuid < b.uuid ? -1 : 1));
  return {
    reports,
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
  };
}
