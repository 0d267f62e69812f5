import { describe, expect, it } from 'vitest';
import { actorUserId, linkActor } from '../actor.js';
import {
  auditActorText,
  auditFieldLabel,
  auditFieldRows,
  auditSummaryText,
  auditValueText,
  type AuditStoreLookup,
} from './text.js';

const STORES = [
  { id: 1, name: '台北店', code: 'TPE' },
  { id: 2, name: '台中店', code: 'TXG' },
];
const stores = (id: number) => STORES.find((s) => s.id === id);

const payment = {
  uuid: '7d9f2c1e-0000-4000-8000-000000000001',
  store_id: 1,
  last_five: '01234',
  paid_at: '2026-11-23T02:15:00.000Z',
  amount: 12000,
  status: '未確認',
  note: null,
  created_at: '2026-11-23T02:16:05.000Z',
};

describe('the audit log for people', () => {
  it('a payment made at 10:15 in Taipei reads 10:15, in NT$, with its store by name, under Chinese field names', () => {
    const rows = auditFieldRows({ entity: 'payment', before: null, after: payment }, stores)!;
    const byField = Object.fromEntries(rows.map((r) => [r.field, r]));
    expect(byField.paid_at).toMatchObject({
      label: '匯款時間',
      before: '（無）',
      after: '2026/11/23 10:15',
      changed: false,
    });
    expect(byField.amount.after).toBe('NT$12,000');
    expect(byField.store_id).toMatchObject({ label: '分店', after: '台北店 (TPE)' });
    expect(byField.last_five).toMatchObject({ label: '帳號後五碼', after: '01234' });
    expect(byField.note.after).toBe('（無）');
    expect(byField.created_at).toMatchObject({ label: '建立時間', after: '2026/11/23 10:16:05' });
    expect(rows.map((r) => r.label).join()).not.toMatch(/[a-z_]{4,}/);
    expect(auditSummaryText({ entity: 'payment', before: null, after: payment }, stores)).toBe(
      '分店：台北店 (TPE)，帳號後五碼：01234，匯款時間：2026/11/23 10:15，匯款金額：NT$12,000，狀態：未確認',
    );
  });

  it('an update says only what changed, from before to after', () => {
    const after = { ...payment, status: '已入帳', note: '已核對', updated_at: '2026-11-23T03:00:00.000Z' };
    const e = { entity: 'payment', before: { ...payment, updated_at: payment.created_at }, after };
    expect(auditSummaryText(e, stores)).toBe('狀態：未確認 → 已入帳；備註：（無） → 已核對');
    const changed = auditFieldRows(e, stores)!
      .filter((r) => r.changed)
      .map((r) => r.field);
    expect(changed).toEqual(['status', 'note', 'updated_at']);
  });

  it('a user’s permissions, stores, role and active flag read as the users page says them', () => {
    const before = {
      id: 7,
      username: 'tpe01',
      role: 'user',
      permissions: ['view_payments'],
      store_id: 1,
      accessible_stores: [],
      is_active: true,
    };
    const after = {
      ...before,
      permissions: ['view_payments', 'edit_payments'],
      accessible_stores: [1, 2],
      is_active: false,
    };
    expect(auditSummaryText({ entity: 'user', before, after }, stores)).toBe(
      '權限：查看匯款 → 查看匯款、編輯匯款；可存取分店：（無） → 台北店 (TPE)、台中店 (TXG)；狀態：啟用 → 停用',
    );
    expect(auditValueText('user', 'role', 'admin', stores)).toBe('管理員');
    expect(auditValueText('user', 'permissions', [], stores)).toBe('無特殊權限');
    expect(auditFieldLabel('user', 'store_id')).toBe('所屬分店');
  });

  it('a store no longer known reads 未知分店; a refused sign-in gives its reason in Chinese', () => {
    expect(auditValueText('payment', 'store_id', 99, stores)).toBe('未知分店');
    expect(
      auditSummaryText(
        { entity: 'user', before: null, after: { username: 'ghost', reason: 'wrong_password' } },
        stores,
      ),
    ).toBe('用戶名：ghost，原因：密碼錯誤');
  });

  it('an import names its stores and counts; a password change has no fields to show', () => {
    const after = { imported: 3, skipped: 1, stores: [1, 2], first: 'a', last: 'b' };
    expect(auditSummaryText({ entity: 'payment', before: null, after }, stores)).toBe(
      '匯入筆數：3，略過重複筆數：1，分店：台北店 (TPE)、台中店 (TXG)，第一筆追蹤編號：a，最後一筆追蹤編號：b',
    );
    expect(auditFieldRows({ entity: 'user', before: null, after: null }, stores)).toBeNull();
    expect(auditSummaryText({ entity: 'user', before: null, after: null }, stores)).toBe('');
  });

  it("a store's public link and a day book export read in Chinese, no stored key left in English", () => {
    expect(
      auditSummaryText({ entity: 'store', before: null, after: { store_id: 1, public_link: 'rotated' } }, stores),
    ).toBe('分店：台北店 (TPE)，公開連結：已重新產生');
    const daybook = {
      filter: { store_id: [1], paid_at_gte: '2026-11-01', paid_at_lte: '2026-11-30' },
      format: 'csv',
      count: 12,
      daybook: true,
      stores: [1],
      store_id: 1,
    };
    expect(auditSummaryText({ entity: 'payment', before: null, after: daybook }, stores)).toContain('日記帳：是');
    expect(auditSummaryText({ entity: 'payment', before: null, after: daybook }, stores)).not.toMatch(/[a-z]{4,}/);
  });

  it('a forgotten payer reads in Chinese: the store by name, how it was learned', () => {
    const before = {
      id: 7,
      store_id: 1,
      payer: '***12345',
      last_five: '12345',
      payment: 'u-1',
      line_id: 3,
      learned_by: 'auto',
      learned_by_username: 'tpe_acct',
      learned_at: '2026-11-05T06:03:22.000Z',
    };
    expect(auditSummaryText({ entity: 'payer', before, after: null }, stores)).toBe(
      '分店：台北店 (TPE)，對帳單上的付款人：***12345，後五碼：12345，來源匯款：u-1，來源銀行明細編號：3，方式：自動，確認者：tpe_acct，記住時間：2026/11/05 14:03:22',
    );
  });

  it('a nested record (a reconciliation) is written out in words, not JSON', () => {
    const text = auditValueText('payment', 'reconcile', { by: 'auto', score: 0.97 }, stores);
    expect(text).toBe('方式：自動，分數：0.97');
    expect(text).not.toContain('{');
  });

  it('reads an export as a person does: the filter, the format and the rows', () => {
    const after = {
      filter: { status: ['未確認'], store_id: [2], paid_at_gte: '2026-11-01', paid_at_lte: '2026-11-30' },
      format: 'csv',
      count: 12,
      stores: [2],
      store_id: 2,
    };
    const text = auditSummaryText({ entity: 'payment', before: null, after }, stores);
    expect(text).toContain(
      '匯出條件：狀態：未確認，分店：台中店 (TXG)，匯款日期起：2026-11-01，匯款日期迄：2026-11-30',
    );
    expect(text).toContain('格式：csv');
    expect(text).toContain('匯出筆數：12');
  });
});

describe('backup entries', () => {
  it('a backup, a restore and the days kept read in Chinese: the reason, what it held, where the old data went', () => {
    const backup = {
      entity: 'backup',
      before: null,
      after: {
        file: 'remit-20261121-020000-000-daily.backup.gz',
        reason: 'daily',
        bytes: 20480,
        payment_count: 30,
        store_count: 3,
        user_count: 5,
      },
    };
    expect(auditSummaryText(backup, stores)).toBe(
      '檔名：remit-20261121-020000-000-daily.backup.gz，原因：每日，大小（位元組）：20480，匯款筆數：30，分店數：3，會員數：5',
    );
    const restore = {
      entity: 'backup',
      before: null,
      after: {
        file: 'x.backup.gz',
        taken_at: '2026-11-21T02:00:00.000Z',
        upgraded: false,
        pre_restore: 'remit-20261122-090000-000-restore.backup.gz',
      },
    };
    expect(auditSummaryText(restore, stores)).toBe(
      '檔名：x.backup.gz，備份時間：2026/11/21 10:00:00，舊版備份已升級：否，還原前的資料備份為：remit-20261122-090000-000-restore.backup.gz',
    );
    expect(auditSummaryText({ entity: 'backup', before: { keep_days: 14 }, after: { keep_days: 7 } }, stores)).toBe(
      '自動備份保留天數：14 → 7',
    );
  });
});

describe('statement and reconciliation entries', () => {
  const stores: AuditStoreLookup = (id) => (id === 1 ? { name: '台北店', code: 'TPE' } : undefined);
  it('a statement import reads in Chinese: file, store, columns, encoding', () => {
    const text = auditSummaryText(
      {
        entity: 'statement',
        before: null,
        after: {
          id: 3,
          file: 'stmt.csv',
          store_id: 1,
          account: '0123-456-789012',
          lines: 34,
          encoding: 'big5',
          columns: { date: '交易日期', time: '交易時間', summary: '摘要', debit: '支出', credit: '存入' },
        },
      },
      stores,
    );
    expect(text).toContain('檔名：stmt.csv');
    expect(text).toContain('分店：台北店');
    expect(text).toContain('編碼：大五碼（Big5）');
    expect(text).toContain('欄位：日期：交易日期，時間：交易時間，摘要：摘要，支出：支出，存入：存入');
    expect(text).not.toMatch(/\b(file|store_id|time|summary|debit|credit)：/);
  });
  it('a reconciliation names the line in Chinese', () => {
    const line = {
      id: 9,
      statement_id: 3,
      file: 'stmt.csv',
      row: 15,
      at: '2026-11-17T05:11:00.000Z',
      has_time: true,
      amount: 5400,
      balance: 181725,
      summary: '跨行轉入',
      note: '***10986',
      counterparty: '',
      digits: '10986',
      payment: 'u1',
    };
    const text = auditSummaryText(
      {
        entity: 'payment',
        before: { status: '未確認' },
        after: { status: '已入帳', reconcile: { line, by: 'person' } },
      },
      stores,
    );
    expect(text).toContain('時間：2026/11/17 13:11:00');
    expect(text).toContain('列：15');
    expect(text).not.toMatch(/\b(statement_id|row|at|has_time|balance|counterparty|digits|payment)：/);
    const unpaid = auditSummaryText(
      {
        entity: 'payment',
        before: { status: '未確認' },
        after: { status: '未入帳', reconcile: { unpaid: true, by: 'person' } },
      },
      stores,
    );
    expect(unpaid).toContain('未入帳：是');
  });
});

describe('who did it', () => {
  const entry = (actor_id: number | null, actor_username: string, action = 'create') => ({
    actor_id,
    actor_username,
    action,
  });
  it('the command line and the server itself read 命令列 and 系統; a person keeps their name', () => {
    expect(auditActorText(entry(null, 'cli'))).toBe('命令列');
    expect(auditActorText(entry(null, 'system'))).toBe('系統');
    expect(auditActorText(entry(3, 'boss'))).toBe('boss');
    // a user who happens to be named cli is that user; a failed sign-in shows what was typed
    expect(auditActorText(entry(7, 'cli'))).toBe('cli');
    expect(auditActorText(entry(null, 'system', 'login_failed'))).toBe('system');
  });
  it("a customer's report through a store's link reads 顧客連結（CODE）, as the link actor records it", () => {
    const link = linkActor({ id: 4, storeId: 2, storeCode: 'TXG' });
    expect(auditActorText(entry(actorUserId(link), link.username))).toBe('顧客連結（TXG）');
    // a user named like a link is that user
    expect(auditActorText(entry(9, link.username))).toBe(link.username);
  });
  it('an encoding reads 大五碼 / UTF-8 in any entry', () => {
    expect(auditValueText('reconciliation', 'encoding', 'big5', stores)).toBe('大五碼（Big5）');
    expect(auditValueText('payment', 'encoding', 'utf-8', stores)).toBe('UTF-8');
  });
});
