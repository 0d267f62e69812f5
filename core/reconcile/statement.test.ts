import iconv from 'iconv-lite';
import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { parseInstant } from '../time.js';
import { readStatement, visibleDigits } from './statement.js';

const big5 = (rows: string[]) => new Uint8Array(iconv.encode(rows.join('\r\n') + '\r\n', 'big5'));
const utf8 = (rows: string[], bom = false) => new TextEncoder().encode((bom ? '\uFEFF' : '') + rows.join('\n') + '\n');
const t = (s: string) => parseInstant(s)!;

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).errors[0].message;
  }
  throw new Error('did not throw');
}

function sheet(rows: unknown[][], bookType: 'xlsx' | 'biff8'): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), '交易明細');
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType }) as ArrayBuffer);
}

describe('readStatement: the banks’ shapes', () => {
  it('中國信託 (Big5, two title rows, 支出/存入 with 0 on the unused side, two note columns, masked counterparty)', () => {
    const s = readStatement(
      big5([
        '中國信託商業銀行 存款交易明細',
        '帳號：123-456789-012,查詢期間：2026/11/01~2026/11/30',
        '日期,摘要,支出,存入,結餘,備註,轉出入帳號,註記',
        '2026/11/05,跨行轉入,0,"1,500","11,500",王小明,900047****7012,訂金',
        '2026/11/06,提款,200,0,"11,300",,,',
      ]),
      '中信_202611.csv',
    );
    expect(s.encoding).toBe('big5');
    expect(s.headerRow).toBe(3);
    expect(s.columns).toMatchObject({
      date: '日期',
      summary: '摘要',
      debit: '支出',
      credit: '存入',
      balance: '結餘',
      note: '備註、註記',
      counterparty: '轉出入帳號',
    });
    expect(s.lines).toEqual([
      {
        row: 4,
        at: t('2026-11-05'),
        hasTime: false,
        amount: 1500,
        balance: 11500,
        summary: '跨行轉入',
        note: '王小明 訂金',
        counterparty: '900047****7012',
        digits: '7012',
        payer: '900047****7012',
      },
      {
        row: 5,
        at: t('2026-11-06'),
        hasTime: false,
        amount: -200,
        balance: 11300,
        summary: '提款',
        note: '',
        counterparty: '',
        digits: '',
        payer: '',
      },
    ]);
    expect(s).toMatchObject({ credits: 1, from: '2026-11-05', to: '2026-11-06', balance_breaks: 0 });
  });

  it('中國信託 newer: 交易日期 with 交易時間 counts over 帳務日期 a day later', () => {
    const s = readStatement(
      utf8(
        [
          '帳務日期,交易日期,交易時間,摘要,支出金額,存入金額,即時餘額,附註',
          '2026/11/06,2026/11/05,23:41:10,轉帳存入,0,2000,5000,0008 000077720XXXX736',
        ],
        true,
      ),
      'ctbc.csv',
    );
    expect(s.encoding).toBe('utf-8');
    expect(s.columns).toMatchObject({ date: '交易日期', posting: '帳務日期', time: '交易時間', credit: '存入金額' });
    expect(s.lines[0]).toMatchObject({
      row: 2,
      at: t('2026-11-05 23:41:10'),
      hasTime: true,
      amount: 2000,
      note: '0008 000077720XXXX736',
    });
  });

  it('國泰世華 (Big5, YYYYMMDD and HHMMSS in separate columns, 轉出/轉入, 帳號)', () => {
    const s = readStatement(
      big5([
        '國泰世華銀行 交易明細查詢',
        '交易日期,交易時間,轉出,轉入,餘額,說明,帳號,備註',
        '20261105,140322,,1500,9500,ATM轉帳,0130000123412345,',
        '20261105,150000,500,,9000,提款,,',
      ]),
      'cathay.csv',
    );
    expect(s.lines.map((l) => [l.row, l.at, l.amount, l.digits])).toEqual([
      [3, t('2026-11-05 14:03:22'), 1500, '12345'],
      [4, t('2026-11-05 15:00:00'), -500, ''],
    ]);
  });

  it('中華郵政 (ROC date-time in one column, ="…" cells, two footer rows)', () => {
    const s = readStatement(
      big5([
        '交易日期,摘要,支出,存入,餘額,備註',
        '="113/11/05 14:03:22",="跨行存入",="",="1,500",="0001234500",="0001234"',
        '="113/11/06 09:00:00",="提款",="300",="",="0001234200",=""',
        '合計,,300,1500,,',
        '以上資料僅供參考,,,,,',
      ]),
      'post.csv',
    );
    expect(s.lines).toHaveLength(2);
    expect(s.lines[0]).toMatchObject({
      row: 2,
      at: t('2024-11-05 14:03:22'),
      hasTime: true,
      amount: 1500,
      balance: 1234500,
      summary: '跨行存入',
      note: '0001234',
    });
    expect(s.balance_breaks).toBe(0);
  });

  it('玉山 (combined 交易日期 時間, 提/存, counterparty with bank code)', () => {
    const s = readStatement(
      utf8([
        '交易日期 時間,摘要,提,存,帳戶餘額,存摺備註 對方銀行代碼/帳號,轉帳留言',
        '2026-11-05 18:05:16,跨行轉帳,,"1,000",3000,822/****1234567,貨款 A12',
        '2026-11-05 19:00:00,跨行轉帳,,800,3800,王大同,',
      ]),
      'esun.csv',
    );
    expect(s.columns).toMatchObject({
      date: '交易日期 時間',
      debit: '提',
      credit: '存',
      counterparty: '存摺備註 對方銀行代碼/帳號',
      note: '轉帳留言',
    });
    expect(s.lines.map((l) => [l.at, l.amount, l.counterparty, l.digits, l.note])).toEqual([
      [t('2026-11-05 18:05:16'), 1000, '822/****1234567', '34567', '貨款 A12'],
      [t('2026-11-05 19:00:00'), 800, '王大同', '', ''],
    ]);
  });

  it('台北富邦 (交易時間 holds the whole ROC date-time; 帳務日期 only a date)', () => {
    const s = readStatement(
      utf8([
        '帳務日期,交易時間,摘要,支出金額,存入金額,即時餘額,附註',
        '115/05/16,115/05/16 08:30:00,轉入,0,1200,2200,',
      ]),
      'fubon.csv',
    );
    expect(s.lines[0]).toMatchObject({ at: t('2026-05-16 08:30:00'), hasTime: true, amount: 1200 });
  });

  it('永豐 (交易日 with HH:MM) and Richart (one signed 金額 column with $)', () => {
    const sino = readStatement(
      utf8(['交易日,計息日,摘要,支出,存入,餘額,匯率,備註', '2026/11/05 10:15,2026/11/05,存入,,600,600,,']),
      'sinopac.csv',
    );
    expect(sino.lines[0]).toMatchObject({ at: t('2026-11-05 10:15'), amount: 600 });
    const richart = readStatement(
      utf8(['交易日期,摘要,金額,餘額,備註', '2026/11/05,轉出,"-$1,234",766,', '2026/11/06,轉入,"$1,500",2266,']),
      'richart.csv',
    );
    expect(richart.lines.map((l) => l.amount)).toEqual([-1234, 1500]);
    expect(richart.credits).toBe(1);
  });

  it('ROC compact dates (1151105) and newest-first statements check the balance backwards', () => {
    const s = readStatement(
      utf8(['日期,摘要,支出,存入,餘額', '1151106,提款,100,,900', '1151105,存入,,1000,1000']),
      'roc.csv',
    );
    expect(s.lines.map((l) => l.at)).toEqual([t('2026-11-06'), t('2026-11-05')]);
    expect(s.balance_breaks).toBe(0);
  });

  it('reports running-balance breaks: a missing row', () => {
    const s = readStatement(
      utf8([
        '日期,摘要,支出,存入,餘額',
        '2026/11/05,存入,,1000,1000',
        '2026/11/06,存入,,500,1500',
        '2026/11/07,存入,,200,1900',
      ]),
      'gap.csv',
    );
    expect(s.balance_breaks).toBe(1);
    expect(s.breakRows).toEqual([4]);
  });

  it('.xlsx and .xls with real date cells and a title row', () => {
    const rows = [
      ['玉山銀行 交易明細'],
      ['交易日期', '交易時間', '摘要', '支出', '存入', '餘額', '對方帳號'],
      [new Date(Date.UTC(2026, 10, 5)), '14:03:22', '轉入', 0, 1500, 1500, '****12345'],
    ];
    for (const [bookType, encoding] of [
      ['xlsx', 'xlsx'],
      ['biff8', 'xls'],
    ] as const) {
      const s = readStatement(sheet(rows, bookType), `bank.${encoding}`);
      expect(s.encoding).toBe(encoding);
      expect(s.lines).toEqual([
        {
          row: 3,
          at: t('2026-11-05 14:03:22'),
          hasTime: true,
          amount: 1500,
          balance: 1500,
          summary: '轉入',
          note: '',
          counterparty: '****12345',
          digits: '12345',
          payer: '****12345',
        },
      ]);
    }
  });
});

describe('readStatement: bad input names the file and the row', () => {
  it('no header among the first 20 rows', () => {
    expect(messageOf(() => readStatement(utf8(['a,b,c', '1,2,3']), 'x.csv'))).toBe(
      'x.csv：前 20 行找不到標題列（需要日期欄，如「交易日期」，以及金額欄，如「存入」或「金額」）',
    );
  });
  it('an unreadable date, time or amount', () => {
    expect(messageOf(() => readStatement(utf8(['日期,存入', '2026/11/05,100', '2026/13/40,100']), 'x.csv'))).toBe(
      'x.csv 第 3 行：無法辨識的日期「2026/13/40」',
    );
    expect(messageOf(() => readStatement(utf8(['日期,時間,存入', '2026/11/05,25:00,100']), 'x.csv'))).toBe(
      'x.csv 第 2 行：無法辨識的時間「25:00」',
    );
    expect(messageOf(() => readStatement(utf8(['日期,存入', '2026/11/05,一百']), 'x.csv'))).toBe(
      'x.csv 第 2 行：「存入」欄無法辨識的金額「一百」',
    );
    expect(messageOf(() => readStatement(utf8(['日期,存入,支出', '2026/11/05,100,50']), 'x.csv'))).toBe(
      'x.csv 第 2 行：同一行同時有存入與支出金額',
    );
  });
  it('empty files, files without lines, and files that are not statements', () => {
    expect(messageOf(() => readStatement(new Uint8Array(), 'x.csv'))).toBe('x.csv：檔案是空的');
    expect(messageOf(() => readStatement(utf8(['日期,存入', '合計,0']), 'x.csv'))).toBe('x.csv：檔案中沒有交易明細');
    expect(messageOf(() => readStatement(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0]), 'x.xlsx'))).toBe(
      'x.xlsx：檔案解析失敗，請確認檔案格式正確',
    );
    expect(messageOf(() => readStatement(new Uint8Array([1, 0, 2, 0]), 'x.pdf'))).toBe(
      'x.pdf：不支援的檔案類型：請選擇 .csv、.xls 或 .xlsx 檔案',
    );
    expect(messageOf(() => readStatement(new Uint8Array(1024 * 1024 + 1), 'x.csv', { maxBytes: 1024 * 1024 }))).toBe(
      'x.csv：檔案過大：上限為 1 MB',
    );
  });
});

describe('visibleDigits', () => {
  it('keeps the trailing visible digits, never more than five, and nothing for a name', () => {
    expect(visibleDigits('900047****7012')).toBe('7012');
    expect(visibleDigits('0008 000077720XXXX736')).toBe('736');
    expect(visibleDigits('＊＊＊＊12345')).toBe('12345');
    expect(visibleDigits('0130000123412345')).toBe('12345');
    expect(visibleDigits('王小明')).toBe('');
    expect(visibleDigits('')).toBe('');
  });
});

describe('readStatement: the payer’s account wherever the bank writes it', () => {
  it('takes masked or whole accounts from 備註, 附註, 摘要 or 轉帳留言 when there is no counterparty column', () => {
    const s = readStatement(
      utf8([
        '交易日期,摘要,支出,存入,餘額,備註',
        '2026/11/05,跨行轉入,,1500,1500,***12345',
        '2026/11/05,跨行轉入,,1600,3100,822-****-12345',
        '2026/11/05,轉帳存入,,1700,4800,0008 000077720XXXX736',
        '2026/11/05,跨行轉入 ***54321,,1800,6600,',
        '2026/11/05,ATM轉入 0081234567890123,,1900,8500,',
        '2026/11/05,跨行轉入,,2000,10500,王小明',
        '2026/11/05,跨行轉入,,2100,12600,訂單 20261105001 電話 0912345678',
      ]),
      'notes.csv',
    );
    expect(s.lines.map((l) => [l.digits, l.payer])).toEqual([
      ['12345', '***12345'],
      ['12345', '822****12345'],
      ['736', '0008000077720****736'],
      ['54321', '***54321'],
      ['90123', '81234567890123'],
      ['', '王小明'],
      ['', ''],
    ]);
    const esun = readStatement(
      utf8(['交易日期,摘要,存,轉帳留言', '2026/11/05,跨行轉帳,800,***12345 貨款']),
      'esun.csv',
    );
    expect(esun.lines[0]).toMatchObject({ digits: '12345', payer: '***12345', note: '***12345 貨款' });
  });

  it('the counterparty column wins when it shows digits', () => {
    const s = readStatement(
      utf8(['交易日期,存入,對方帳號,備註', '2026/11/05,1500,****11111,***22222', '2026/11/05,1500,,***22222']),
      'cp.csv',
    );
    expect(s.lines.map((l) => l.digits)).toEqual(['11111', '22222']);
  });
});

describe('readStatement: rows that are not transactions', () => {
  it('skips 資料筆數, 合計, 小計, 總計, disclaimers, blank rows and a repeated header above, between and under the data, and counts them', () => {
    const s = readStatement(
      utf8([
        '玉山銀行 存款交易明細',
        '帳號：0123-456-789012',
        '交易日期,摘要,支出,存入,餘額,備註',
        '資料筆數：3,,,,,',
        '2026/11/05,跨行轉入,,1500,1500,***12345',
        '小計,,0,1500,,',
        ',,,,,',
        '交易日期,摘要,支出,存入,餘額,備註',
        '2026/11/06,跨行轉入,,500,2000,',
        '2026/11/07,提款,100,,1900,',
        '2026/11/07 小計,,100,500,,',
        '合計,,,0,"54,321",',
        '總計,,100,2000,,',
        '資料筆數：40,,,,,',
        '以上資料僅供參考,,,,,',
        '資料截至 2026/11/30 23:59,,,,,',
        '',
      ]),
      'footers.csv',
    );
    expect(s.lines.map((l) => l.row)).toEqual([5, 9, 10]);
    expect(s.skipped).toBe(9);
    expect(s.account).toBe('0123-456-789012');
    expect(s.balance_breaks).toBe(0);
  });

  it('the issue’s file: 資料筆數：40 and 合計,,,0,"54,321" under the data', () => {
    const s = readStatement(
      utf8([
        '日期,摘要,支出,存入,餘額,備註',
        '2026/11/05,跨行轉入,,1500,1500,***12345',
        '資料筆數：40',
        '合計,,,0,"54,321"',
      ]),
      'issue.csv',
    );
    expect(s).toMatchObject({ skipped: 2, account: null, credits: 1 });
  });

  it('reads the account of a title row however it is written', () => {
    const read = (title: string) => readStatement(utf8([title, '日期,存入', '2026/11/05,100']), 't.csv').account;
    expect(read('帳號：0123-456-789012')).toBe('0123-456-789012');
    expect(read('帳號,0123456789012')).toBe('0123456789012');
    expect(read('存款帳號：123-456789-012 戶名：王小明')).toBe('123-456789-012');
    expect(read('"帳號:","0123 456 789012"')).toBe('0123456789012');
    expect(read('帳號,')).toBeNull();
    expect(read('中國信託 存款交易明細')).toBeNull();
  });

  it('still refuses a row that looks like a transaction, with its row number', () => {
    expect(
      messageOf(() => readStatement(utf8(['日期,存入', '2026/11/05,100', '合計,100', '2026/13/40,100']), 'x.csv')),
    ).toBe('x.csv 第 4 行：無法辨識的日期「2026/13/40」');
    expect(messageOf(() => readStatement(utf8(['日期,存入', '2026/11/05,100', '1151345,100']), 'x.csv'))).toBe(
      'x.csv 第 3 行：無法辨識的日期「1151345」',
    );
    expect(
      messageOf(() => readStatement(utf8(['日期,時間,存入', '2026/11/05,10:00,100', ',14:03:22,100']), 'x.csv')),
    ).toBe('x.csv 第 3 行：日期不能為空');
    expect(messageOf(() => readStatement(utf8(['日期,存入', '2026/11/05,100', '2026/11/06,一百']), 'x.csv'))).toBe(
      'x.csv 第 3 行：「存入」欄無法辨識的金額「一百」',
    );
  });

  it('a file of summary rows only has no lines', () => {
    expect(messageOf(() => readStatement(utf8(['日期,存入', '資料筆數：0', '合計,0']), 'x.csv'))).toBe(
      'x.csv：檔案中沒有交易明細',
    );
  });
});

describe('readStatement: spreadsheet cells that are no value', () => {
  it('refuses a transaction whose amount is an error cell (#NAME?), rather than reading it as empty', () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['交易日期', '存入'],
      ['2026/11/05', 100],
      ['2026/11/06', 0],
    ]);
    ws['B3'] = { t: 'e', v: 0x1d, w: '#NAME?' };
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, '交易明細');
    const bytes = new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
    expect(messageOf(() => readStatement(bytes, 'err.xlsx'))).toBe(
      'err.xlsx 第 3 行：「存入」欄無法辨識的金額「#NAME?」',
    );
  });

  it('reads 1151121 and 20261121 typed as numbers as dates', () => {
    const s = readStatement(
      sheet(
        [
          ['交易日期', '存入'],
          [1151121, 100],
          [20261122, 200],
        ],
        'xlsx',
      ),
      'n.xlsx',
    );
    expect(s.lines.map((l) => l.at)).toEqual([t('2026-11-21'), t('2026-11-22')]);
  });
});
