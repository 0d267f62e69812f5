import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { fieldError, placed, problem, ValidationError } from './errors.js';
import { parsePaymentsWorkbook } from './payments/readSheet.js';
import { NOTE_MAX_LENGTH, STORE_NAME_MAX, USERNAME_MAX } from './limits.js';
import { ERROR_CODES, errorMessage, errorText, isErrorCode, MSG } from './messages.js';
import { validatePasswordChange, validateUser } from './users/validate.js';
import { validatePayment } from './payments/validate.js';
import { validateStore } from './stores/validate.js';

describe('errors carry a code and details; the message is rendered from them', () => {
  it('says the sentence (the spec’s where it fixes one), its limit taken from the rule’s constant', () => {
    const p = problem('note_too_long', { limit: NOTE_MAX_LENGTH });
    expect(p).toEqual({ code: 'note_too_long', details: { limit: 1000 }, message: '備註不能超過1000個字元' });
    expect(problem('username_max', { limit: USERNAME_MAX }).message).toBe('用戶名不能超過20個字符');
    expect(problem('store_name_too_long', { limit: STORE_NAME_MAX }).message).toBe('分店名稱不能超過50個字元');
  });

  it('puts the place first: a sheet row, a JSON row, a statement file and its row', () => {
    const p = problem('import_last_five', { length: 5 });
    expect(placed(p, { row: 7 })).toEqual({
      code: 'import_last_five',
      details: { length: 5, row: 7 },
      message: '第 7 行：後五碼必須是5位數字',
    });
    expect(placed(problem('store_out_of_scope'), { item: 2 }).message).toBe(`第 2 筆：${MSG.storeOutOfScope}`);
    expect(placed(problem('statement_both_sides'), { file: '11月.csv', row: 4 }).message).toBe(
      `11月.csv 第 4 行：${MSG.statementBothSides}`,
    );
    expect(errorText('import_last_five', { length: 5, row: 7 })).toBe('後五碼必須是5位數字');
  });

  it('has a sentence for every code, and knows its codes', () => {
    for (const code of ERROR_CODES) expect(isErrorCode(code)).toBe(true);
    expect(isErrorCode('後五碼必須是5位數字')).toBe(false);
    expect(ERROR_CODES.length).toBeGreaterThan(150);
  });

  it('keeps a field error’s JSON as {field, message}, its code and details readable beside', () => {
    const e = fieldError('note', 'note_too_long', { limit: NOTE_MAX_LENGTH });
    expect(JSON.parse(JSON.stringify(e))).toEqual({ field: 'note', message: MSG.noteTooLong });
    expect([e.code, e.details]).toEqual(['note_too_long', { limit: 1000 }]);
    const err = ValidationError.single('note', 'note_too_long', { limit: NOTE_MAX_LENGTH });
    expect([err.code, err.message, err.errors[0].code]).toEqual(['validation_failed', '驗證錯誤', 'note_too_long']);
  });
});

describe('validation results carry a code per field', () => {
  it('names the confirmation field by the problem’s kind, not by its text', () => {
    const r = validateUser(
      { username: 'tea_leaf', password: 'k7&tea', confirmPassword: 'k7&teX', role: 'user' },
      'create',
    );
    expect(!r.ok && r.errors.map((e) => [e.field, e.code, e.message])).toEqual([
      ['confirmPassword', 'password_mismatch', MSG.passwordMismatch],
    ]);
    const c = validatePasswordChange({ currentPassword: 'x', newPassword: 'k7&tea', confirmNewPassword: 'nope' });
    expect(!c.ok && c.errors.map((e) => [e.field, e.code])).toEqual([['confirmNewPassword', 'new_password_mismatch']]);
  });

  it('gives the limits of a form’s refusals in its details', () => {
    const p = validatePayment({ last_five: '1234', paid_at: '2026-11-18T09:15', amount: 0, note: 'n'.repeat(1001) });
    expect(!p.ok && p.errors.map((e) => [e.field, e.code, e.details])).toEqual([
      ['last_five', 'last_five_format', { length: 5 }],
      ['amount', 'amount_min', { limit: 1 }],
      ['note', 'note_too_long', { limit: 1000 }],
    ]);
    const s = validateStore({ name: '店'.repeat(51), code: 'A B' });
    expect(!s.ok && s.errors.map((e) => [e.code, e.details])).toEqual([
      ['store_name_too_long', { limit: 50 }],
      ['store_code_pattern', { limit: 20 }],
    ]);
  });
});

describe('an import file’s errors', () => {
  const book = (rows: unknown[][]) => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([['營業日期', '帳號後五碼', '匯款時間', '匯款金額', '備註', '分店'], ...rows]),
      '匯款記錄',
    );
    return XLSX.write(wb, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer;
  };

  it('name their row in details.row, beside the 第 N 行 sentences', () => {
    const r = parsePaymentsWorkbook(
      book([
        ['2026-11-18', '12345', '2026-11-18 09:15', 100, '', ''],
        ['2026-11-18', 'abc', '2026-11-18 09:15', 0, '', ''],
      ]),
      { stores: [{ id: 1, name: '總店', code: 'HQ' }], userStoreId: 1 },
    );
    expect(r.problems?.map((p) => [p.details.row, p.code])).toEqual([
      [3, 'import_last_five'],
      // the import says the lower bound its own way, by code: 匯款金額必須大於0
      [3, 'import_amount_positive'],
    ]);
    expect(r.errors).toEqual(['第 3 行：後五碼必須是5位數字', '第 3 行：匯款金額必須大於0']);
    expect(errorMessage('import_amount_positive', {})).toBe(MSG.importAmountPositive);
  });
});

/**
 * Nothing compares a message text: the edges (http/, cli/, admin/) and core
 * branch on codes. This reads the sources and fails on the shapes such a comparison takes.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCANNED = ['core', 'http', 'cli', 'admin/src'];
/** Commander's own English usage errors, translated by matching them (commander gives no details to render from). */
const ALLOWED: Record<string, RegExp> = { 'cli/localize.ts': /\^error: / };

const MESSAGE_MODULE = String.raw`\b(?:MSG|UI|T|[A-Z]+_UI)\.[\w.]+(?:\([^)]*\))?`;
const RULES: Array<[string, RegExp]> = [
  [
    'compares with a messages module entry',
    new RegExp(String.raw`[!=]==\s*${MESSAGE_MODULE}|${MESSAGE_MODULE}\s*[!=]==`),
  ],
  [
    'compares an error’s message',
    /(?<!typeof\s+)(?<![\w$\].?])[\w$]+(?:\[\d+\])?(?:\??\.[\w$]+(?:\[\d+\])?)*\??\.(?:message|reason|detail|error)\s*[!=]==\s*(?!\s|null\b|undefined\b)|[!=]==\s*[\w$.?[\]]+\.(?:message|reason|detail)\b/,
  ],
  [
    'searches a text for a message',
    /\.(?:includes|startsWith|endsWith|indexOf)\(\s*(?:['"`][^'"`]*(?:[\u4e00-\u9fff]{2}|第|：)|MSG\.|UI\.)/,
  ],
  ['parses a row or place back out of a message', /第\s*(?:\\d|\\s|\(|\[)[^\n]*[行筆]/],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function offences(text: string, file: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*(?:\*|\/\/)/.test(line) || ALLOWED[file]?.test(line)) return;
    for (const [what, re] of RULES) if (re.test(line)) out.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
  });
  return out;
}

describe('no module compares a message text', () => {
  it('finds no comparison against a message in core, http, cli or the back office', () => {
    const found = SCANNED.flatMap((d) => sources(join(ROOT, d))).flatMap((f) =>
      offences(readFileSync(f, 'utf8'), relative(ROOT, f)),
    );
    expect(found).toEqual([]);
  });

  it('would catch the comparisons this issue removed', () => {
    const removed = [
      "if (e) errors.add(e === MSG.passwordMismatch ? 'confirmPassword' : 'password', e);",
      'if (amount.error) rowErrors.push(amount.error === MSG.amountMin ? MSG.importAmountPositive : amount.error);',
      'if (detail === MSG.importTooManyRows(MAX_IMPORT_ROWS)) setProblem({ message: UI.importTooManyForBrowser });',
      'const m = /^(第 \\d+ 行：)(.*)$/s.exec(e);',
      "if (err.message.includes('第')) return;",
      'if (err.errors[0].message === text) return;',
    ];
    for (const line of removed) expect(offences(line, 'x.ts'), line).not.toEqual([]);
    // and not the comparisons of codes, kinds or types
    for (const line of [
      "if (first?.code === 'import_too_many_rows') x();",
      "e.kind === 'mismatch'",
      "typeof e?.message === 'string'",
      'if (m !== message) x();',
    ])
      expect(offences(line, 'x.ts'), line).toEqual([]);
  });
});
