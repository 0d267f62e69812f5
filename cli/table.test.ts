import { describe, expect, it } from 'vitest';
import { clean, displayWidth, renderPairs, renderTable } from './table.js';

describe('displayWidth', () => {
  it('counts CJK and fullwidth characters as two columns, ASCII as one', () => {
    expect(displayWidth('TPE')).toBe(3);
    expect(displayWidth('台北店')).toBe(6);
    expect(displayWidth('台北店 (TPE)')).toBe(12);
    expect(displayWidth('會員管理、分店管理')).toBe(18);
    expect(displayWidth('（）')).toBe(4);
    expect(displayWidth('NT$1,234')).toBe(8);
    expect(displayWidth('')).toBe(0);
  });
});

describe('renderTable', () => {
  it('pads by display width, right-aligns the asked columns, and leaves no trailing spaces', () => {
    const out = renderTable(
      ['分店代碼', '分店名稱', '筆數'],
      [
        ['TPE', '台北店', 3],
        ['KHH', '高雄旗艦店', 12],
      ],
      { right: [2] },
    );
    expect(out).toBe(
      [
        '分店代碼  分店名稱    筆數',
        '--------  ----------  ----',
        'TPE       台北店         3',
        'KHH       高雄旗艦店    12',
        '',
      ].join('\n'),
    );
    for (const line of out.split('\n')) expect(line).toBe(line.trimEnd());
  });

  it('keeps control characters in data from breaking the layout or the terminal', () => {
    expect(clean('a\nb\u001b[31m')).toBe('a b [31m');
    expect(renderTable(['名稱'], [['x\ny']]).split('\n')).toHaveLength(4);
  });
});

describe('renderPairs', () => {
  it('lines values up after labels of different widths', () => {
    expect(
      renderPairs([
        ['總分店數', 2],
        ['總金額', 'NT$0'],
      ]),
    ).toBe('總分店數  2\n總金額    NT$0\n');
  });
});
