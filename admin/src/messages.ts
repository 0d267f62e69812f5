/**
 * Every Traditional Chinese text of the browser side that the spec fixes, in one place, so it
 * can be checked against ../shared/spec.md. Rule messages shared with the server come from
 * core/messages.ts instead.
 */
export const UI = {
  unknownUser: '未知',
  // Payment form screen (spec section 2)
  lastFive: '帳號後五碼',
  paidAt: '匯款時間',
  amount: '匯款金額',
  chooseStore: '選擇分店',
  note: '備註',
  locked: '已鎖定',
  branchHint: '您是分店員工，只能提交本分店的匯款資料',
  submit: '提交匯款資訊',
  submitting: '提交中...',
  toAdmin: '後台管理',
  logout: '登出',
  notePlaceholder: '選填',
  // Spec section 8
  submitSuccess: (uuid: string) => `匯款資訊已成功提交！追蹤編號：${uuid}`,
  validationError: (messages: string[]) => `驗證錯誤：${messages.join('，')}`,
  submitFailed: '提交失敗，請稍後再試',
  loginFailed: '登入失敗，請檢查用戶名和密碼',
  userSaveFailed: '保存失敗，請稍後再試',
  deleteFailed: (detail?: string) => `刪除失敗：${detail || '請稍後再試'}`,
  passwordChanged: '密碼更改成功！',
  passwordChangeFailed: '更改密碼失敗，請稍後再試',
  importSuccess: (n: number) => `成功匯入 ${n} 筆記錄`,
  importSuccessTitle: '匯入成功',
  importFailed: '匯入失敗',
  importFailedTitle: '匯入失敗',
  parseFailed: '檔案解析失敗，請確認檔案格式正確',
  readFailed: '讀取檔案失敗',
  noDataToExport: '沒有資料可匯出',
  // Login screen
  username: '用戶名',
  password: '密碼',
  login: '登入',
  loggingIn: '登入中...',
  // Statuses, roles, misc (spec sections 2 and 3)
  noNote: '無備註',
  noSpecialPermissions: '無特殊權限',
  noStoreAccess: '無分店權限',
  active: '啟用',
  inactive: '停用',
  noMembers: '暫無會員記錄',
  forbiddenTitle: '權限不足',
  forbiddenPayments: '您沒有查看匯款記錄的權限',
  cannotDeleteSelf: '無法刪除自己的帳戶',
  cannotDeleteAdmin: '權限不足：無法刪除管理員帳戶',
  unknownStore: '未知分店',
} as const;
