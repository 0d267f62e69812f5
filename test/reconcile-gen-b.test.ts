/**
 * Generator B (bench/reconcile-gen-b.ts): deterministic by seed, every knob at its extremes makes
 * a month, the statements it writes are read by readStatement, and its ground truth holds together.
 */
import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { DEFAULT_KNOBS, generateMonth, type FileMonth, type MonthKnobs } from '../bench/reconcile-gen-b.js';
import { readStatement, type ReadStatement } from '../core/reconcile/statement.js';
import type { StatementLine } from '../core/reconcile/types.js';

const DAY = 86_400_000;

/** The truth's own consistency: partitions, names that point into the files. Answers the problems found. */
function truthProblems(m: FileMonth): string[] {
  const bad: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok && bad.length < 20) bad.push(what);
  };
  const uuids = new Set(m.reports.map((r) => r.uuid));
  check(uuids.size === m.reports.length, 'duplicate uuids');
  for (const r of m.reports) {
    check(r.paid_at >= m.reportsFrom && r.paid_at <= m.reportsTo, `report ${r.uuid} outside [reportsFrom, reportsTo]`);
    check(/^\d{5}$/.test(r.last_five), `last five ${r.last_five}`);
    check(Number.isInteger(r.amount) && r.amount > 0, `amount ${r.amount}`);
    check(r.store_id >= 1 && r.store_id <= m.files.length, `store ${r.store_id}`);
    check(r.status === undefined, 'a status');
  }
  // paid and unpaid partition the reports
  for (const u of m.paid) check(uuids.has(u), `paid ${u} is no report`);
  for (const u of m.unpaidReports) check(uuids.has(u) && !m.paid.has(u), `unpaid ${u}`);
  check(m.paid.size + m.unpaidReports.size === m.reports.length, 'paid + unpaid != reports');
  // pair and groups: paid reports, each in at most one
  const inGroups = new Set<string>();
  for (const g of m.groups) {
    check(g.payments.length > 0 && g.lines.length > 0, 'an empty group');
    for (const u of g.payments) {
      check(m.paid.has(u) && !inGroups.has(u), `group payment ${u}`);
      inGroups.add(u);
    }
  }
  for (const u of m.pair.keys()) check(m.paid.has(u) && !inGroups.has(u), `pair ${u}`);
  // every line named once, in a file that exists
  const names = new Set(m.files.map((f) => f.name));
  check(names.size === m.files.length, 'duplicate file names');
  const seen = new Set<string>();
  for (const l of [...m.pair.values(), ...m.groups.flatMap((g) => g.lines), ...m.unreportedLines]) {
    const [file, row] = l.split('#');
    check(names.has(file) && Number(row) > 1 && !seen.has(l), `line ${l}`);
    seen.add(l);
  }
  check(
    m.period.from < m.period.to && m.coverage.from <= m.period.from && m.coverage.to >= m.period.to,
    'period / coverage',
  );
  check(m.reportsFrom < m.coverage.from && m.reportsTo > m.coverage.to, 'reports window');
  return bad;
}
const checkTruth = (m: FileMonth) => expect(truthProblems(m)).toEqual([]);

/** Reads every file; the truth's credit lines must be exactly the credits the reader finds, amounts agreeing. */
function checkReadable(m: FileMonth): Map<string, ReadStatement> {
  const read = new Map<string, ReadStatement>();
  for (const f of m.files) read.set(f.name, readStatement(f.bytes, f.name));
  const truthRows = new Map<string, Set<number>>(m.files.map((f) => [f.name, new Set<number>()]));
  for (const l of [...m.pair.values(), ...m.groups.flatMap((g) => g.lines), ...m.unreportedLines]) {
    const [file, row] = l.split('#');
    truthRows.get(file)!.add(Number(row));
  }
  const bad: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok && bad.length < 20) bad.push(what);
  };
  const reports = new Map(m.reports.map((r) => [r.uuid, r]));
  const byName = new Map<string, StatementLine>();
  for (const [name, st] of read) {
    const credits = st.lines.filter((l) => l.amount > 0).map((l) => l.row);
    expect(new Set(credits), name).toEqual(truthRows.get(name));
    check(st.balance_breaks === 0, `${name}: balance breaks at ${st.breakRows.join(', ')}`);
    for (const l of st.lines) {
      byName.set(`${name}#${l.row}`, l);
      // (a bank that writes the transfer's own time beside its booking date shows it up to 3½ days earlier)
      check(
        l.at >= m.coverage.from - 4 * DAY && l.at < m.coverage.to + DAY,
        `${name}#${l.row} at ${new Date(l.at).toISOString()}`,
      );
    }
  }
  for (const [u, name] of m.pair) {
    const line = byName.get(name)!;
    const r = reports.get(u)!;
    check(line.amount === r.amount, `${name}: ${line.amount} pays ${r.amount}`);
    // booked at most 3½ days after the transfer, reported at most a day and some hours off it
    check(Math.abs(line.at - r.paid_at) < 5 * DAY, `${name} is far from its report`);
  }
  // split and combined payments add up, away from the edges where a part may fall outside the files
  for (const g of m.groups) {
    const lines = g.lines.map((n) => byName.get(n)!);
    const rs = g.payments.map((u) => reports.get(u)!);
    const away = (t: number) => t > m.coverage.from + 6 * DAY && t < m.coverage.to - 6 * DAY;
    if (lines.every((l) => away(l.at)) && rs.every((r) => away(r.paid_at))) {
      check(
        lines.reduce((s, l) => s + l.amount, 0) === rs.reduce((s, r) => s + r.amount, 0),
        `group ${g.lines.join(' ')} does not add up`,
      );
    }
  }
  expect(bad).toEqual([]);
  return read;
}

/** The reader in core may still refuse summary rows (資料筆數：N); anything else it refuses is a failure. */
function readTolerant(m: FileMonth): { read: Map<string, ReadStatement>; refused: Map<string, string> } {
  const read = new Map<string, ReadStatement>();
  const refused = new Map<string, string>();
  for (const f of m.files) {
    try {
      read.set(f.name, readStatement(f.bytes, f.name));
    } catch (err) {
      const msg = (err as Error).message;
      expect(msg, f.name).toMatch(/資料筆數/);
      refused.set(f.name, msg);
    }
  }
  return { read, refused };
}

const EXTREMES: Array<[string, Partial<MonthKnobs>]> = [
  ['amountDiversity 1', { amountDiversity: 1 }],
  ['amountDiversity 3', { amountDiversity: 3 }],
  ['amountDiversity 300', { amountDiversity: 300 }],
  ['regularShare 0', { regularShare: 0 }],
  ['regularShare 1', { regularShare: 1 }],
  ['masking whole', { masking: { whole: 1, masked: 0, none: 0 } }],
  ['masking masked', { masking: { whole: 0, masked: 1, none: 0 } }],
  ['masking none 0.6', { masking: { whole: 0.1, masked: 0.3, none: 0.6 } }],
  ['masking none 1', { masking: { whole: 0, masked: 0, none: 1 } }],
  ['bookingDelay 0', { bookingDelay: 0 }],
  ['bookingDelay 2', { bookingDelay: 2 }],
  ['reportTimeError 0', { reportTimeError: 0 }],
  ['reportTimeError 2', { reportTimeError: 2 }],
  ['typoRate 0', { typoRate: 0 }],
  ['typoRate 0.1', { typoRate: 0.1 }],
  ['typoRate 1', { typoRate: 1 }],
  ['swapRate 1', { swapRate: 1 }],
  ['sharedLastFive 0', { sharedLastFive: 0 }],
  ['sharedLastFive 1', { sharedLastFive: 1 }],
  ['combined 0', { combined: 0 }],
  ['combined 1', { combined: 1 }],
  ['split 1', { split: 1 }],
  ['unreported 0', { unreported: 0 }],
  ['unreported 0.15', { unreported: 0.15 }],
  ['unreported 1', { unreported: 1 }],
  ['unpaid 0.08', { unpaid: 0.08 }],
  ['unpaid 1', { unpaid: 1 }],
  ['digitsInNote 0', { digitsInNote: 0 }],
  ['digitsInNote 1', { digitsInNote: 1 }],
  ['perDay 1', { perDay: 1 }],
  ['perDay 300', { perDay: 300 }],
  ['stores 1', { stores: 1 }],
  ['stores 12', { stores: 12 }],
  [
    'everything hard',
    {
      amountDiversity: 3,
      masking: { whole: 0.1, masked: 0.3, none: 0.6 },
      bookingDelay: 2,
      reportTimeError: 2,
      typoRate: 0.1,
      swapRate: 0.05,
      unpaid: 0.08,
      unreported: 0.15,
      combined: 0.1,
      split: 0.1,
      sharedLastFive: 0.2,
      digitsInNote: 1,
    },
  ],
  [
    'everything easy',
    {
      amountDiversity: 300,
      masking: { whole: 1, masked: 0, none: 0 },
      bookingDelay: 0,
      reportTimeError: 0,
      typoRate: 0,
      swapRate: 0,
      unpaid: 0,
      unreported: 0,
      combined: 0,
      split: 0,
      sharedLastFive: 0,
      digitsInNote: 0,
    },
  ],
];

describe('generator B', () => {
  it('is deterministic for a seed, and another seed gives another month', () => {
    const a = generateMonth({}, 42);
    const b = generateMonth({}, 42);
    expect(b.reports).toEqual(a.reports);
    expect(b.files.map((f) => f.name)).toEqual(a.files.map((f) => f.name));
    for (let i = 0; i < a.files.length; i++)
      expect(Buffer.from(b.files[i].bytes).equals(Buffer.from(a.files[i].bytes)), a.files[i].name).toBe(true);
    expect([...b.pair]).toEqual([...a.pair]);
    expect([...b.unreportedLines]).toEqual([...a.unreportedLines]);
    expect(b.groups).toEqual(a.groups);
    const c = generateMonth({}, 43);
    expect(c.reports.map((r) => r.uuid)).not.toEqual(a.reports.map((r) => r.uuid));
    expect(Buffer.from(c.files[0].bytes).equals(Buffer.from(a.files[0].bytes))).toBe(false);
  });

  it('makes a default month with several export shapes', () => {
    const m = generateMonth({}, 2);
    expect(m.files).toHaveLength(DEFAULT_KNOBS.stores);
    expect(m.files.some((f) => f.name.endsWith('.xlsx'))).toBe(true);
    const kinds = new Set(
      m.files.map((f) =>
        f.name.endsWith('.xlsx')
          ? 'xlsx'
          : f.bytes[0] === 0xef
            ? 'utf8bom'
            : Buffer.from(f.bytes).toString('utf8').includes('\uFFFD')
              ? 'big5'
              : 'utf8',
      ),
    );
    expect(kinds.size).toBeGreaterThanOrEqual(2);
    // about perDay reports a day over the margin
    const days = (m.reportsTo - m.reportsFrom) / DAY;
    expect(m.reports.length / days).toBeGreaterThan(DEFAULT_KNOBS.perDay * 0.7);
    expect(m.reports.length / days).toBeLessThan(DEFAULT_KNOBS.perDay * 1.4);
    checkTruth(m);
  });

  it('writes Big5 that round-trips (names and marks are in cp950)', () => {
    const m = generateMonth({ stores: 8, digitsInNote: 0.4 }, 5);
    for (const f of m.files.filter((f) => !f.name.endsWith('.xlsx'))) {
      const utf8 = Buffer.from(f.bytes).toString('utf8');
      if (!utf8.includes('\uFFFD')) continue;
      const text = iconv.decode(Buffer.from(f.bytes), 'big5');
      expect(text.includes('?'), f.name).toBe(false);
      expect(Buffer.from(iconv.encode(text, 'big5')).equals(Buffer.from(f.bytes)), f.name).toBe(true);
    }
  });

  it('makes a whole year in a loop, holidays and year ends included', () => {
    for (let month = 1; month <= 12; month++) {
      const m = generateMonth({ digitsInNote: 0 }, 2026 + month, { year: 2026, month });
      expect(truthProblems(m), `month ${month}`).toEqual([]);
      expect(m.period.to - m.period.from).toBeGreaterThanOrEqual(28 * DAY);
      for (const f of m.files) expect(f.name).toContain(`2026${String(month).padStart(2, '0')}`);
      checkReadable(m);
    }
  }, 120_000); // a bound for a loaded machine; speed is the bench's to measure, not a test's

  it.each(EXTREMES)('makes a month with %s', (_, knobs) => {
    const m = generateMonth(knobs, 7);
    expect(m.files.length).toBe(knobs.stores ?? DEFAULT_KNOBS.stores);
    for (const f of m.files) expect(f.bytes.length).toBeGreaterThan(100);
    checkTruth(m);
    const { read, refused } = readTolerant(m);
    expect(read.size + refused.size).toBe(m.files.length);
  });

  it('writes statements readStatement reads, with the truth its lines', () => {
    for (const seed of [1, 2, 3]) {
      const m = generateMonth({ digitsInNote: 0, stores: 5 }, seed);
      const read = checkReadable(m);
      // the payer's digits show on most plain payments, and match the report's last five
      let shown = 0,
        agree = 0;
      const reports = new Map(m.reports.map((r) => [r.uuid, r]));
      for (const [u, name] of m.pair) {
        const [file, row] = name.split('#');
        const line = read.get(file)!.lines.find((l) => l.row === Number(row))!;
        if (!line.digits) continue;
        shown++;
        if (reports.get(u)!.last_five.endsWith(line.digits)) agree++;
      }
      expect(shown / m.pair.size).toBeGreaterThan(0.6);
      expect(agree / shown).toBeGreaterThan(0.8);
      expect(agree / shown).toBeLessThan(1);
    }
  });

  it('writes the accounts into 備註 / 附註 for the digitsInNote banks', () => {
    const m = generateMonth({ digitsInNote: 1, stores: 3 }, 11);
    const { read, refused } = readTolerant(m);
    for (const [name, msg] of refused) console.warn(`readStatement refuses ${name}: ${msg}`);
    for (const [name, st] of read) {
      expect(st.columns.counterparty, name).toBeUndefined();
      const notes = st.lines.filter((l) => l.amount > 0 && /\d{3,}$/.test(l.note.replace(/[\s-]/g, '')));
      expect(notes.length / st.credits, name).toBeGreaterThan(0.5);
    }
  });

  it('every knob changes the data', () => {
    const base = generateMonth({ digitsInNote: 0 }, 9);
    const distinct = (m: FileMonth) => new Set(m.reports.map((r) => r.amount)).size;
    expect(distinct(generateMonth({ amountDiversity: 3 }, 9))).toBeLessThanOrEqual(3);
    expect(distinct(generateMonth({ amountDiversity: 300 }, 9))).toBeGreaterThan(150);
    const unpaidShare = (m: FileMonth) => m.unpaidReports.size / m.reports.length;
    expect(unpaidShare(generateMonth({ unpaid: 0 }, 9))).toBe(0);
    expect(unpaidShare(generateMonth({ unpaid: 0.08 }, 9))).toBeGreaterThan(0.05);
    const groups = (k: Partial<MonthKnobs>) => generateMonth(k, 9).groups.length;
    expect(groups({ combined: 0, split: 0 })).toBe(0);
    expect(groups({ combined: 0.2, split: 0 })).toBeGreaterThan(groups({ combined: 0.02, split: 0 }));
    expect(groups({ combined: 0, split: 0.2 })).toBeGreaterThan(groups({ combined: 0, split: 0.02 }));
    const unrep = (k: Partial<MonthKnobs>) => generateMonth(k, 9).unreportedLines.size;
    expect(unrep({ unreported: 0.15 })).toBeGreaterThan(unrep({ unreported: 0 }) + 100);
    // the same seed with other knobs: reports move, files change
    for (const k of [
      { bookingDelay: 2 },
      { reportTimeError: 2 },
      { typoRate: 0.2 },
      { swapRate: 0.2 },
      { sharedLastFive: 0.5 },
      { regularShare: 0.9 },
      { masking: { whole: 0, masked: 0.4, none: 0.6 } },
    ] as Array<Partial<MonthKnobs>>) {
      const m = generateMonth({ digitsInNote: 0, ...k }, 9);
      const sameFiles = m.files.every((f, i) => Buffer.from(f.bytes).equals(Buffer.from(base.files[i].bytes)));
      const sameReports = JSON.stringify(m.reports) === JSON.stringify(base.reports);
      expect(sameFiles && sameReports, JSON.stringify(k)).toBe(false);
    }
    // reportTimeError 0: every plain payment's report is on the minute of its transfer, never after its booking
    const exact = generateMonth({ reportTimeError: 0, bookingDelay: 0, digitsInNote: 0 }, 9);
    const read = checkReadable(exact);
    const reports = new Map(exact.reports.map((r) => [r.uuid, r]));
    let timed = 0,
      close = 0;
    for (const [u, name] of exact.pair) {
      const [file, row] = name.split('#');
      const line = read.get(file)!.lines.find((l) => l.row === Number(row))!;
      if (!line.hasTime) continue;
      timed++;
      const d = line.at - reports.get(u)!.paid_at;
      if (d >= 0 && d < 4 * 60_000) close++;
    }
    // (a date column of the booking with the time of the transfer is a day off across midnight)
    expect(close / timed).toBeGreaterThan(0.99);
  });
});
