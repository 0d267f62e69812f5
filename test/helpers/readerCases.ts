/**
 * The shared reader's cases (core/spreadsheets): inputs every reader of tabular files must read
 * alike. core/spreadsheets/readers.test.ts runs them through the statement and the payment import
 * readers as CSV (three encodings), .xlsx and .xls; test/shared-reader-libreoffice.test.ts through
 * files LibreOffice wrote.
 */
/** [the date-time cell as written in a CSV, the amount cell as written in a CSV, Taiwan wall clock, NT$] */
export const SHARED_CASES: Array<[string, string, string, number]> = [
  ['2026/11/21 15:15', '1500', '2026-11-21 15:15', 1500],
  ['2026-11-21 15:15:30', '"1,500"', '2026-11-21 15:15:30', 1500],
  ['2026.11.21 09:05', '"NT$1,500"', '2026-11-21 09:05', 1500],
  ['2026年11月21日 下午3:15', '"$1,500"', '2026-11-21 15:15', 1500],
  ['115/11/21 下午 3:15', '="01,234"', '2026-11-21 15:15', 1234],
  ['115/11/21 上午 9:15', '="1500"', '2026-11-21 09:15', 1500],
  ['115/11/21 14:03:22', '"$1,500"', '2026-11-21 14:03:22', 1500],
  ['民國115年11月21日 15:15', '1500.00', '2026-11-21 15:15', 1500],
  ['1151121', '"1,500元"', '2026-11-21', 1500],
  ['1151121 140322', '1500', '2026-11-21 14:03:22', 1500],
  ['20261121', '1500', '2026-11-21', 1500],
  ['20261121 15:15', '1500', '2026-11-21 15:15', 1500],
  ['2026/11/21 3:15 PM', '1500', '2026-11-21 15:15', 1500],
  ['="115/11/21 15:15:00"', '="1,500"', '2026-11-21 15:15', 1500],
  ['"2026/11/21 15:15"', '"NT$ 1,500"', '2026-11-21 15:15', 1500],
];
