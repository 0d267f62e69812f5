/**
 * Who paid, as a line shows them: an account from the counterparty column or the notes, else a
 * name. Conservative: digits read where there are none could confirm the wrong payment, so only an
 * account-shaped token counts, never an amount, a date, a phone or an order number.
 */
import { asciiDigits } from '../halfWidth.js';
import { cleanCell } from '../spreadsheets/cells.js';

const MASKS = /[*＊×✱Xx]/g;

function ascii(s: string): string {
  return asciiDigits(s).replace(/[＊×✱]/g, '*');
}

/** An account as a payer key: white space, dashes and slashes removed, every mask as `*`. */
function normalizeAccount(token: string): string {
  return ascii(token)
    .replace(/[\s\-/－]/g, '')
    .replace(MASKS, '*');
}

/** A whole account loses its leading zeros, as a spreadsheet program re-saving the statement drops them. */
export function payerKey(account: string): string {
  return /^\d+$/.test(account) ? account.replace(/^0+(?=\d)/, '') : account;
}

function trailingDigits(account: string): string {
  const m = /(\d+)$/.exec(normalizeAccount(account));
  return m ? m[1].slice(-5) : '';
}

/** A text's candidate tokens: digits and masks grouped by single spaces, dashes or slashes, not touching letters. */
const TOKEN = /(?<![A-Za-z0-9.$,#＃:])[0-9*＊×Xx](?:[0-9*＊×Xx]|[ \-/](?=[0-9*＊×Xx]))*(?![A-Za-z0-9.,:%])/g;

const isRealDate = (y: number, m: number, d: number) => {
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
};

/** Digits that read as a date (YYYYMMDD or ROC YYYMMDD), with or without a time after it. */
function startsWithDate(digits: string): boolean {
  const g = /^(19|20)(\d{2})(\d{2})(\d{2})/.exec(digits);
  if (g && isRealDate(+(g[1] + g[2]), +g[3], +g[4]) && digits.length <= 14) return true;
  const r = /^(1[01]\d)(\d{2})(\d{2})/.exec(digits);
  return Boolean(r && isRealDate(+r[1] + 1911, +r[2], +r[3]) && digits.length <= 13);
}

function isPhone(digits: string): boolean {
  return /^09\d{8}$/.test(digits) || /^8869\d{8}$/.test(digits) || /^0[2-8]\d{7,8}$/.test(digits);
}

/** Words before a number that say it is no account. */
const NOT_ACCOUNT_BEFORE =
  /(訂單|單號|編號|序號|發票|統編|電話|手機|聯絡|tel|phone|no\.?|order|#|＃|會員|客戶代號|代碼)\s*[:：]?\s*$/i;

/**
 * The first account-shaped token in a text, normalized, or null: a run with two or more masks and
 * three digits, or ten or more digits (grouped only after a bank code), never a date or a phone.
 */
export function accountIn(text: string): string | null {
  const s = ascii(cleanCell(text));
  for (const m of s.matchAll(TOKEN)) {
    const raw = m[0].replace(/[ \-/]+$/, '');
    const before = s.slice(0, m.index);
    if (NOT_ACCOUNT_BEFORE.test(before)) continue;
    // a + or ( right before digits is a phone (+886…, (02)…)
    if (/[+(（]\s*$/.test(before)) continue;
    const compact = normalizeAccount(raw);
    const digits = compact.replace(/\D/g, '');
    const masks = compact.length - digits.length;
    if (masks >= 2) {
      // a masked account: some digits must show; a mask run alone (`**`) is no account
      if (digits.length >= 3 && /^\d*\*+\d*\**\d*$/.test(compact)) return compact;
      continue;
    }
    if (masks > 0) continue;
    const groups = raw.split(/[ \-/]/);
    if (groups.length > 1) {
      // grouped: only after a bank or branch code (822-…, 0008 …), each group at least 3 digits
      if (!/^(\d{3}|0\d{3})$/.test(groups[0]) || groups.slice(1).some((g) => g.length < 3)) continue;
      if (isPhone(groups.slice(1).join(''))) continue;
    }
    if (digits.length < 10 || digits.length > 20) continue;
    if (isPhone(digits) || startsWithDate(digits)) continue;
    return compact;
  }
  return null;
}

/** Common Taiwanese surnames (single and compound): a note reads as a name only when it starts with one. */
const SURNAMES = new Set(
  (
    '陳林黃張李王吳劉蔡楊許鄭謝郭洪曾邱廖賴周徐蘇葉莊呂江何蕭羅高潘簡朱鍾游彭詹胡施沈余盧梁趙顏柯翁魏孫戴范方宋鄧杜傅侯曹薛丁卓阮馬董温溫唐藍石蔣古紀姚連馮歐程湯黃田康姜白汪鄒尤巫鐘黎涂龔嚴韓袁金童陸夏柳凌邵錢伍倪溫于譚駱熊任甘秦顧毛章史官萬俞雷粘饒張' +
    ''
  ).split(''),
);
const COMPOUND_SURNAMES = ['歐陽', '司馬', '諸葛', '上官', '張簡', '范姜', '周黃', '張廖', '徐辜'];
const BANK_WORDS = [
  '跨行',
  '轉帳',
  '轉入',
  '轉出',
  '匯款',
  '匯入',
  '存入',
  '入帳',
  '網銀',
  '網路銀行',
  '行動銀行',
  'ATM',
  'atm',
  '無摺',
  '現金',
  '存款',
  '付款',
  '貨款',
  '款項',
  '繳款',
  '支付',
  '謝謝',
  '感謝',
  '您好',
];
const anyOf = (words: string[]) => new RegExp(`(${words.join('|')})`, 'g');
const NOTE_WORDS = anyOf(BANK_WORDS);
/** 2–4 characters that start with a surname yet are words, not names. */
const NOT_NAMES = new Set([
  '利息',
  '費用',
  '方便',
  '連線',
  '周轉',
  '高鐵',
  '黃金',
  '石油',
  '金額',
  '余額',
  '江湖',
  '白天',
  '馬上',
  '温馨',
  '溫馨',
  '陳述',
  '呂宋',
  '何時',
  '何處',
  '于是',
  '章程',
  '史料',
  '萬元',
  '雷射',
  '官方',
  '任意',
  '宋體',
  '金融',
  '石門',
  '田租',
  '康健',
  '史上',
]);

/** What a bank writes in the payer column when it knows no payer: a deposit's or a channel's name, not a customer's. */
const GENERIC_WORDS = anyOf([
  ...BANK_WORDS,
  '無褶',
  '自動櫃員機',
  '櫃員機',
  '臨櫃',
  '代收',
  '代付',
  '託收',
  '票據',
  '一般',
  '其他',
  '客戶',
]);

/** A payer that is no customer in particular (現金存款, a masked name 王*明 several share): it never confirms by itself. */
export function isGenericPayer(payer: string): boolean {
  // full-width letters as half-width (ＡＴＭ is ATM)
  const text = cleanCell(payer).normalize('NFKC');
  if (/[*＊○〇ＯOＸX]/.test(text.replace(/[A-Za-z]{2,}/g, ''))) return true;
  return text.replace(GENERIC_WORDS, '').replace(/[\s\u3000\p{P}\p{S}\d]+/gu, '') === '';
}

/** A 2–4 character Chinese personal name, possibly with bank words around it; else null. */
export function nameIn(text: string): string | null {
  const rest = cleanCell(text)
    .replace(NOTE_WORDS, '')
    .replace(/[\s\u3000,，.。:：;；()（）\-_/]+/g, '');
  if (!/^[\u4e00-\u9fff]{2,4}$/.test(rest) || NOT_NAMES.has(rest)) return null;
  const compound = COMPOUND_SURNAMES.some((c) => rest.startsWith(c)) && rest.length >= 3;
  return compound || SURNAMES.has(rest[0]) ? rest : null;
}

interface Payer {
  payer: string;
  digits: string;
}

/** The payer of a line: an account (the counterparty column's first, then the texts') gives the digits; else a name. */
export function payerOf(counterparty: string, texts: readonly string[] = []): Payer {
  const cp = cleanCell(counterparty);
  if (/\d/.test(cp)) {
    // a counterparty column holds accounts: its trailing digits count even without a whole account
    const token = accountIn(cp);
    return token
      ? { payer: payerKey(token), digits: trailingDigits(token) }
      : { payer: payerKey(normalizeAccount(cp)), digits: trailingDigits(cp) };
  }
  for (const t of texts) {
    const account = t ? accountIn(t) : null;
    if (account) return { payer: payerKey(account), digits: trailingDigits(account) };
  }
  if (cp) return { payer: cp.replace(/\s+/g, ''), digits: '' };
  for (const t of texts) {
    const name = t ? nameIn(t) : null;
    if (name) return { payer: name, digits: '' };
  }
  return { payer: '', digits: '' };
}
