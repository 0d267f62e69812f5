// The audit log for people (the 稽核紀錄 page, `remit audit`): Chinese names, Taiwan times, NT$ and store
// names instead of keys, JSON and UTC. `--json` and the API stay as stored.
import {
  BACKUP_REASON_LABELS,
  CASH_OUT_FIELD_LABELS,
  CLOSE_FIELD_LABELS,
  PAYMENT_FIELD_LABELS,
  ROLE_LABELS,
  STATEMENT_COLUMN_LABELS,
  STORE_FIELD_LABELS,
  USER_FIELD_LABELS,
  statementEncodingLabel,
  storeLabel,
} from '../labels.js';
import { formatNTD } from '../money.js';
import { activeLabel, permissionLabels } from '../permissions.js';
import { formatTaipei } from '../time.js';
import type { AuditEntry } from '../types.js';
import { LINK_ACTOR_PREFIX } from '../actor.js';
import { isSource, SOURCE_LABELS } from '../paymentSources.js';
import { MSG } from '../messages.js';

/** A store by id, for names in place of numbers; undefined when unknown (shown as 未知分店). */
export type AuditStoreLookup = (id: number) => { name: string; code: string } | undefined;

interface AuditFieldRow {
  field: string;
  label: string;
  before: string;
  after: string;
  changed: boolean;
}

const AUDIT_NONE = '（無）';
const AUDIT_NO_FILTER = '無（全部）';

const MACHINE_ACTORS: Record<string, string> = { cli: '命令列', system: '系統' };

/** A stored actor's name (a close's 結帳者): the machine's in words, never `cli`; a user's as it is. */
export function actorNameText(username: string): string {
  return MACHINE_ACTORS[username] ?? username;
}

/** A user's name, 命令列 / 系統, or 顧客連結（CODE）; a failed sign-in's name stays as typed. */
export function auditActorText(e: Pick<AuditEntry, 'actor_id' | 'actor_username' | 'action'>): string {
  if (e.actor_id !== null || e.action === 'login_failed') return e.actor_username;
  if (e.actor_username.startsWith(LINK_ACTOR_PREFIX))
    return MSG.linkActor(e.actor_username.slice(LINK_ACTOR_PREFIX.length));
  return MACHINE_ACTORS[e.actor_username] ?? e.actor_username;
}

/** Fields every kind of entry may carry, beyond the payment, user and store forms' own. */
const COMMON_LABELS: Record<string, string> = {
  id: '編號',
  uuid: PAYMENT_FIELD_LABELS.uuid,
  created_at: '建立時間',
  updated_at: '更新時間',
  created_by: '建立者編號',
  // an import of payments
  imported: '匯入筆數',
  skipped: '略過重複筆數',
  stores: '分店',
  first: '第一筆追蹤編號',
  last: '最後一筆追蹤編號',
  // an export of payments
  filter: '匯出條件',
  format: '格式',
  count: '匯出筆數',
  daybook: '日記帳',
  // a store's public link for customers
  public_link: '公開連結',
  removed: '移除筆數',
  received_from: '收到時間起',
  received_to: '收到時間迄',
  paid_at_gte: '匯款日期起',
  paid_at_lte: '匯款日期迄',
  received_gte: '收到時間起',
  received_lte: '收到時間迄',
  q: '搜尋',
  // sign-in and account events
  reason: '原因',
  password_changed: '已更改密碼',
  sign_in_unlocked: '解除登入鎖定',
  failures_cleared: '清除的失敗次數',
  // reconciliation and bank statements
  bank_line_id: '銀行明細編號',
  reconcile: '對帳',
  line: '銀行明細',
  by: '方式',
  score: '分數',
  reasons: '依據',
  lines: '明細筆數',
  credits: '入帳筆數',
  new: '新增筆數',
  duplicates: '重複筆數',
  from: '起',
  to: '迄',
  encoding: '編碼',
  balance_breaks: '餘額不連續',
  skipped_rows: '略過非交易列',
  columns: '欄位',
  filename: '檔名',
  bank: '銀行',
  date: '日期',
  description: '摘要',
  account: '帳號',
  payer: '付款人',
  learned: '記住的付款人',
  // a statement import, and the bank line a reconciliation names
  file: '檔名',
  store_id: '分店',
  statement_id: '對帳單編號',
  row: '列',
  at: '時間',
  has_time: '含時間',
  digits: '可見帳號數字',
  payment: '匯款',
  unpaid: '未入帳',
  ...STATEMENT_COLUMN_LABELS,
};

/** A backup's entry: what it holds and where it went. */
const BACKUP_LABELS: Record<string, string> = {
  file: '檔名',
  reason: '原因',
  bytes: '大小（位元組）',
  taken_at: '備份時間',
  database: '資料庫',
  schema: '資料庫版本',
  upgraded: '舊版備份已升級',
  payment_count: '匯款筆數',
  store_count: '分店數',
  user_count: '會員數',
  pre_restore: '還原前的資料備份為',
  keep_days: '自動備份保留天數',
  removed: '刪除過期的自動備份',
};

const PAYER_LABELS: Record<string, string> = {
  store_id: '分店',
  payer: '對帳單上的付款人',
  last_five: '後五碼',
  payment: '來源匯款',
  line_id: '來源銀行明細編號',
  learned_by: '方式',
  learned_by_username: '確認者',
  learned_at: '記住時間',
};

const ENTITY_LABELS: Record<string, Record<string, string>> = {
  payment: PAYMENT_FIELD_LABELS,
  user: USER_FIELD_LABELS,
  store: STORE_FIELD_LABELS,
  statement: {},
  payer: PAYER_LABELS,
  cash_out: CASH_OUT_FIELD_LABELS,
  day_close: CLOSE_FIELD_LABELS,
  backup: BACKUP_LABELS,
};

const SIGN_IN_REASONS: Record<string, string> = {
  unknown_user: '用戶不存在',
  wrong_password: '密碼錯誤',
  inactive: '帳戶已停用',
  too_many_attempts: '嘗試次數過多',
};
const RECONCILED_BY: Record<string, string> = { auto: '自動', person: '人工' };
const PUBLIC_LINK_CHANGES: Record<string, string> = {
  created: '已建立',
  rotated: '已重新產生',
  off: '已停用',
  reports_removed: '移除大量顧客回報',
};

export function auditFieldLabel(entity: string, field: string): string {
  return ENTITY_LABELS[entity]?.[field] ?? COMMON_LABELS[field] ?? field;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInstantText = (v: unknown): v is string =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v));
const storeNames = (ids: unknown[], stores: AuditStoreLookup) =>
  ids.length ? ids.map((id) => storeLabel(stores(Number(id)))).join('、') : AUDIT_NONE;

/** One value as a person reads it: Taiwan time, NT$, store names, Chinese labels. */
export function auditValueText(entity: string, field: string, value: unknown, stores: AuditStoreLookup): string {
  if (value === null || value === undefined || value === '') return AUDIT_NONE;
  if (field === 'amount' && typeof value === 'number') return formatNTD(value);
  if ((field === 'store_id' || field === 'store') && typeof value === 'number') return storeLabel(stores(value));
  if ((field === 'accessible_stores' || field === 'stores') && Array.isArray(value)) return storeNames(value, stores);
  if (field === 'permissions' && Array.isArray(value)) return permissionLabels(value.map(String));
  if (field === 'role' && typeof value === 'string') return ROLE_LABELS[value as keyof typeof ROLE_LABELS] ?? value;
  if (field === 'is_active' && typeof value === 'boolean') return activeLabel(value);
  if (field === 'encoding' && typeof value === 'string') return statementEncodingLabel(value);
  if (field === 'source' && isSource(value)) return SOURCE_LABELS[value];
  if (field === 'reason' && typeof value === 'string')
    return (entity === 'backup' ? BACKUP_REASON_LABELS[value] : SIGN_IN_REASONS[value]) ?? value;
  if ((field === 'by' || field === 'learned_by') && typeof value === 'string') return RECONCILED_BY[value] ?? value;
  if (field === 'public_link' && typeof value === 'string') return PUBLIC_LINK_CHANGES[value] ?? value;
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (isInstantText(value)) return formatTaipei(Date.parse(value), { seconds: field !== 'paid_at' });
  if (Array.isArray(value))
    return value.length ? value.map((v) => auditValueText(entity, field, v, stores)).join('、') : AUDIT_NONE;
  if (isRecord(value)) {
    // an export with no filter: 匯出條件：無（全部）, not an empty 匯出條件：
    if (!Object.keys(value).length) return field === 'filter' ? AUDIT_NO_FILTER : AUDIT_NONE;
    return Object.entries(value)
      .map(([k, v]) => `${auditFieldLabel(entity, k)}：${auditValueText(entity, k, v, stores)}`)
      .join('，');
  }
  return String(value);
}

/** An entry's fields before and after, `changed` marking an update's; null with no record (a password change). */
export function auditFieldRows(
  e: Pick<AuditEntry, 'entity' | 'before' | 'after'>,
  stores: AuditStoreLookup,
): AuditFieldRow[] | null {
  const before = isRecord(e.before) ? e.before : null;
  const after = isRecord(e.after) ? e.after : null;
  if (!before && !after) return null;
  const keys = Object.keys({ ...before, ...after });
  return keys.map((field) => {
    const b = before ? auditValueText(e.entity, field, before[field], stores) : AUDIT_NONE;
    const a = after ? auditValueText(e.entity, field, after[field], stores) : AUDIT_NONE;
    return {
      field,
      label: auditFieldLabel(e.entity, field),
      before: b,
      after: a,
      changed: !!before && !!after && b !== a,
    };
  });
}

/** One line: an update's changes as `名稱：前 → 後`, else the record's `名稱：值`, ids and times left out. */
export function auditSummaryText(e: Pick<AuditEntry, 'entity' | 'before' | 'after'>, stores: AuditStoreLookup): string {
  const rows = auditFieldRows(e, stores);
  if (!rows) return '';
  const quiet = new Set(['id', 'uuid', 'created_at', 'updated_at']);
  if (isRecord(e.before) && isRecord(e.after)) {
    return rows
      .filter((r) => r.changed && r.field !== 'updated_at')
      .map((r) => `${r.label}：${r.before} → ${r.after}`)
      .join('；');
  }
  const which = isRecord(e.after) ? 'after' : 'before';
  return (
    rows
      // 來源 is said when a customer reported it; staff's is every other payment's
      .filter(
        (r) =>
          !quiet.has(r.field) && r[which] !== AUDIT_NONE && !(r.field === 'source' && r[which] === SOURCE_LABELS.staff),
      )
      .map((r) => `${r.label}：${r[which]}`)
      .join('，')
  );
}
