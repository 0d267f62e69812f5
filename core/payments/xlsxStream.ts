/**
 * The export workbook written as a stream (Node only): the same sheet as `buildExportWorkbook`, but each
 * row goes into a streamed zip as it arrives, so memory stays flat whatever the row count.
 */
import {
  AMOUNT_FORMAT,
  columnCells,
  DATE_FORMAT,
  DATETIME_FORMAT,
  SHEET_COLUMNS,
  SHEET_NAME,
  type CellStyle,
  type SheetColumn,
} from './columns.js';
import { storeNamer, type ExportPayment, type StoreRef } from './writeSheet.js';
import { zipStream } from '../spreadsheets/zipStream.js';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const escapeRe = /[&<>\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|_(?=x[0-9a-fA-F]{4}_)/g;
const needsEscape = new RegExp(escapeRe.source);
/**
 * Text as XML: characters XML cannot hold as Excel's `_xHHHH_`; a text that reads like such an escape
 * (`_x0041_`) gets its `_` as `_x005F_`, as Excel writes it, so a reader does not turn it into `A`.
 */
function xmlText(s: string): string {
  if (!needsEscape.test(s)) return s;
  return s.replace(escapeRe, (c) =>
    c === '&'
      ? '&amp;'
      : c === '<'
        ? '&lt;'
        : c === '>'
          ? '&gt;'
          : `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`,
  );
}

/** Styles numbered as the SheetJS export numbers them. */
const STYLE_INDEX: Record<CellStyle, number> = { date: 1, text: 2, datetime: 3, amount: 4 };
const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}"><numFmts count="2"><numFmt numFmtId="60" formatCode="${DATE_FORMAT}"/>` +
  `<numFmt numFmtId="61" formatCode="${DATETIME_FORMAT}"/></numFmts>` +
  '<fonts count="1"><font><sz val="12"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="5">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="60" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="61" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  `<xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>` +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';
if (AMOUNT_FORMAT !== '#,##0') throw new Error('amount format is built-in 3 in the streamed sheet');

const CONTENT_TYPES =
  `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>';
const ROOT_RELS =
  `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="${SHEET_NAME}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS =
  `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`;

const cols = (columns: readonly SheetColumn[]) =>
  `<cols>${columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width + 0.83203125}" customWidth="1"/>`).join('')}</cols>`;

function letter(i: number): string {
  if (i > 25) throw new Error('a payment sheet has at most 26 columns');
  return String.fromCharCode(65 + i);
}

/** Always a string value, never `<f>`, so `=HYPERLINK(...)` stays text. */
const textCell = (ref: string, s: string, style = '') =>
  s === '' ? '' : `<c r="${ref}"${style} t="str"><v>${xmlText(s)}</v></c>`;

/** One sheet's row writer, compiled to one expression from the columns (a loop over them cost 15% more). */
function rowWriter(
  columns: readonly SheetColumn[],
  storeName: (id: number) => string,
): (r: number, p: ExportPayment) => string {
  const ctx = { storeName };
  const values = columns.map((c) =>
    c.kind === 'number' ? c.cell(ctx) : columnCells(c, ctx, (v) => (v === '' ? '' : xmlText(String(v)))),
  );
  const parts = columns.map((c, i) => {
    const style = c.style ? ` s="${STYLE_INDEX[c.style]}"` : '';
    const ref = JSON.stringify(`<c r="${letter(i)}`);
    if (c.kind === 'number') return `${ref} + r + ${JSON.stringify(`"${style}><v>`)} + v[${i}](p) + '</v></c>'`;
    return `((t = v[${i}](p)) === '' ? '' : ${ref} + r + ${JSON.stringify(`"${style} t="str"><v>`)} + t + '</v></c>')`;
  });
  const make = new Function(
    'v',
    `return function row(r, p) { let t; return '<row r="' + r + '">' + ${parts.join(' + ')} + '</row>'; };`,
  );
  return make(values) as (r: number, p: ExportPayment) => string;
}

/** The sheet XML in chunks of many rows; `counted` is told the number of payments at the end. */
async function* sheetXml(
  batches: AsyncIterable<Iterable<ExportPayment>>,
  stores: readonly StoreRef[],
  counted: (n: number) => void,
): AsyncGenerator<string> {
  const columns = [...SHEET_COLUMNS];
  const row = rowWriter(columns, storeNamer(stores));
  const header = `<row r="1">${columns.map((c, i) => textCell(`${letter(i)}1`, c.header)).join('')}</row>`;
  yield `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0"/></sheetViews>${cols(columns)}<sheetData>${header}`;
  let r = 1;
  for await (const batch of batches) {
    let chunk = '';
    for (const p of batch) chunk += row(++r, p);
    yield chunk;
  }
  counted(r - 1);
  yield `</sheetData><ignoredErrors><ignoredError numberStoredAsText="1" sqref="A1:${letter(columns.length - 1)}${r}"/></ignoredErrors></worksheet>`;
}

/** The export workbook as a stream of bytes; `onCount` is told how many payments were written. */
export function streamExportWorkbook(
  batches: AsyncIterable<Iterable<ExportPayment>>,
  stores: readonly StoreRef[],
  onCount: (n: number) => void = () => {},
): AsyncGenerator<Buffer> {
  return zipStream([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: '_rels/.rels', data: ROOT_RELS },
    { name: 'xl/workbook.xml', data: WORKBOOK },
    { name: 'xl/_rels/workbook.xml.rels', data: WORKBOOK_RELS },
    { name: 'xl/styles.xml', data: STYLES },
    { name: 'xl/worksheets/sheet1.xml', data: sheetXml(batches, stores, onCount) },
  ]);
}
