/**
 * Everything `remit` says, in one module; names the back office shows too come from core/labels.ts, rule messages
 * from core/messages.ts. Descriptions of commands and options, and --help examples, stay beside their definitions.
 */
import {
  MSG,
  PAYMENT_FIELD_LABELS,
  ROLE_LABELS,
  STATUS_LABELS,
  STORE_FIELD_LABELS,
  USER_FIELD_LABELS,
} from '../core/index.js';
import { AUDIT_FIELD_LABELS, CLOSE_FIELD_LABELS as C, PAYER_FIELD_LABELS } from '../core/labels.js';

/** How every error is said on stderr. */
export const errorLine = (message: string) => `錯誤：${message}\n`;

/** The help's own words: commander's headings and placeholders, said in Chinese. */
export const HELP = {
  usage: '用法：',
  arguments: '參數：',
  options: '選項：',
  globalOptions: '共用選項（放在指令之前或之後皆可）：',
  commands: '指令：',
  /** placeholders in usage lines */
  optionsPlaceholder: '[選項]',
  commandPlaceholder: '<指令>',
  helpFlags: '-h, --help',
  helpOption: '顯示說明',
  helpCommand: 'help [指令]',
  helpCommandDescription: '顯示指令的說明',
  version: '顯示版本',
  /** an option's extras, where commander would write `(choices: …, default: …, env: …)` */
  choices: (values: readonly string[]) => `可選：${values.join('、')}`,
  defaultValue: (value: string) => `預設 ${value}`,
  envVar: (name: string) => `環境變數 ${name}`,
  extras: (description: string, extras: string[]) =>
    extras.length ? `${description}（${extras.join('；')}）` : description,
  examples: '範例：',
} as const;

/** commander's usage errors (exit 2), each with the command it is about. */
export const USAGE = {
  unknownCommand: (name: string, known: string[], nearest?: string) =>
    `未知的指令「${name}」${nearest ? `，您是要用「${nearest}」嗎？` : ''}${known.length ? `（可用的指令：${known.join('、')}）` : ''}`,
  unknownOption: (flag: string, nearest?: string) => `未知的選項 ${flag}${nearest ? `，您是要用 ${nearest} 嗎？` : ''}`,
  unknownOptionUnnamed: '有無法辨識的選項',
  missingArgument: (name: string, description: string) => `缺少參數 ${name}${description ? `：${description}` : ''}`,
  optionValueMissing: (flags: string) => `選項 ${flags} 需要一個值`,
  optionValueMissingUnnamed: '有選項缺少它的值',
  mandatoryOption: (flags: string[]) => `缺少必要選項 ${flags.join('、')}`,
  excessArguments: (command: string, got: string[]) => `${command} 不接受參數「${got.join(' ')}」`,
  tooManyArguments: (command: string, expected: number, got: number) =>
    `參數過多：${command} 最多接受 ${expected} 個參數，收到 ${got} 個`,
  invalidValue: (flags: string, choices: readonly string[] | undefined) =>
    `選項 ${flags} 的值不正確${choices ? `（可選：${choices.join('、')}）` : ''}`,
  invalidValueUnnamed: '有選項或參數的值不正確',
  emptyValue: (flag: string) => `選項 ${flag} 的值不能是空白（不需要時請不要加這個選項）`,
  conflicting: (flags: string[]) => `選項 ${flags.join(' 與 ')} 不能一起使用`,
  unknownUsage: '指令的用法不正確',
  /** the line after every usage error */
  seeHelp: (command: string) => `用 ${command} --help 查看用法`,
} as const;

/** Where the database came from, for the sentence that says it is missing. */
export type DbSource = '--db' | 'REMIT_DB' | 'default';

/** The database a command needs and did not find (exit 1): the path, where it came from, how to point elsewhere. */
export const DB = {
  missing: (path: string, source: DbSource, cwd: string) =>
    `找不到資料庫 ${path}（${source === 'default' ? `預設位置 ./data/remit.sqlite，在目前的資料夾 ${cwd} 之下` : `${source} 指定的檔案`}）。\n` +
    '請在 remit 的資料夾中執行，或指定資料庫：--db 檔案或環境變數 REMIT_DB（SQLite），或 DATABASE_URL（PostgreSQL）。' +
    '新的安裝請先執行 remit migrate 建立資料庫',
  empty: (path: string) =>
    `資料庫 ${path} 是空的，還沒有建立資料表：新的安裝請先執行 remit migrate（或 --db 指向正確的資料庫）`,
  notRemit: (path: string) =>
    `${path} 不是 remit 的資料庫（沒有 remit 的資料表）：請用 --db、REMIT_DB 或 DATABASE_URL 指向正確的資料庫，或在新的檔案上執行 remit migrate`,
  notSqlite: (path: string) => `${path} 不是 SQLite 資料庫檔案：請用 --db、REMIT_DB 或 DATABASE_URL 指向正確的資料庫`,
  busy: '資料庫忙碌中（另一個程式正在寫入，例如匯入大量資料），請稍後再試',
  upToDate: (where: string) => `資料庫已是最新（${where}）`,
  migrated: (names: string[]) => `已套用 ${names.length} 個遷移：${names.join(', ')}`,
} as const;

/** Date flags (cli/dateFlags.ts); a date written wrong is core's MSG.badDate. */
export const DATES = {
  noSuchDay: (flag: string, value: string) => `${flag} 沒有這一天：${value}（格式正確，但這個日期不存在）`,
} as const;

export const FILES = {
  notFound: (path: string) => `找不到檔案：${path}`,
  notAFile: (path: string) => `不是檔案：${path}`,
  exists: (path: string) => `檔案已存在：${path}（要覆蓋請加 --force）`,
  /** a file that could not be written, and why (cli/files.ts fileWriteError) */
  cannotWrite: (path: string, reason: string) => `無法寫入檔案 ${path}：${reason}`,
  writeReasons: {
    ENOENT: (dir: string) => `目錄 ${dir} 不存在`,
    /** the folder is there and still takes no new file (/proc) */
    ENOENT_IN_DIR: (dir: string) => `無法在目錄 ${dir} 中建立檔案`,
    ENOTDIR: (dir: string) => `${dir} 不是目錄`,
    EISDIR: () => '這是一個目錄，請指定檔名（例如 目錄/匯款.xlsx）',
    EACCES: () => '沒有寫入權限',
    EPERM: () => '沒有寫入權限',
    EROFS: () => '檔案系統是唯讀的',
    ENOSPC: () => '磁碟空間不足',
    EDQUOT: () => '超過磁碟配額',
    EFBIG: () => '檔案太大（超過系統允許的檔案大小）',
    ENAMETOOLONG: () => '檔名太長',
  } as Record<string, (dir: string) => string>,
  otherReason: (code: string) => `系統錯誤 ${code}`,
} as const;

/** Prompts, confirmations and what a missing value is told. */
export const INPUT = {
  cancelled: '已取消',
  cancelledNothingDone: '已取消，未做任何變更',
  missing: (what: string, flags: string) => `缺少${what}：請用 ${flags} 提供（標準輸入不是終端機，不會提示輸入）`,
  prompt: (label: string) => `${label}：`,
  promptAgain: (label: string) => `再次輸入${label}：`,
  passwordFlagsBoth: '--password 與 --password-stdin 只能擇一',
  passwordStdinEmpty: '--password-stdin：標準輸入沒有讀到密碼',
  passwordFlagWarning:
    '警告：--password 會讓密碼出現在處理程序清單（ps）與 shell 的指令紀錄中，同一台機器的其他使用者可能看到；請改在終端機上輸入（不加 --password），或在腳本中用 --password-stdin\n',
  needsYes: '此操作無法復原，非互動模式請加上 --yes 確認',
  /** the password prompt's hint (inquirer's `[input is masked]`) and the answer a confirmation echoes */
  passwordHidden: '（輸入的內容不會顯示）',
  yes: '是',
  no: '否',
  password: USER_FIELD_LABELS.password,
  newPassword: '新密碼',
  username: USER_FIELD_LABELS.username,
} as const;

export const SERVE = {
  started: (url: string, db: string) => `remit 已啟動：${url}\n資料庫：${db}\n`,
  firstAdmin: (username: string) => `\n已建立第一個管理員帳戶：${username}\n`,
  firstAdminPassword: (password: string) => `密碼（只顯示這一次，請登入後立即更改）：${password}\n\n`,
  firstAdminFromEnv: '密碼：REMIT_ADMIN_PASSWORD 的值\n\n',
  stopping: (signal: string) => `收到 ${signal}，正在關閉…\n`,
  stopFailed: (err: unknown) => `關閉時發生錯誤：${err}\n`,
  portInUse: (port: number | string, next: number) =>
    `連接埠 ${port} 已被其他程式使用（可能 remit 已在執行）。請先停止那個程式，或用 --port 換一個連接埠，例如 remit serve --port ${next}`,
  unexpected: (detail: string) => `未預期的錯誤：${detail}\n`,
} as const;

export const IMPORT = {
  failedSummary: (failed: string, errors: number) => `${failed}：檔案有 ${errors} 個錯誤，沒有匯入任何記錄`,
  skipped: (n: number, rows: string, more: boolean) =>
    `略過 ${n} 筆與已有記錄重複的資料（第 ${rows}${more ? '…' : ''} 行）`,
  dryRun: (n: number) => `試算完成：將匯入 ${n} 筆記錄（未寫入）`,
  file: (file: string, where: string) => `檔案：${file}（${where}）`,
  csv: 'CSV',
  sheet: (name: string) => `工作表「${name}」`,
  counts: (rows: number, valid: number) => `共 ${rows} 筆資料，${valid} 筆可匯入`,
  errors: '錯誤：',
  moreErrors: (n: number) => `…還有 ${n} 個錯誤`,
  moreSkippedRows: (n: number) => `…還有 ${n} 行略過`,
  progress: (read: number, written: number) => `已讀取 ${read} 行，已寫入 ${written} 筆`,
} as const;

export const EXPORT = {
  done: (n: number, target: string) => `已匯出 ${n} 筆記錄：${target}`,
  doneToStdout: (n: number) => `已匯出 ${n} 筆記錄`,
  noData: MSG.exportNoData,
  dayFlagsBoth: '--yesterday 與 --today 只能擇一',
  dayFlagsWithDates: '--yesterday/--today 不能與 --from/--to 一起使用',
  badStatus: (got: string[]) =>
    `--status 必須是 ${STATUS_LABELS.未確認}、${STATUS_LABELS.已入帳} 或 ${STATUS_LABELS.未入帳}，收到「${got.join('、')}」`,
  badFormat: (got: string) => `--format 必須是 xlsx、csv 或 json，收到「${got}」`,
  daybookFormat: '日記帳（--daybook）只能匯出 xlsx 或 csv',
  daybookStore: '日記帳（--daybook）請用 --store 指定一家分店的代碼',
  daybookStatus: '日記帳（--daybook）包含每一種狀態，不能用 --status',
  badWait: (got: string) => `--wait 必須是 0 以上的整數秒數，收到「${got}」`,
  waiting: (seconds: number) =>
    `另一個程式正在寫入資料庫（例如匯入大量資料），等它完成後再寫入匯出紀錄（最多 ${seconds} 秒）…`,
} as const;

export const SAMPLE = {
  written: (target: string) => `已產生範例檔：${target}`,
} as const;

export const STORES = {
  none: '尚無分店（用 remit stores add 新增）',
  added: (label: string, id: number) => `已新增分店 ${label}，編號 ${id}`,
  updated: (label: string) => `已更新分店 ${label}`,
  removed: (label: string) => `已刪除分店 ${label}`,
  confirmRemove: (label: string) => `確定要刪除分店 ${label} 嗎？此操作無法復原`,
  nothingToEdit: '請指定要修改的項目：--name 或 --code',
  linkBoth: '--rotate 與 --off 只能擇一',
  linkActive: (label: string, url: string) =>
    `${label} 的公開回報連結：\n${url}\n（印出海報或貼到 LINE 群組；外洩時用 --rotate 換新連結）`,
  linkRotated: (label: string, url: string) => `已換新 ${label} 的公開回報連結，舊連結立即失效：\n${url}`,
  linkOff: (label: string) => `已停用 ${label} 的公開回報連結（用 --rotate 產生新的連結重新啟用）`,
  linkDisabled: (label: string) => `${label} 的公開回報連結已停用（用 --rotate 產生新的連結重新啟用）`,
  unknownCode: (message: string) => `${message}（用 remit stores list 查看）`,
  columns: [STORE_FIELD_LABELS.id, STORE_FIELD_LABELS.code, STORE_FIELD_LABELS.name, STORE_FIELD_LABELS.created_at],
} as const;

export const USERS = {
  none: '暫無會員記錄',
  permissionsHeading: '權限（--permissions 的值，管理員自動擁有全部）：',
  added: (role: string, username: string, id: number) => `已新增${role} ${username}，編號 ${id}`,
  updated: (username: string) => `已更新用戶 ${username}`,
  passwordReset: (username: string) => `已重設用戶 ${username} 的密碼，先前的登入已全部失效`,
  removed: (username: string) => `已刪除用戶 ${username}`,
  confirmRemove: (username: string, role: string) => `確定要刪除用戶 ${username}（${role}）嗎？此操作無法復原`,
  unlocked: (username: string, cleared: number) =>
    `已解除用戶 ${username} 的登入限制（清除 ${cleared} 筆登入失敗紀錄）`,
  activated: (username: string) => `已啟用用戶 ${username}`,
  deactivated: (username: string) => `已停用用戶 ${username}，其登入已失效`,
  activeFlagsBoth: '--active 與 --inactive 只能擇一',
  badRole: (got: string, roles: readonly string[]) =>
    `--role 必須是 ${roles.map((r) => `${r}（${ROLE_LABELS[r as keyof typeof ROLE_LABELS]}）`).join(' 或 ')}，收到「${got}」`,
  nothingToEdit:
    '請指定要修改的項目：--role、--permissions、--store、--no-store、--accessible-stores、--active 或 --inactive',
  /** the store column lists every store the account reaches (home and accessible), hence 分店 */
  columns: [
    STORE_FIELD_LABELS.id,
    USER_FIELD_LABELS.username,
    USER_FIELD_LABELS.role,
    USER_FIELD_LABELS.permissions,
    PAYMENT_FIELD_LABELS.store_id,
    USER_FIELD_LABELS.is_active,
    USER_FIELD_LABELS.created_at,
  ],
} as const;

export const STATS = {
  period: (from: string | undefined, to: string | undefined) => {
    const period = [from && `${from} 起`, to && `至 ${to}`].filter(Boolean).join(' ');
    return period ? `期間：${period}（台灣時間，含當天）\n\n` : '';
  },
  noStores: '沒有分店資料',
  columns: [
    STORE_FIELD_LABELS.code,
    STORE_FIELD_LABELS.name,
    // the terminal's narrower words for the dashboard's 收款筆數 and 金額
    '筆數',
    '金額',
    STATUS_LABELS.已入帳,
    STATUS_LABELS.未確認,
    STATUS_LABELS.未入帳,
  ],
} as const;

export const AUDIT = {
  none: '暫無稽核紀錄',
  more: (total: number, shown: number) => `（共 ${total} 筆，只列出最新 ${shown} 筆；可用 --limit 或 --since 調整）`,
  badLimit: '--limit 需要 1 到 10000 的整數',
  columns: [
    AUDIT_FIELD_LABELS.at,
    AUDIT_FIELD_LABELS.actor,
    AUDIT_FIELD_LABELS.action,
    AUDIT_FIELD_LABELS.entity,
    AUDIT_FIELD_LABELS.entity_id,
    AUDIT_FIELD_LABELS.ip,
    AUDIT_FIELD_LABELS.changes,
  ],
} as const;

export const BACKUP = {
  inMemory: '記憶體資料庫無法備份或還原',
  sameFile: '備份檔不能是資料庫本身',
  done: (db: string, target: string, bytes: number) =>
    `已備份 ${db} 到 ${target}（${bytes.toLocaleString('en-US')} 位元組）`,
  confirmRestore: (source: string, db: string) =>
    `確定要用 ${source} 取代資料庫 ${db} 的資料嗎？目前的資料會先自動備份，再被取代`,
  restored: (source: string, db: string, c: Record<string, number>, kept: string) =>
    `已還原 ${source} 到 ${db}：分店 ${c.stores}、會員 ${c.users}、匯款 ${c.payments}、稽核紀錄 ${c.audit_log} 筆\n` +
    `還原前的資料已備份為 ${kept}`,
  upgraded: (schema: string) => `備份來自較舊的版本，已先升級到目前的資料庫版本（原為 ${schema}）`,
  folder: (dir: string, days: number, fromEnv: boolean) =>
    `備份目錄：${dir}　自動備份保留 ${days} 天${fromEnv ? '（REMIT_BACKUP_KEEP_DAYS）' : ''}`,
  none: '（還沒有備份）',
  keepDaysSet: (days: number) => `已設定自動備份保留 ${days} 天（手動備份不會自動刪除）`,
  keepDaysNotNumber: (value: string) => `--keep-days 必須是整數（目前是「${value}」）`,
  headers: { at: '時間', reason: '原因', size: '大小', name: '檔名' },
} as const;

export const RECONCILE = {
  read: (files: number, lines: number, credits: number, added: number, duplicates: number) =>
    `已讀取 ${files} 個檔案：共 ${lines} 筆明細（存入 ${credits} 筆），新增 ${added} 筆，重複略過 ${duplicates} 筆`,
  accounts: (accounts: string[]) => `銀行帳號：${accounts.join('、')}`,
  period: (from: string, to: string, encoding: string, breaks: number, skipped: number) =>
    `對帳期間：${from} 至 ${to}　編碼：${encoding}${breaks ? `　餘額不連續：${breaks} 處（可能缺行或順序錯誤）` : ''}${skipped ? `　略過非交易列：${skipped} 列` : ''}`,
  auto: (n: number, apply: boolean, applied: number) =>
    `建議入帳：${n} 筆${apply ? `，已確認 ${applied} 筆` : '（未更改；加 --apply 確認）'}`,
  review: (n: number) => `需人工確認：${n} 筆`,
  payment: (uuid: string, lastFive: string, amount: string, at: string) =>
    `  匯款 ${uuid}　後五碼 ${lastFive}　${amount}　${at}`,
  candidate: (
    file: string,
    row: number,
    at: string,
    amount: string,
    account: string,
    score: number,
    reasons: string[],
  ) =>
    `    候選：${file} 第 ${row} 列　${at}　${amount}　帳號 ${account || '（無）'}　分數 ${score}　${reasons.join('、')}`,
  unpaid: (n: number) => `未入帳候選：${n} 筆（不會自動設定）`,
  unreported: (n: number) => `銀行有款無回報：${n} 筆`,
  unreportedLine: (file: string, row: number, at: string, amount: string, summary: string, who: string) =>
    `  ${file} 第 ${row} 列　${at}　${amount}　${summary}　${who}`,
  suggestions: (n: number) => `可能為分次或合併付款：${n} 組（一筆匯款只能連結一筆入帳，請核對後在匯款記錄處理）`,
  group: (k: number, paid: string, credited: string, reasons: string[]) =>
    `  第 ${k} 組　回報合計 ${paid}　入帳合計 ${credited}　${reasons.join('、')}`,
  groupLine: (file: string, row: number, at: string, amount: string, who: string) =>
    `    入帳：${file} 第 ${row} 列　${at}　${amount}　帳號 ${who || '（無）'}`,
  noPayers: '尚未記住任何付款人（確認對帳時，對帳單上有付款人的明細會被記住）',
  learnedBy: (auto: boolean, username: string) => `${auto ? '自動' : '人工'}（${username}）`,
  forgotten: (payer: string, lastFive: string) => `已忘記付款人「${payer}」（後五碼 ${lastFive}）`,
  payerColumns: [
    STORE_FIELD_LABELS.id,
    PAYMENT_FIELD_LABELS.store_id,
    PAYER_FIELD_LABELS.payer,
    PAYER_FIELD_LABELS.last_five,
    PAYER_FIELD_LABELS.learned_at,
    PAYER_FIELD_LABELS.learned_by,
  ],
} as const;

/** `remit close`, `remit cash-out`, `remit closes`, `remit day`. */
export const CLOSES = {
  closed: (store: string, date: string) => `${store} ${date} 日結完成`,
  cashOutRecorded: (store: string, kind: string, amount: string, when: string) =>
    `已記錄 ${store} ${kind} ${amount}（${when}）`,
  afterClose: '（這一天已日結：這筆記為結帳後異動）',
  amountRequired: (flag: string) => `請用 ${flag} 填寫金額（新台幣整數）`,
  badAmount: (flag: string, got: string) => `${flag} 必須是新台幣整數金額，收到「${got}」`,
  badKind: (got: string) => `--kind 必須是 店內支出 或 提領，收到「${got}」`,
  badTime: (got: string) => `--at 必須是時間，例如 2026-11-20T14:30 或 "2026-11-20 14:30"，收到「${got}」`,
  dateRequired: '請用 --date YYYY-MM-DD 指定營業日期（台灣時間）',
  noStores: '沒有分店資料',
  period: (from: string, to: string) => `期間：${from} 至 ${to}（台灣時間，含當天）\n\n`,
  boardColumns: [
    C.store_id,
    C.date,
    C.state,
    C.cash_in,
    C.cash_out,
    C.expected,
    C.counted,
    C.difference,
    C.late_changes,
  ],
  totals: '各付款方式合計',
  dayColumns: ['時間', '類別', '付款方式／支出類型', '項目', '金額', '現金增減', '現金結餘', '備註'],
  income: '收入',
  expense: '支出',
  employee: '員工購物',
  status: (label: string) => `狀態：${label}`,
  opening: (amount: string, from: string | null) =>
    `開帳現金：${amount}${from === 'stated' ? '（首次日結填寫）' : from ? `（沿用 ${from} 點收）` : ''}`,
  noOpening: '開帳現金：未知（本店尚無日結；第一次日結時填寫 --opening）',
  noEntries: '這一天沒有收支記錄',
  lateChanges: (n: number) => `結帳後異動 ${n} 筆（見稽核紀錄）`,
  unknown: '—',
} as const;
