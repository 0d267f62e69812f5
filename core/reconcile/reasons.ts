/** Why the matcher proposes a pair or a group, as codes: the matcher holds no words, reasonText says them. */
import { DAY_MS } from '../time.js';

export type Reason =
  | { code: 'amount' }
  /** `visible`: how many digits the line shows (masked accounts show 3 to 5) */
  | { code: 'digits_equal'; visible: number }
  | { code: 'digits_typo'; visible: number; kind: 'one' | 'swap' }
  | { code: 'digits_different'; visible: number }
  | { code: 'no_account' }
  /** the credit's Taiwan day less the report's */
  | { code: 'day_gap'; days: number }
  | { code: 'time_gap'; ms: number }
  | { code: 'note' }
  | { code: 'payer_memory_same' }
  | { code: 'payer_memory_other'; fives: string[] }
  | { code: 'payer_name_same' }
  | { code: 'payer_name_other'; fives: string[] }
  | { code: 'settled'; by: 'payer' | 'alone' }
  | { code: 'reports_sum'; count: number }
  | { code: 'credits_sum'; count: number }
  | { code: 'same_last_five' }
  | { code: 'shows_last_five' }
  | { code: 'no_account_close' };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** 後五碼 when all five show, else how many do. */
const named = (visible: number) => (visible >= 5 ? '後五碼' : `可見後 ${visible} 碼`);

export function reasonText(r: Reason): string {
  switch (r.code) {
    case 'amount':
      return '金額相符';
    case 'digits_equal':
      return `${named(r.visible)}相符`;
    case 'digits_typo':
      return `${named(r.visible)}可能打錯（${r.kind === 'one' ? '1 碼不同' : '相鄰兩碼對調'}）`;
    case 'digits_different':
      return `${named(r.visible)}不符`;
    case 'no_account':
      return '無帳號資訊';
    case 'day_gap':
      if (r.days === 0) return '同一天入帳（對帳單無時間）';
      return r.days > 0 ? `隔 ${r.days} 天入帳（對帳單無時間）` : `入帳日早 ${-r.days} 天（對帳單無時間）`;
    case 'time_gap':
      if (r.ms < HOUR) return `時間相差 ${Math.round(r.ms / MINUTE)} 分鐘`;
      return r.ms < DAY_MS ? `時間相差 ${Math.round(r.ms / HOUR)} 小時` : `時間相差 ${Math.round(r.ms / DAY_MS)} 天`;
    case 'note':
      return '備註相符';
    case 'payer_memory_same':
      return '付款人記錄相符';
    case 'payer_memory_other':
      return `付款人記錄的後五碼為 ${r.fives.join('、')}`;
    case 'payer_name_same':
      return '同名付款人本月入帳的後五碼相符';
    case 'payer_name_other':
      return `同名付款人本月入帳的後五碼為 ${r.fives.join('、')}`;
    case 'settled':
      return r.by === 'payer' ? '付款人記錄只有這個後五碼' : '入帳時間範圍內唯一同金額的入帳與回報';
    case 'reports_sum':
      return `${r.count} 筆回報合計金額相符`;
    case 'credits_sum':
      return `${r.count} 筆入帳合計金額相符`;
    case 'same_last_five':
      return '後五碼相同';
    case 'shows_last_five':
      return '後五碼相符';
    case 'no_account_close':
      return '入帳無帳號資訊，時間相近';
  }
}
