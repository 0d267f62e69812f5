// Every Traditional Chinese text the core produces, to check against ../shared/spec.md; "spec" marks its texts.
import type { ErrorCode, ErrorDetails, ErrorDetailsByCode } from './errors.js';
import {
  LAST_FIVE_LENGTH,
  MAX_BATCH_DELETE,
  METHOD_DETAIL_MAX,
  MAX_IMPORT_ROWS,
  NOTE_MAX_LENGTH,
  PASSWORD_MAX_BYTES,
  PASSWORD_MIN,
  STORE_CODE_MAX,
  STORE_NAME_MAX,
  USERNAME_MAX,
  USERNAME_MIN,
} from './limits.js';
import { formatNTD, MAX_AMOUNT, MIN_AMOUNT } from './money.js';
import { PAYMENT_METHODS } from './paymentMethods.js';

/** 匯款、現金、刷卡 或 電子支付 */
const METHOD_LIST = `${PAYMENT_METHODS.slice(0, -1).join('、')} 或 ${PAYMENT_METHODS[PAYMENT_METHODS.length - 1]}`;

/** The spec's 匯款時間 and 匯款金額 for a transfer (and a payment with no method); 時間 and 金額 for takings in hand. */
export const PAYMENT_WORDS = {
  transfer: { time: '匯款時間', amount: '匯款金額' },
  inHand: { time: '時間', amount: '金額' },
} as const;

export function paymentWords(method?: string | null): { time: string; amount: string } {
  return !method || method === PAYMENT_METHODS[0] ? PAYMENT_WORDS.transfer : PAYMENT_WORDS.inHand;
}

/** The payment list's column words: a transfer's (spec) when it shows transfers only, else 時間 and 金額. */
export function listWords(filter: { method?: unknown }): { time: string; amount: string } {
  return filter.method === PAYMENT_METHODS[0] ? PAYMENT_WORDS.transfer : PAYMENT_WORDS.inHand;
}

/** A wait in seconds as a person reads it: 45 秒, 3 分鐘 (from two minutes up). */
const waitText = (seconds: number) => (seconds < 120 ? `${seconds} 秒` : `${Math.ceil(seconds / 60)} 分鐘`);

function timeAndAmountTexts(w: { time: string; amount: string }) {
  return {
    paidAtRequired: `請選擇${w.time}`,
    paidAtOutOfRange: `${w.time}不合理，請確認日期`,
    paidAtTooFarAhead: `${w.time}不能晚於現在超過一天，請確認日期與時間`,
    confirmPaidAtAhead: (when: string) => `${w.time} ${when} 晚於現在，確定沒有填錯嗎？`,
    confirmPaidAtOld: (when: string, days: number) => `${w.time} ${when} 是 ${days} 天前，確定沒有填錯嗎？`,
    amountRequired: `請輸入${w.amount}`,
    amountNumeric: `${w.amount}必須是數字`,
    amountMin: `${w.amount}至少為 ${MIN_AMOUNT}`,
    amountInteger: `${w.amount}必須是整數（新台幣元）`,
    amountMax: `${w.amount}不能超過 ${formatNTD(MAX_AMOUNT)}`,
  };
}

/** The time and amount sentences for a payment of this method (a transfer's when none). */
export function paymentTexts(method?: string | null): ReturnType<typeof timeAndAmountTexts> {
  return paymentWords(method) === PAYMENT_WORDS.transfer ? MSG : MSG.inHand;
}

export const MSG = {
  // Generic
  validationFailed: '驗證錯誤',
  unauthenticated: '請先登入',
  tokenInvalid: '登入已失效，請重新登入',
  forbidden: '權限不足',
  permissionRequired: (label: string) => `權限不足：需要「${label}」權限`,
  unknownStore: '未知分店', // spec
  noNote: '無備註', // spec
  noSpecialPermissions: '無特殊權限', // spec
  noStoreAccess: '無分店權限', // spec
  allStoresAccessible: '可存取所有分店',
  unknownUser: '未知', // spec
  linkActor: (code: string) => `顧客連結（${code}）`,

  // Payment form (spec section 5)
  lastFiveRequired: '請輸入帳號後五碼',
  lastFiveFormat: `帳號後五碼必須是${LAST_FIVE_LENGTH}位數字`,
  // a transfer's words (spec); `inHand` says 時間 and 金額 for takings in hand (paymentTexts picks)
  ...timeAndAmountTexts(PAYMENT_WORDS.transfer),
  inHand: timeAndAmountTexts(PAYMENT_WORDS.inHand),
  paidAtInvalid: '無效的日期格式', // spec (import)
  possibleDuplicate: (uuid: string) => `可能重複：同一分店已有相同後五碼、時間與金額的匯款，追蹤編號：${uuid}`,
  storeRequired: '請選擇分店',
  storeInvalid: '分店編號格式錯誤',
  storeNotFound: '找不到分店',
  noteType: '備註必須是文字',
  noteTooLong: `備註不能超過${NOTE_MAX_LENGTH}個字元`,
  statusInvalid: '狀態必須是 未確認、已入帳 或 未入帳',
  methodInvalid: `付款方式必須是 ${METHOD_LIST}`,
  lastFiveNotNeeded: (method: string) => `${method}不需要帳號後五碼，請留空（只有匯款需要）`,
  methodDetailNotEpay: '只有電子支付可以填寫電子支付類型',
  methodDetailType: '電子支付類型必須是文字',
  methodDetailTooLong: `電子支付類型不能超過${METHOD_DETAIL_MAX}個字元`,
  methodDetailChars: '電子支付類型不能有半形逗號或換行',
  employeeInvalid: '員工購物必須是 是 或 否（true 或 false）',
  reconcileNotTransfer: (method: string) => `只有匯款參與對帳：這筆是${method}，已入帳`,
  methodChangeLinked: '已對帳的匯款不能更改付款方式，請先取消對帳',
  paymentReadOnlyField: '匯款記錄只能修改狀態和備註',
  paymentNotFound: '找不到匯款記錄',
  paymentStoreForbidden: '權限不足：無法存取此分店的匯款記錄',
  branchOwnStoreOnly: '您是分店員工，只能提交本分店的匯款資料', // spec (hint)
  branchOwnStoreTakings: '您是分店員工，只能記錄本分店的收款',
  storeOutOfScope: '權限不足：您沒有此分店的權限',
  uuidsRequired: '請選擇要刪除的匯款記錄',
  uuidsTooMany: `一次最多刪除 ${MAX_BATCH_DELETE} 筆匯款記錄`,
  linkReportsWindowRequired: '請指定要移除的顧客回報是從何時起收到的',
  linkReportsTooMany: (limit: number) => `這段時間的顧客回報超過 ${limit} 筆，請縮短時間範圍，分次移除`,
  importEmpty: '沒有可匯入的資料',
  importTooMany: `一次最多匯入 ${MAX_IMPORT_ROWS} 筆記錄`,
  rowPrefix: (n: number) => `第 ${n} 筆：`,

  // Login (spec section 5 and 8)
  loginUsernameRequired: '請輸入用戶名',
  loginPasswordRequired: '請輸入密碼',
  loginFailed: '用戶名或密碼錯誤',
  accountInactive: '此帳戶已停用，請聯絡管理員',
  loginFailedFallback: '登入失敗，請檢查用戶名和密碼', // spec
  tooManyLoginFailures: (minutes: number) => `登入失敗次數過多，請於 ${minutes} 分鐘後再試`,
  tooManyPasswordFailures: (minutes: number) => `目前密碼輸入錯誤次數過多，請於 ${minutes} 分鐘後再試`,
  signedOut: '已登出',
  crossSiteRefused: '這個要求來自其他網站，已拒絕；請從本系統的頁面操作',

  // User form (spec section 5)
  usernameMin: `用戶名至少需要${USERNAME_MIN}個字符`, // spec
  usernameMax: `用戶名不能超過${USERNAME_MAX}個字符`, // spec
  usernamePattern: '用戶名只能包含字母、數字和下劃線', // spec
  usernameImmutable: '用戶名不能修改',
  usernameTaken: '用戶名已存在',
  passwordRequired: '密碼是必填的', // spec
  passwordMin: `密碼至少需要${PASSWORD_MIN}個字符`, // spec
  passwordMax: `密碼不能超過${PASSWORD_MAX_BYTES}個位元組（英數字每字1個、中文字每字3個位元組，約${Math.floor(PASSWORD_MAX_BYTES / 3)}個中文字）`,
  serverBusy: '伺服器忙碌中，請稍候幾秒再試',
  /** the database's one writer is held (a large import on SQLite): nothing was written */
  databaseBusy: '資料庫正在寫入大量資料（例如匯入），這筆尚未儲存，請稍候再送出一次',
  passwordMismatch: '密碼確認不匹配', // spec
  adminPasswordWeak: (why: string) => `REMIT_ADMIN_PASSWORD 不能使用：${why}`,
  passwordWeak: {
    username: '密碼不能是用戶名（包括大小寫不同、倒過來寫或只在後面加數字或符號），請換一個別人猜不到的密碼',
    repetitive:
      '密碼不能只是重複或連續的字元（例如 aaaaaa、121212、abcabc、123456、qwerty），這種密碼很容易被猜中，請換一個',
    common: '這個密碼太常見（例如 123456、password、admin123），常被最先拿來猜，請換一個不常見的密碼',
  },
  roleRequired: '請選擇角色', // spec
  permissionsInvalid: (keys: string[], valid: string[]) =>
    `無效的權限：${keys.join('、')}（可用的權限：${valid.join('、')}）`,
  storesInvalid: '可存取分店必須是分店編號的列表',
  isActiveInvalid: '啟用狀態必須是 true 或 false',
  userNotFound: '找不到用戶',
  userNotFoundNamed: (username: string) => `找不到用戶「${username}」`,
  accountActive: '啟用', // spec
  accountInactiveLabel: '停用', // spec

  // Password change (spec section 5 and 8)
  currentPasswordRequired: '請輸入目前密碼', // spec
  newPasswordRequired: '請輸入新密碼', // spec
  newPasswordMin: `新密碼至少需要${PASSWORD_MIN}個字符`, // spec
  newPasswordMismatch: '新密碼確認不匹配', // spec
  currentPasswordWrong: '目前密碼不正確',
  passwordChanged: '密碼更改成功！', // spec

  // Account protection (spec section 2 and 6)
  cannotDeleteSelf: '無法刪除自己的帳戶', // spec
  cannotDeleteAdmin: '權限不足：無法刪除管理員帳戶', // spec
  cannotDeactivateSelf: '無法停用自己的帳戶',
  cannotDeactivateAdmin: '權限不足：無法停用管理員帳戶',
  cannotCreateAdmin: '權限不足：只有管理員可以建立或指派管理員',
  cannotEditAdmin: '權限不足：無法修改管理員帳戶',
  cannotManageStronger: '權限不足：此帳戶擁有您沒有的權限或分店',
  cannotGrant: (labels: string[]) => `權限不足：無法授予您沒有的權限（${labels.join('、')}）`,
  cannotAssignStore: '權限不足：無法指派您沒有權限的分店',
  cannotMakeHeadquarters: '權限不足：分店帳戶無法建立或設定沒有所屬分店（總部）的帳戶',
  lastAdmin: '至少需要保留一位啟用中的管理員',
  cannotChangeOthersPassword: '只能更改自己的密碼',

  // Stores
  storeNameRequired: '請輸入分店名稱',
  storeNameTooLong: `分店名稱不能超過${STORE_NAME_MAX}個字元`,
  storeCodeRequired: '請輸入分店代碼',
  storeCodePattern: `分店代碼只能包含英文字母、數字、底線和連字號，最多${STORE_CODE_MAX}個字元`,
  storeCodeTaken: '分店代碼已存在',
  storeInUse: '此分店仍有匯款記錄或用戶，無法刪除',
  storeCodeNotFound: (code: string) => `找不到分店代碼「${code}」`,

  // A store's public link: what a customer with no account reads
  linkInactive: '連結已失效，請向門市索取新的連結',
  publicTooMany: (seconds: number) => `送出次數過多，請於 ${waitText(seconds)}後再試`,
  /** too many reads from one address (a shop's shared Wi-Fi): the link itself still works */
  publicBusy: (seconds: number) => `使用人數過多，請於 ${waitText(seconds)}後再試`,
  publicPossibleDuplicate:
    '您可能已經回報過這筆匯款：相同的帳號後五碼與金額，匯款時間相差 10 分鐘內。若這是另一筆匯款，請按「仍要送出」',
  publicReportNotFound: '查無這個追蹤編號，請確認網址是否完整',
  // the page makes the key: a person sees these only if the page is broken or altered
  clientKeyInvalid: '回報識別碼格式不正確，請重新整理頁面後再送出',
  clientKeyReused: '這個回報識別碼已用於內容不同的另一筆回報，請重新整理頁面後再送出',

  // List protocol
  badListParam: (name: string) => `查詢參數 ${name} 格式錯誤`,
  badSortField: (field: string) => `不支援的排序欄位：${field}`,
  badFilterField: (field: string) => `不支援的篩選條件：${field}`,
  dateRangeReversed: (from: string, to: string) => `開始日期（${from}）不能晚於結束日期（${to}）`,
  badDate: (value: string) => `日期格式錯誤：${value}（請使用 YYYY-MM-DD）`, // spec: 日期格式錯誤
  dateOutOfRange: (value: string) => `日期超出範圍：${value}（請輸入 2000-01-01 到 2099-12-31 之間的日期）`,

  // Excel import and export (spec sections 5, 8 and 9)
  rowError: (row: number, message: string) => `第 ${row} 行：${message}`, // spec: 第 N 行：...
  importLastFive: `後五碼必須是${LAST_FIVE_LENGTH}位數字`, // spec
  importPaidAtRequired: '匯款時間不能為空', // spec
  importDateInvalid: '無效的日期格式', // spec
  importDateWrong: '日期格式錯誤', // spec
  /** which column and what was in it, after the spec's message */
  importCellUnreadable: (message: string, column: string, value: string) => `${message}：${column}「${value}」`,
  importLastFiveLostZero: (read: string) =>
    `後五碼必須是${LAST_FIVE_LENGTH}位數字（讀到 ${read}，可能遺失開頭的 0：請把這一欄設為文字格式）`,
  importAmountPositive: '匯款金額必須大於0',
  importMethod: (read: string) =>
    `付款方式必須是 ${METHOD_LIST}，空白為匯款；電子支付可寫類型、員工購物可寫在前面，例如「電子支付-LINE Pay」「員工購物-現金」（讀到「${read}」）`,
  importStoreNotFound: (cell: string) => `找不到對應的分店「${cell}」`, // spec
  importBadData: '資料格式錯誤', // spec
  chartRangeTooLong: (days: number) => `圖表最多顯示 ${days} 天，請縮小日期範圍`,
  importNoBusinessDate: '沒有營業日期，已略過',
  importDuplicateInFile: (first: number) => `與第 ${first} 行重複，已略過`,
  importDuplicateInDb: '與已有的匯款記錄重複，已略過',
  importSuccess: (n: number) => `成功匯入 ${n} 筆記錄`, // spec
  importSuccessTitle: '匯入成功', // spec
  importFailed: '匯入失敗', // spec
  importParseFailed: '檔案解析失敗，請確認檔案格式正確', // spec
  importReadFailed: '讀取檔案失敗', // spec
  importFileTooLarge: (mb: number) => `檔案過大：上限為 ${mb} MB`,
  importTooManyRows: (max: number) => `資料列過多：一次最多匯入 ${max} 筆`,
  importTooManyColumns: (range: string, max: number) =>
    `工作表的範圍過大（${range}），最多 ${max} 欄：請只保留有資料的欄位，另存新檔後再匯入`,
  importZipBomb: '檔案內容過大或可能為壓縮炸彈，已拒絕',
  importNotSpreadsheet: '不是 Excel 檔案：請選擇 .xlsx 或 .xls 檔案',
  importNoSheet: '活頁簿中沒有工作表',
  importMissingHeader: (missing: string[]) => `第 1 行必須是標題列，缺少欄位：${missing.join('、')}`,
  importNoRows: '檔案中沒有資料列',
  /** .xls (BIFF) cannot be read in parts: over its limits, the way out is .xlsx */
  importXlsTooLarge: (mb: number, rows: number) =>
    `.xls 檔（舊版 Excel 格式）無法分段讀取，上限為 ${mb} MB、${rows} 筆：請在 Excel 以「另存新檔」存成 .xlsx 後再匯入`,
  importTooManyTexts: '檔案中不同的文字過多，無法讀取：請分成幾個檔案匯入',
  importNotImportFile: '不是可匯入的檔案：請選擇 .xlsx、.xls 或 .csv 檔案',
  importMoreErrors: (n: number) => `…還有 ${n} 個錯誤`,
  exportNoData: '沒有資料可匯出', // spec
  exportUnionIsAll: '權限不足：這次匯出加上您 24 小時內的其他匯出，等於匯出全部，需要「匯款管理」權限',
  exportIsAll: '權限不足：這次匯出含您分店的每一筆匯款，等於匯出全部，需要「匯款管理」權限',
  /** a store link whose address only this machine or the shop's network opens */
  linkNotPublic:
    '這個連結的網址只有本機或店內網路開得到，客人用手機網路連不上。請系統管理員設定對外網址（REMIT_PUBLIC_URL）後，再分享連結或印海報。',
  exportTooOften: (max: number) => `權限不足：24 小時內已匯出 ${max} 次，再匯出需要「匯款管理」權限`,
  exportAll: '全部',

  // Bank reconciliation: statements
  statementFileError: (file: string, message: string) => `${file}：${message}`,
  statementRowError: (file: string, row: number, message: string) => `${file} 第 ${row} 行：${message}`,
  statementEmpty: '檔案是空的',
  statementNotSupported: '不支援的檔案類型：請選擇 .csv、.xls 或 .xlsx 檔案',
  statementNoHeader: (rows: number) =>
    `前 ${rows} 行找不到標題列（需要日期欄，如「交易日期」，以及金額欄，如「存入」或「金額」）`,
  statementNoLines: '檔案中沒有交易明細',
  statementBadDate: (text: string) => (text ? `無法辨識的日期「${text}」` : '日期不能為空'),
  statementBadTime: (text: string) => `無法辨識的時間「${text}」`,
  statementBadAmount: (column: string, text: string) => `「${column}」欄無法辨識的金額「${text}」`,
  statementBothSides: '同一行同時有存入與支出金額',
  // Bank reconciliation: decisions
  reconcileStoreRequired: '可看到多家分店的帳號必須指定對帳分店',
  reconcileAccountTooLong: (max: number) => `銀行帳號最多 ${max} 個字`,
  reconcileAccountBad: '銀行帳號含有無效的字元',
  reconcileAccountDiffers: (inFile: string, given: string) =>
    `對帳單上的帳號是「${inFile}」，與指定的帳號「${given}」不同`,
  reconcilePayerNotFound: (id: unknown) => `找不到已記住的付款人 ${String(id)}`,
  reconcileLineNotFound: (id: unknown) => `找不到銀行明細 ${String(id)}`,
  reconcileLineNotCredit: (id: number) => `銀行明細 ${id} 不是存入款項`,
  reconcileAmountDiffers: (id: number) => `銀行明細 ${id} 的金額與匯款金額不同`,
  reconcileOtherStore: (id: number) => `銀行明細 ${id} 屬於其他分店的對帳單`,
  reconcileSharedLine: (id: number) =>
    `銀行明細 ${id} 屬於全部分店的對帳單，可能是其他分店的款項：請由管理全部分店的帳號建立匯款記錄，或連結到本分店的回報`,
  reconcilePaymentLinked: '此匯款已對帳，請先取消對帳',
  reconcileLineLinked: (id: number) => `銀行明細 ${id} 已與其他匯款對帳`,
  reconcileLineTaken: '這筆入帳已連結到其他匯款記錄，請重新比對',
  reconcileNotLinked: '此匯款尚未對帳',
  reconcileConcurrent: '此匯款或銀行明細剛被其他人對帳，請重新整理後再試',
  reconcilePairsRequired: '請提供要確認的配對（pairs）',
  reconcilePaymentsRequired: '請提供匯款編號（payments）',
  reconcileTooMany: (max: number) => `一次最多 ${max} 筆`,
  reconcileRangeRequired: '請提供對帳期間（from、to，格式 YYYY-MM-DD）或交易明細（statement）',
  reconcileBusy: '對帳計算忙碌中（同時有太多對帳在計算），請稍候幾秒再試',
  reconcilePeriodTooLong: (from: string, to: string, days: number, max: number) =>
    `對帳期間太長：要對帳的期間內，銀行明細從 ${from} 到 ${to} 共 ${days} 天，一次最多 ${max} 天（一年）。請縮短期間，例如一次對帳一個月`,
  reconcileBadPage: (field: string, max: number) => `${field} 必須是 0 到 ${max} 之間的整數`,
  reconcileStatementNotFound: (id: unknown) => `找不到交易明細 ${String(id)}`,
  reconcileFileNameRequired: '請提供檔名（filename）',

  // Cash out and the daily close (日結)
  cashOutKindInvalid: '支出類型必須是 店內支出 或 提領',
  cashCategoryRequired: '請填寫店內支出的項目（例如 雜支、文具用品）',
  cashCategoryTooLong: (limit: number) => `支出項目不能超過${limit}個字元`,
  cashAmountRequired: '請輸入金額',
  cashAmountInvalid: (limit: number) => `金額必須是 1 到 ${formatNTD(limit)} 的整數（新台幣元）`,
  cashAtTooFarAhead: '支出時間不能晚於現在超過一天，請確認日期與時間',
  cashOutNotFound: '找不到這筆現金支出',
  closeDateRequired: '請選擇結帳日期',
  closeDateFuture: (date: string) => `${date} 還沒到，不能結帳`,
  closeCountedRequired: '請輸入點收現金（抽屜裡實際的現金），或逐一填寫各面額的張數',
  closeCashInvalid: (limit: number) => `現金金額必須是 0 到 ${formatNTD(limit)} 的整數（新台幣元）`,
  closeDenominationsInvalid: '點鈔張數必須是 0 或正整數（面額 1000、500、100、50、10、5、1）',
  closeDenominationsMismatch: (total: number, counted: number) =>
    `點鈔合計 ${formatNTD(total)} 與點收現金 ${formatNTD(counted)} 不符，請再點一次`,
  closeOpeningRequired: '這是本店第一次日結，請填寫開帳現金（這天開始營業時抽屜裡的現金）',
  closeOpeningDiffers: (from: string, counted: number, opening: number) =>
    `開帳現金沿用前一次日結（${from}）的點收現金 ${formatNTD(counted)}，不能另填 ${formatNTD(opening)}；如前一次點錯，請重新開帳 ${from} 更正`,
  closeRangeTooLong: (limit: number) => `日結總覽一次最多 ${limit} 天，請縮短日期範圍`,
  dayAlreadyClosed: (store: string, date: string, by: string, at: string) =>
    `${store} ${date} 已經結帳（${by}，${at}），不能再結一次；如需更正，請由具「匯款管理」權限者重新開帳`,
  dayNotClosed: (store: string, date: string) => `${store} ${date} 尚未結帳，不需要重新開帳`,
  dayClosedLocked: (store: string, date: string) =>
    `${store} ${date} 已日結，當天的現金收支已鎖定：需要「匯款管理」權限才能新增、修改或刪除（或請主管重新開帳）`,

  // Backups (the 備份 page, remit backup / restore)
  fileExists: (path: string) => `檔案已存在：${path}（要覆蓋請加 --force）`,
  backupDirMissing: (path: string) => `備份目錄不存在：${path}`,
  backupNotFound: (path: string) => `找不到備份檔：${path}`,
  databaseDirMissing: (path: string) => `資料庫目錄不存在：${path}`,
  databaseInUse: '資料庫正在使用中（例如伺服器正在執行）：請先停止伺服器再還原',
  backupNotSqlite: (path: string) => `不是 SQLite 資料庫檔案：${path}`,
  backupUnreadable: (reason: string) => `備份檔已損壞，無法讀取：${reason}`,
  backupIntegrity: (problems: string[]) => `備份檔未通過完整性檢查：${problems.join('；')}`,
  backupNotRemit: (tables: string[]) => `不是 remit 的資料庫（缺少資料表：${tables.join('、')}）`,
  backupNewer: (migrations: string[]) =>
    `備份來自較新版本的 remit（未知的資料庫遷移：${migrations.join('、')}），請先更新程式`,
  backupNotBackup: (path: string) => `不是 remit 的備份檔，也不是 SQLite 資料庫檔案：${path}`,
  backupFormatNewer: (version: number) => `備份檔是較新的格式（第 ${version} 版），請先更新程式再還原`,
  backupHeaderInvalid: '備份檔的標頭格式錯誤，不是完整的 remit 備份檔',
  backupTruncated: '備份檔不完整（可能在下載或複製時中斷），未還原任何資料',
  backupDamaged: '備份檔已損壞，無法解壓縮，未還原任何資料',
  backupChecksum: '備份檔的內容與檢查碼不符（檔案已損壞或被修改），未還原任何資料',
  backupTampered: '備份檔的內容與標頭記載的不符（檔案已損壞或被修改），未還原任何資料',
  backupTooLarge: (mb: number) => `備份檔解壓縮後超過上限 ${mb} MB，已拒絕`,
  backupOddSchema: (tables: string[]) => `備份檔的資料表結構不是 remit 的（${tables.join('、')}），未還原任何資料`,
  backupBadRows: (table: string, column: string | null) =>
    `備份檔的資料不正確（資料表 ${table}${column ? ` 欄位 ${column}` : ''}），未還原任何資料`,
  backupDiskFull: (path: string, need: number, free: number) =>
    `磁碟空間不足：${path} 需要約 ${need} MB，只剩 ${free} MB`,
  backupNameInvalid: (name: string) => `不是備份檔的名稱：${name}`,
  backupFileNotFound: (name: string) => `找不到備份「${name}」（可能已超過保留天數而刪除）`,
  backupKeepDaysInvalid: (min: number, max: number) => `保留天數必須是 ${min} 到 ${max} 之間的整數`,
  backupKeepDaysFromEnv: (days: number) =>
    `保留天數由環境變數 REMIT_BACKUP_KEEP_DAYS 設定為 ${days} 天，請修改伺服器的設定`,
  backupsNotConfigured: '這個伺服器沒有設定備份目錄',
  backupAllStoresRequired: '權限不足：備份含所有分店的資料，只有可存取所有分店的管理員可以備份或還原',
  restoreConfirmRequired: (word: string) => `請輸入「${word}」確認要用備份取代目前的資料`,
  restoreInProgress: '系統正在還原備份，請稍後再試',

  // HTTP edge
  notFoundRoute: '找不到此 API',
  bodyNotObject: '請求內容必須是 JSON 物件',
  nulCharacter: '請求內容含有無效的字元（NUL）',
  malformedJson: '請求內容不是有效的 JSON',
  bodyTooLarge: '請求內容過大',
  jsonTooDeep: (max: number) => `請求內容的巢狀層數過多（最多 ${max} 層）`,
  unsupportedMediaType: '請求內容必須是 JSON（Content-Type: application/json）',
  unsupportedFileType: '請求內容必須是檔案本身（Content-Type: application/octet-stream）',
  methodNotAllowed: '不支援此請求方法',
  badRequest: '請求格式錯誤',
  internalError: '伺服器發生錯誤，請稍後再試',
} as const;

type Texts = { [C in ErrorCode]: (d: ErrorDetailsByCode[C]) => string };

/** The sentence of every error code, from its details (core/errors.ts lists the codes). */
const ERROR_TEXTS: Texts = {
  validation_failed: () => MSG.validationFailed,
  unauthenticated: () => MSG.unauthenticated,
  token_invalid: () => MSG.tokenInvalid,
  forbidden: () => MSG.forbidden,
  permission_required: (d) => MSG.permissionRequired(d.label),
  body_not_object: () => MSG.bodyNotObject,
  bad_list_param: (d) => MSG.badListParam(d.param),
  bad_sort_field: (d) => MSG.badSortField(d.field),
  bad_filter_field: (d) => MSG.badFilterField(d.field),
  bad_date: (d) => MSG.badDate(d.value),
  date_out_of_range: (d) => MSG.dateOutOfRange(d.value),
  date_range_reversed: (d) => MSG.dateRangeReversed(d.from, d.to),
  server_busy: () => MSG.serverBusy,
  last_five_required: () => MSG.lastFiveRequired,
  last_five_format: () => MSG.lastFiveFormat,
  paid_at_required: (d) => paymentTexts(d.method).paidAtRequired,
  paid_at_invalid: () => MSG.paidAtInvalid,
  paid_at_out_of_range: (d) => paymentTexts(d.method).paidAtOutOfRange,
  paid_at_too_far_ahead: (d) => paymentTexts(d.method).paidAtTooFarAhead,
  amount_required: (d) => paymentTexts(d.method).amountRequired,
  amount_numeric: (d) => paymentTexts(d.method).amountNumeric,
  amount_min: (d) => paymentTexts(d.method).amountMin,
  amount_integer: (d) => paymentTexts(d.method).amountInteger,
  amount_max: (d) => paymentTexts(d.method).amountMax,
  store_required: () => MSG.storeRequired,
  store_invalid: () => MSG.storeInvalid,
  store_not_found: () => MSG.storeNotFound,
  note_type: () => MSG.noteType,
  note_too_long: () => MSG.noteTooLong,
  status_invalid: () => MSG.statusInvalid,
  method_invalid: () => MSG.methodInvalid,
  last_five_not_needed: (d) => MSG.lastFiveNotNeeded(d.method),
  method_detail_not_epay: () => MSG.methodDetailNotEpay,
  method_detail_type: () => MSG.methodDetailType,
  method_detail_too_long: () => MSG.methodDetailTooLong,
  method_detail_chars: () => MSG.methodDetailChars,
  employee_invalid: () => MSG.employeeInvalid,
  method_change_linked: () => MSG.methodChangeLinked,
  payment_read_only_field: () => MSG.paymentReadOnlyField,
  payment_not_found: () => MSG.paymentNotFound,
  payment_store_forbidden: () => MSG.paymentStoreForbidden,
  store_out_of_scope: () => MSG.storeOutOfScope,
  possible_duplicate: (d) => MSG.possibleDuplicate(d.duplicate_of),
  uuids_required: () => MSG.uuidsRequired,
  uuids_too_many: () => MSG.uuidsTooMany,
  link_reports_window_required: () => MSG.linkReportsWindowRequired,
  link_reports_too_many: (d) => MSG.linkReportsTooMany(d.limit),
  chart_range_too_long: (d) => MSG.chartRangeTooLong(d.limit),
  login_username_required: () => MSG.loginUsernameRequired,
  login_password_required: () => MSG.loginPasswordRequired,
  login_failed: () => MSG.loginFailed,
  account_inactive: () => MSG.accountInactive,
  too_many_login_failures: (d) => MSG.tooManyLoginFailures(d.minutes),
  too_many_password_failures: (d) => MSG.tooManyPasswordFailures(d.minutes),
  username_min: () => MSG.usernameMin,
  username_max: () => MSG.usernameMax,
  username_pattern: () => MSG.usernamePattern,
  username_immutable: () => MSG.usernameImmutable,
  username_taken: () => MSG.usernameTaken,
  password_required: () => MSG.passwordRequired,
  password_min: () => MSG.passwordMin,
  password_max: () => MSG.passwordMax,
  password_mismatch: () => MSG.passwordMismatch,
  password_weak: (d) => MSG.passwordWeak[d.reason],
  admin_password_weak: (d) => MSG.adminPasswordWeak(MSG.passwordWeak[d.reason]),
  current_password_required: () => MSG.currentPasswordRequired,
  current_password_wrong: () => MSG.currentPasswordWrong,
  new_password_required: () => MSG.newPasswordRequired,
  new_password_min: () => MSG.newPasswordMin,
  new_password_mismatch: () => MSG.newPasswordMismatch,
  role_required: () => MSG.roleRequired,
  permissions_invalid: (d) => MSG.permissionsInvalid(d.values, d.valid),
  stores_invalid: () => MSG.storesInvalid,
  is_active_invalid: () => MSG.isActiveInvalid,
  user_not_found: (d) => (d.username === undefined ? MSG.userNotFound : MSG.userNotFoundNamed(d.username)),
  cannot_delete_self: () => MSG.cannotDeleteSelf,
  cannot_delete_admin: () => MSG.cannotDeleteAdmin,
  cannot_deactivate_self: () => MSG.cannotDeactivateSelf,
  cannot_deactivate_admin: () => MSG.cannotDeactivateAdmin,
  cannot_create_admin: () => MSG.cannotCreateAdmin,
  cannot_edit_admin: () => MSG.cannotEditAdmin,
  cannot_manage_stronger: () => MSG.cannotManageStronger,
  cannot_grant: (d) => MSG.cannotGrant(d.labels),
  cannot_assign_store: () => MSG.cannotAssignStore,
  cannot_make_headquarters: () => MSG.cannotMakeHeadquarters,
  branch_own_store_only: () => MSG.branchOwnStoreOnly,
  last_admin: () => MSG.lastAdmin,
  cannot_change_others_password: () => MSG.cannotChangeOthersPassword,
  store_name_required: () => MSG.storeNameRequired,
  store_name_too_long: () => MSG.storeNameTooLong,
  store_code_required: () => MSG.storeCodeRequired,
  store_code_pattern: () => MSG.storeCodePattern,
  store_code_taken: () => MSG.storeCodeTaken,
  store_in_use: () => MSG.storeInUse,
  store_code_not_found: (d) => MSG.storeCodeNotFound(d.code),
  link_inactive: () => MSG.linkInactive,
  public_too_many: (d) => MSG.publicTooMany(d.seconds),
  public_busy: (d) => MSG.publicBusy(d.seconds),
  public_possible_duplicate: () => MSG.publicPossibleDuplicate,
  public_report_not_found: () => MSG.publicReportNotFound,
  client_key_invalid: () => MSG.clientKeyInvalid,
  client_key_reused: () => MSG.clientKeyReused,
  import_empty: () => MSG.importEmpty,
  import_too_many: () => MSG.importTooMany,
  import_last_five: () => MSG.importLastFive,
  import_last_five_lost_zero: (d) => MSG.importLastFiveLostZero(d.value),
  import_method: (d) => MSG.importMethod(d.value),
  import_paid_at_required: () => MSG.importPaidAtRequired,
  import_date_invalid: (d) => MSG.importCellUnreadable(MSG.importDateInvalid, d.column, d.value),
  import_date_wrong: (d) => MSG.importCellUnreadable(MSG.importDateWrong, d.column, d.value),
  import_amount_positive: () => MSG.importAmountPositive,
  import_store_not_found: (d) => MSG.importStoreNotFound(d.value),
  import_bad_data: () => MSG.importBadData,
  import_no_business_date: () => MSG.importNoBusinessDate,
  import_duplicate_in_file: (d) => MSG.importDuplicateInFile(d.earlier_row),
  import_file_too_large: (d) => MSG.importFileTooLarge(d.limit_mb),
  import_too_many_rows: (d) => MSG.importTooManyRows(d.limit),
  import_too_many_columns: (d) => MSG.importTooManyColumns(d.range, d.limit),
  import_zip_bomb: () => MSG.importZipBomb,
  import_not_spreadsheet: () => MSG.importNotSpreadsheet,
  import_no_sheet: () => MSG.importNoSheet,
  import_missing_header: (d) => MSG.importMissingHeader(d.columns),
  import_no_rows: () => MSG.importNoRows,
  import_xls_too_large: (d) => MSG.importXlsTooLarge(d.limit_mb, d.limit_rows),
  import_too_many_texts: () => MSG.importTooManyTexts,
  import_not_import_file: () => MSG.importNotImportFile,
  import_parse_failed: () => MSG.importParseFailed,
  import_read_failed: () => MSG.importReadFailed,
  import_more_errors: (d) => MSG.importMoreErrors(d.count),
  export_no_data: () => MSG.exportNoData,
  export_union_is_all: () => MSG.exportUnionIsAll,
  export_is_all: () => MSG.exportIsAll,
  export_too_often: (d) => MSG.exportTooOften(d.limit),
  statement_empty: () => MSG.statementEmpty,
  statement_not_supported: () => MSG.statementNotSupported,
  statement_no_header: (d) => MSG.statementNoHeader(d.rows),
  statement_no_lines: () => MSG.statementNoLines,
  statement_bad_date: (d) => MSG.statementBadDate(d.value),
  statement_bad_time: (d) => MSG.statementBadTime(d.value),
  statement_bad_amount: (d) => MSG.statementBadAmount(d.column, d.value),
  statement_both_sides: () => MSG.statementBothSides,
  reconcile_store_required: () => MSG.reconcileStoreRequired,
  reconcile_account_too_long: (d) => MSG.reconcileAccountTooLong(d.limit),
  reconcile_account_bad: () => MSG.reconcileAccountBad,
  reconcile_account_differs: (d) => MSG.reconcileAccountDiffers(d.in_file, d.given),
  reconcile_payer_not_found: (d) => MSG.reconcilePayerNotFound(d.id),
  reconcile_line_not_found: (d) => MSG.reconcileLineNotFound(d.id),
  reconcile_line_not_credit: (d) => MSG.reconcileLineNotCredit(d.id),
  reconcile_amount_differs: (d) => MSG.reconcileAmountDiffers(d.id),
  reconcile_other_store: (d) => MSG.reconcileOtherStore(d.id),
  reconcile_shared_line: (d) => MSG.reconcileSharedLine(d.id),
  reconcile_payment_linked: () => MSG.reconcilePaymentLinked,
  reconcile_not_transfer: (d) => MSG.reconcileNotTransfer(d.method),
  reconcile_line_linked: (d) => MSG.reconcileLineLinked(d.id),
  reconcile_line_taken: () => MSG.reconcileLineTaken,
  reconcile_not_linked: () => MSG.reconcileNotLinked,
  reconcile_concurrent: () => MSG.reconcileConcurrent,
  reconcile_pairs_required: () => MSG.reconcilePairsRequired,
  reconcile_payments_required: () => MSG.reconcilePaymentsRequired,
  reconcile_too_many: (d) => MSG.reconcileTooMany(d.limit),
  reconcile_range_required: () => MSG.reconcileRangeRequired,
  reconcile_busy: () => MSG.reconcileBusy,
  reconcile_period_too_long: (d) => MSG.reconcilePeriodTooLong(d.from, d.to, d.days, d.limit),
  reconcile_bad_page: (d) => MSG.reconcileBadPage(d.param, d.limit),
  reconcile_statement_not_found: (d) => MSG.reconcileStatementNotFound(d.id),
  reconcile_file_name_required: () => MSG.reconcileFileNameRequired,
  cash_out_kind_invalid: () => MSG.cashOutKindInvalid,
  cash_category_required: () => MSG.cashCategoryRequired,
  cash_category_too_long: (d) => MSG.cashCategoryTooLong(d.limit),
  cash_amount_required: () => MSG.cashAmountRequired,
  cash_amount_invalid: (d) => MSG.cashAmountInvalid(d.limit),
  cash_at_too_far_ahead: () => MSG.cashAtTooFarAhead,
  cash_out_not_found: () => MSG.cashOutNotFound,
  close_date_required: () => MSG.closeDateRequired,
  close_date_future: (d) => MSG.closeDateFuture(d.date),
  close_counted_required: () => MSG.closeCountedRequired,
  close_cash_invalid: (d) => MSG.closeCashInvalid(d.limit),
  close_denominations_invalid: () => MSG.closeDenominationsInvalid,
  close_denominations_mismatch: (d) => MSG.closeDenominationsMismatch(d.total, d.counted),
  close_opening_required: () => MSG.closeOpeningRequired,
  close_opening_differs: (d) => MSG.closeOpeningDiffers(d.from, d.counted, d.opening),
  close_range_too_long: (d) => MSG.closeRangeTooLong(d.limit),
  day_already_closed: (d) => MSG.dayAlreadyClosed(d.store, d.date, d.by, d.at),
  day_not_closed: (d) => MSG.dayNotClosed(d.store, d.date),
  day_closed_locked: (d) => MSG.dayClosedLocked(d.store, d.date),
  file_exists: (d) => MSG.fileExists(d.path),
  backup_dir_missing: (d) => MSG.backupDirMissing(d.path),
  backup_not_found: (d) => MSG.backupNotFound(d.path),
  database_dir_missing: (d) => MSG.databaseDirMissing(d.path),
  database_in_use: () => MSG.databaseInUse,
  backup_not_sqlite: (d) => MSG.backupNotSqlite(d.path),
  backup_unreadable: (d) => MSG.backupUnreadable(d.reason),
  backup_integrity: (d) => MSG.backupIntegrity(d.problems),
  backup_not_remit: (d) => MSG.backupNotRemit(d.tables),
  backup_newer: (d) => MSG.backupNewer(d.migrations),
  backup_not_backup: (d) => MSG.backupNotBackup(d.path),
  backup_format_newer: (d) => MSG.backupFormatNewer(d.version),
  backup_header_invalid: () => MSG.backupHeaderInvalid,
  backup_truncated: () => MSG.backupTruncated,
  backup_damaged: () => MSG.backupDamaged,
  backup_checksum: () => MSG.backupChecksum,
  backup_tampered: () => MSG.backupTampered,
  backup_too_large: (d) => MSG.backupTooLarge(d.limit_mb),
  backup_odd_schema: (d) => MSG.backupOddSchema(d.tables),
  backup_bad_rows: (d) => MSG.backupBadRows(d.table, d.column),
  backup_disk_full: (d) => MSG.backupDiskFull(d.path, d.need_mb, d.free_mb),
  backup_name_invalid: (d) => MSG.backupNameInvalid(d.name),
  backup_file_not_found: (d) => MSG.backupFileNotFound(d.name),
  backup_keep_days_invalid: (d) => MSG.backupKeepDaysInvalid(d.min, d.max),
  backup_keep_days_from_env: (d) => MSG.backupKeepDaysFromEnv(d.days),
  backups_not_configured: () => MSG.backupsNotConfigured,
  backup_all_stores_required: () => MSG.backupAllStoresRequired,
  restore_confirm_required: (d) => MSG.restoreConfirmRequired(d.word),
  restore_in_progress: () => MSG.restoreInProgress,
  not_found_route: () => MSG.notFoundRoute,
  method_not_allowed: () => MSG.methodNotAllowed,
  bad_request: () => MSG.badRequest,
  malformed_json: () => MSG.malformedJson,
  body_too_large: () => MSG.bodyTooLarge,
  json_too_deep: (d) => MSG.jsonTooDeep(d.limit),
  unsupported_media_type: () => MSG.unsupportedMediaType,
  unsupported_file_type: () => MSG.unsupportedFileType,
  nul_character: () => MSG.nulCharacter,
  cross_site_refused: () => MSG.crossSiteRefused,
  database_busy: () => MSG.databaseBusy,
  internal_error: () => MSG.internalError,
};

/** The one place codes become text; a place comes first: `第 N 行：`, `第 N 筆：` or the statement's file name. */
export function errorMessage<C extends ErrorCode>(code: C, details: ErrorDetails<C>): string {
  const text = errorText(code, details);
  if (details.file !== undefined)
    return details.row === undefined
      ? MSG.statementFileError(details.file, text)
      : MSG.statementRowError(details.file, details.row, text);
  if (details.row !== undefined) return MSG.rowError(details.row, text);
  if (details.item !== undefined) return MSG.rowPrefix(details.item) + text;
  return text;
}

/** An error's sentence without its place (no 第 N 行：), for a screen that shows the place itself. */
export function errorText<C extends ErrorCode>(code: C, details: ErrorDetails<C>): string {
  return (ERROR_TEXTS[code] as (d: ErrorDetails<C>) => string)(details);
}

/** Every error code, as a list (the API documentation and the tests walk it). */
export const ERROR_CODES = Object.keys(ERROR_TEXTS) as ErrorCode[];

/** Whether a text names a known error code (for clients reading `code` from an answer). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_TEXTS, code);
}
