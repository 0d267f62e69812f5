import { describe, expect, it } from 'vitest';
import { csvCell } from './csvWrite.js';

describe('csvCell', () => {
  it('quotes a text holding ; so a semicolon-separator locale cannot split it into a formula cell', () => {
    expect(csvCell("a;=cmd|' /C calc'!A0")).toBe(`"a;'=cmd|' /C calc'!A0"`);
  });

  it('neutralises every part a separator could make a cell of, whichever separator the reader uses', () => {
    expect(csvCell('x,+1')).toBe(`"x,'+1"`);
    expect(csvCell('x\t@SUM(A1)')).toBe(`"x\t'@SUM(A1)"`);
    expect(csvCell('第一行\n-2+3')).toBe(`"第一行\n'-2+3"`);
    expect(csvCell('=1;=2')).toBe(`"'=1;'=2"`);
  });

  it('leaves plain text and numbers as they are, and doubles quotes', () => {
    expect(csvCell('台北店 (TPE)')).toBe('台北店 (TPE)');
    expect(csvCell('01234')).toBe('01234');
    expect(csvCell(1500)).toBe('1500');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(null)).toBe('');
  });
});
