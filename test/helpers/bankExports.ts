/**
 * An accountant's month of bank exports, in their shapes, as the banks (and
 * LibreOffice, re-saving one) write them; and the reports the shop staff sent for the same days.
 * Used by the browser walk-through and the CLI test: the same files give the same statuses.
 *
 *   file                      shape                                                     its credits
 *   中信_存款交易明細.csv       Big5, two title rows, 日期 only, 支出/存入 with 0, 轉出入帳號   1 200 (auto)
 *   國泰世華_交易明細.csv       Big5, one title row, YYYYMMDD + HHMMSS, 轉出/轉入, 帳號        2 500 (auto), 2 000 ×2 (twins: review)
 *   郵局_交易明細.csv          Big5, ROC date-time in one cell, ="…" cells, two footer rows   1 500 (auto)
 *   玉山_交易明細.csv          UTF-8 with BOM, 交易日期 時間 combined, 提/存, bank code       800 (a typo in the report: review)
 *   Richart_交易明細.csv       UTF-8, one signed 金額 column ($, -$)                         33 interest (unreported)
 *   富邦_交易明細.xlsx         台北富邦 CSV saved by LibreOffice as .xlsx, ROC dates            650 (auto)
 *   永豐_交易明細.xls          永豐 CSV saved by LibreOffice as .xls, 交易日 YYYY/MM/DD HH:MM   350 (auto)
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';

const big5 = (rows: string[]) => iconv.encode(rows.join('\r\n') + '\r\n', 'big5');
const utf8 = (rows: string[], bom = false) => Buffer.from((bom ? '\uFEFF' : '') + rows.join('\n') + '\n', 'utf8');

/** The reports the shop sent (store-independent; the caller files them under a store). */
export const REPORTS = {
  ctbc: { last_five: '71234', paid_at: '2026-11-02T11:00+08:00', amount: 1200 },
  cathay: { last_five: '82345', paid_at: '2026-11-03T10:14+08:00', amount: 2500 },
  twinA: { last_five: '24680', paid_at: '2026-11-03T15:00+08:00', amount: 2000 },
  twinB: { last_five: '24680', paid_at: '2026-11-03T15:04+08:00', amount: 2000 },
  post: { last_five: '12399', paid_at: '2026-11-04T14:03+08:00', amount: 1500 },
  typo: { last_five: '34568', paid_at: '2026-11-05T18:05+08:00', amount: 800 },
  fubon: { last_five: '11111', paid_at: '2026-11-07T09:29+08:00', amount: 650 },
  sinopac: { last_five: '22222', paid_at: '2026-11-08T10:14+08:00', amount: 350 },
} as const;
export type ReportName = keyof typeof REPORTS;
/** the reports the matcher confirms on its own */
export const AUTO: ReportName[] = ['ctbc', 'cathay', 'post', 'fubon', 'sinopac'];

/** Writes the exports into `dir`; answers their paths in the order above. LibreOffice (`soffice`) writes the .xlsx and .xls. */
export function writeBankExports(dir: string): string[] {
  const files: Array<[string, Buffer]> = [
    [
      '中信_存款交易明細.csv',
      big5([
        '中國信託商業銀行 存款交易明細',
        '帳號：123-456789-012,查詢期間：2026/11/01~2026/11/30',
        '日期,摘要,支出,存入,結餘,備註,轉出入帳號,註記',
        '2026/11/01,提款,500,0,"9,500",,,',
        '2026/11/02,跨行轉入,0,"1,200","10,700",,900047****71234,',
      ]),
    ],
    [
      '國泰世華_交易明細.csv',
      big5([
        '國泰世華銀行 交易明細查詢',
        '交易日期,交易時間,轉出,轉入,餘額,說明,帳號,備註',
        '20261103,101500,,2500,7500,跨行轉入,0130000123482345,',
        '20261103,150600,,2000,9500,跨行轉入,0081234524680,',
        '20261103,150700,,2000,11500,跨行轉入,0081234524680,',
      ]),
    ],
    [
      '郵局_交易明細.csv',
      big5([
        '交易日期,摘要,支出,存入,餘額,備註',
        '="115/11/04 09:00:00",="提款",="300",="",="0001200",=""',
        '="115/11/04 14:04:10",="現金存款",="",="1,500",="0002700",=""',
        '合計,,300,1500,,',
        '以上資料僅供參考,,,,,',
      ]),
    ],
    [
      '玉山_交易明細.csv',
      utf8(
        [
          '交易日期 時間,摘要,提,存,帳戶餘額,存摺備註 對方銀行代碼/帳號,轉帳留言',
          '2026-11-05 18:06:16,跨行轉帳,,800,3800,822/****1234567,',
        ],
        true,
      ),
    ],
    [
      'Richart_交易明細.csv',
      utf8(['交易日期,摘要,金額,餘額,備註', '2026/11/06,轉出,"-$1,234",766,', '2026/11/06,利息,$33,799,']),
    ],
  ];
  const paths = files.map(([name, bytes]) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  });
  // The accountant opens these banks' CSVs in LibreOffice and saves them as .xlsx and .xls.
  const viaLibreOffice: Array<[string, string, string[]]> = [
    [
      '富邦_交易明細',
      'xlsx',
      ['帳務日期,交易時間,摘要,支出金額,存入金額,即時餘額,附註', '115/11/07,115/11/07 09:30:00,轉入,0,650,2650,'],
    ],
    [
      '永豐_交易明細',
      'xls',
      ['交易日,計息日,摘要,支出,存入,餘額,匯率,備註', '2026/11/08 10:15,2026/11/08,存入,,350,350,,'],
    ],
  ];
  for (const [base, ext, rows] of viaLibreOffice) {
    const csv = join(dir, `${base}.csv`);
    writeFileSync(csv, utf8(rows));
    // 44,34,76: comma-separated, double quotes, UTF-8 (what a person picks in LibreOffice's import dialog)
    execFileSync('soffice', ['--headless', '--infilter=CSV:44,34,76,1', '--convert-to', ext, '--outdir', dir, csv], {
      stdio: 'ignore',
      timeout: 180_000,
    });
    paths.push(join(dir, `${base}.${ext}`));
  }
  return paths;
}
