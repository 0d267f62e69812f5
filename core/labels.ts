// The Traditional Chinese names of things, written once for every edge (spec sections 2, 4 and 6).
import { MSG, PAYMENT_WORDS } from './messages.js';

export const PAYMENT_FIELD_LABELS = {
  uuid: '追蹤編號',
  last_five: '帳號後五碼',
  // a transfer's words (spec); a sale in hand says 時間 and 金額 (paymentWords)
  paid_at: PAYMENT_WORDS.transfer.time,
  amount: PAYMENT_WORDS.transfer.amount,
  store_id: '分店',
  status: '狀態',
  note: '備註',
  method: '付款方式',
  method_detail: '電子支付類型',
  employee: '員工購物',
  source: '來源',
  created_at: '建立時間',
  updated_at: '更新時間',
} as const;

/** For the back office's list and the server's first screen of it (http/firstScreen.ts). */
export const PAYMENT_LIST_LABELS = {
  title: '匯款記錄',
  /** the column (spec section 2: "last five"); the form and the dialogs keep 帳號後五碼 */
  lastFive: '後五碼',
  submitter: '提交者',
  actions: '操作',
  loading: '載入中...',
} as const;

export const USER_FIELD_LABELS = {
  username: '用戶名',
  password: '密碼',
  confirmPassword: '確認密碼',
  role: '角色',
  permissions: '權限',
  store_id: '所屬分店',
  accessible_stores: '可存取分店',
  is_active: '狀態',
  created_at: '建立時間',
} as const;

export const STORE_FIELD_LABELS = {
  id: '編號',
  name: '分店名稱',
  code: '分店代碼',
  created_at: '建立時間',
} as const;

/** The dashboard's four figures (spec section 2). */
export const STATS_FIELD_LABELS = {
  totalStores: '總分店數',
  totalPayments: '總收款筆數',
  totalAmount: '總金額',
  confirmedPayments: '已入帳筆數',
} as const;

export const AUDIT_FIELD_LABELS = {
  at: '時間',
  actor: '用戶',
  action: '動作',
  entity: '對象',
  entity_id: '編號',
  ip: '位址',
  changes: '內容',
} as const;

export const PAYER_FIELD_LABELS = {
  payer: '對帳單上的付款人',
  last_five: '後五碼',
  learned_at: '記住時間',
  learned_by: '確認方式',
} as const;

/** The spec's eight (section 6), then four that move money: the spec gives them to everyone, here each is granted. */
export const PERMISSION_LABELS = {
  manage_users: '會員管理',
  manage_stores: '分店管理',
  manage_payments: '匯款管理',
  view_payments: '查看匯款',
  edit_payments: '編輯匯款',
  delete_payments: '刪除匯款',
  view_reports: '查看報告',
  system_admin: '系統管理',
  record_takings: '記錄收款',
  record_cash_out: '記錄現金支出',
  close_day: '日結',
  confirm_payments: '銀行對帳',
} as const;

export const ROLE_LABELS = { admin: '管理員', user: '用戶' } as const;

/** A payment status is its own Chinese name (spec section 4); the export's collection status derives from it. */
export const STATUS_LABELS = { 未確認: '未確認', 已入帳: '已入帳', 未入帳: '未入帳' } as const;

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  create: '新增',
  update: '修改',
  delete: '刪除',
  import: '匯入',
  export: '匯出',
  login: '登入',
  login_failed: '登入失敗',
  logout: '登出',
  password: '更改密碼',
  reconcile: '對帳',
  unreconcile: '取消對帳',
  close: '日結',
  reopen: '重新開帳',
  after_close: '結帳後異動',
  backup: '備份',
  download: '下載',
  restore: '還原',
};

const AUDIT_ENTITY_LABELS: Record<string, string> = {
  payment: '匯款',
  user: '會員',
  store: '分店',
  statement: '銀行明細',
  payer: '已記住的付款人',
  cash_out: '現金支出',
  day_close: '日結',
  backup: '備份',
};

/** Why a backup was taken, as the 備份 page and the audit log say it. */
export const BACKUP_REASON_LABELS: Record<string, string> = {
  manual: '手動',
  import: '匯入前',
  restore: '還原前',
  daily: '每日',
};

/** A file's size as a person reads it: 820 KB, 12.4 MB, 1.2 GB. */
export function fileSizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

export const CLOSE_STATUS_LABELS = {
  closed: '已結帳',
  reopened: '已重新開帳',
  open: '未結帳',
  quiet: '無收支',
} as const;

export const CLOSE_FIELD_LABELS = {
  store_id: '分店',
  date: '營業日期',
  state: '狀態',
  opening: '開帳現金',
  cash_in: '現金收入',
  cash_out: '現金支出',
  expense: '店內支出',
  withdrawal: '提領',
  expected: '應有現金',
  counted: '點收現金',
  difference: '短溢',
  by_method: '各付款方式收入',
  denominations: '點鈔',
  note: '備註',
  closed_by: '結帳者',
  closed_at: '結帳時間',
  reopened_by: '重新開帳者',
  reopened_at: '重新開帳時間',
  late_changes: '結帳後異動',
  change: '異動',
  entity: '對象',
  entity_id: '編號',
} as const;

export const CASH_OUT_FIELD_LABELS = {
  id: '編號',
  store_id: '分店',
  at: '時間',
  kind: '類型',
  category: '項目',
  amount: '金額',
  note: '備註',
  after_close: '結帳後新增',
  created_by_username: '記錄者',
} as const;

export const auditActionLabel = (action: string): string => AUDIT_ACTION_LABELS[action] ?? action;
export const auditEntityLabel = (entity: string): string => AUDIT_ENTITY_LABELS[entity] ?? entity;

/** `name (code)`, or 未知分店 for a store that is not known. */
export function storeLabel(store: { name: string; code: string } | null | undefined): string {
  return store ? `${store.name} (${store.code})` : MSG.unknownStore;
}

/** A bank statement's columns by the role the reader gives them. */
export const STATEMENT_COLUMN_LABELS: Record<string, string> = {
  date: '日期',
  posted: '帳務日期',
  time: '時間',
  credit: '存入',
  debit: '支出',
  amount: '金額',
  balance: '餘額',
  summary: '摘要',
  note: '備註',
  counterparty: '對方帳號',
};

/** A statement file's text encoding, or its kind of Excel file. */
const STATEMENT_ENCODING_LABELS: Record<string, string> = {
  'utf-8': 'UTF-8',
  big5: '大五碼（Big5）',
  xlsx: 'Excel 活頁簿（.xlsx）',
  xls: 'Excel 97–2003 活頁簿（.xls）',
};
export const statementEncodingLabel = (encoding: string): string =>
  encoding
    .split(',')
    .map((e) => STATEMENT_ENCODING_LABELS[e] ?? e)
    .join('、');
