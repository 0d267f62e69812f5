// The public report page's words; the server's messages come with its answers.
import { MSG, NOTE_MAX_LENGTH } from '../../../core/browser.js';

export const REPORT_TEXT = {
  title: '匯款回報',
  intro: '轉帳完成後，請填寫以下資料，門市核對入帳後即完成。',
  lastFive: '帳號後五碼',
  lastFiveHint: '（轉出帳號的最後五位數字）',
  paidAt: '匯款時間',
  amount: '匯款金額',
  amountHint: '（新台幣元）',
  note: '備註',
  optional: '（選填）',
  trap: '請勿填寫此欄',
  submit: '送出回報',
  sending: '送出中…',
  sendAnyway: '仍要送出',
  timeQuestionTitle: '請確認匯款時間',
  changeTime: '修改時間',
  cancel: '取消',
  fixFields: '請修正標示的欄位後再送出',
  networkError: '目前無法連線，請稍後再試',
  /** a second press with the same values is the same attempt (its key) */
  timedOut:
    '伺服器沒有回應，無法確定是否已送出。您填寫的資料都還在，請再按一次「送出回報」；若剛才其實已送達，會直接顯示原本的追蹤編號，不會重複記錄。',
  noteCount: (n: number) => `${n}/${NOTE_MAX_LENGTH} 字元`,
  /** too many reads from one address (a shop's shared Wi-Fi): the link itself still works */
  busyTitle: '使用人數過多',
  busy: (seconds: number | null) => (seconds ? MSG.publicBusy(seconds) : '使用人數過多，請稍後再試'),
  unavailableTitle: '暫時無法開啟',
  anotherReport: '再回報一筆',
  doneTitle: '已收到您的回報',
  doneText: '門市核對入帳後，狀態會改為「已入帳」。',
  trackingLabel: '追蹤編號',
  statusLink: '查看處理狀態',
  keepLink: '請保留此頁或上方連結，之後可以隨時查看處理狀態。',
  statusTitle: '匯款處理狀態',
  status: '狀態',
  trackingNotFound: '查無這個追蹤編號，請確認網址是否完整',
  linkGoneTitle: '連結已失效',
  linkGone: '連結已失效，請向門市索取新的連結',
  statusMeaning: {
    未確認: '門市尚未核對這筆匯款，請稍後再查看。',
    已入帳: '門市已確認收到這筆匯款。',
    未入帳: '門市查無這筆入帳，請與門市聯絡。',
  } as Record<string, string>,
} as const;
