import { describe, expect, it } from 'vitest';
import { CsvRows, CsvTooLong, formulaText, guessSeparator, parseCsv } from './csv.js';

/** [CSV text, rows] */
const GRAMMAR: Array<[string, string[][]]> = [
  [
    'a,b,c\n1,2,3\n',
    [
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ],
  ],
  [
    'a,b\r\n1,2\r\n',
    [
      ['a', 'b'],
      ['1', '2'],
    ],
  ],
  [
    'a,b\r1,2',
    [
      ['a', 'b'],
      ['1', '2'],
    ],
  ],
  ['a,"b,c",d\n', [['a', 'b,c', 'd']]],
  ['"say ""hi""",x\n', [['say "hi"', 'x']]],
  ['"line 1\nline 2",x\n', [['line 1\nline 2', 'x']]],
  ['="01,234",x\n', [['="01,234"', 'x']]],
  ['="0001234",="",="1,500"\n', [['="0001234"', '=""', '="1,500"']]],
  ['"=""01234""",x\n', [['="01234"', 'x']]],
  [' ="01,234" ,x\n', [['="01,234" ', 'x']]],
  ['="a""b",x\n', [['="a"b"', 'x']]],
  ['a "b" c,d\n', [['a "b" c', 'd']]],
  ['a,b', [['a', 'b']]],
  [
    'a,\n,b\n',
    [
      ['a', ''],
      ['', 'b'],
    ],
  ],
  ['a\tb\t="1,2"\n', [['a', 'b', '="1,2"']]],
];

describe('the CSV grammar', () => {
  it.each(GRAMMAR)('%j', (text, rows) => {
    expect(parseCsv(text)).toEqual(rows);
  });

  it('gives the same rows however the text is cut into pieces (a file read chunk by chunk)', () => {
    for (const [text, rows] of GRAMMAR) {
      for (let cut = 0; cut <= text.length; cut++) {
        const p = new CsvRows(guessSeparator(text));
        expect([...p.push(text.slice(0, cut)), ...p.push(text.slice(cut)), ...p.end()]).toEqual(rows);
      }
      const p = new CsvRows(guessSeparator(text));
      expect([...[...text].flatMap((ch) => p.push(ch)), ...p.end()]).toEqual(rows);
    }
  });

  it('refuses a cell or a row no spreadsheet holds, when streaming', () => {
    expect(() => new CsvRows(',').push('"' + 'x'.repeat(1_000_001))).toThrow(CsvTooLong);
    expect(() => new CsvRows(',').push(','.repeat(10_001))).toThrow(CsvTooLong);
  });

  it('="…" stands for the text it shows', () => {
    expect(formulaText('="01,234"')).toBe('01,234');
    expect(formulaText('=""')).toBe('');
    expect(formulaText('=1+1')).toBe('=1+1');
    expect(formulaText('王小明')).toBe('王小明');
  });
});
