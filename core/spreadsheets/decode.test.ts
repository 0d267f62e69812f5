import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ChunkDecoder, decodeText } from './decode.js';
import { sniffKind } from './sniff.js';

const TEXT = '交易日期,摘要,存入\n2026/11/05,跨行轉入 王小明,1500\n';

describe('decoding and sniffing', () => {
  const encoded: Array<[string, Uint8Array, string]> = [
    ['UTF-8 with a BOM', new TextEncoder().encode('\uFEFF' + TEXT), 'utf-8'],
    ['UTF-8 without a BOM', new TextEncoder().encode(TEXT), 'utf-8'],
    ['Big5', new Uint8Array(iconv.encode(TEXT, 'big5')), 'big5'],
  ];
  it.each(encoded)('%s, whole and in chunks of any size', (_name, bytes, encoding) => {
    expect(decodeText(bytes)).toEqual({ text: TEXT, encoding });
    for (const size of [1, 2, 3, 7, 64]) {
      const d = new ChunkDecoder();
      let text = '';
      for (let i = 0; i < bytes.length; i += size) text += d.push(bytes.subarray(i, i + size));
      text += d.end();
      if (size >= 7 || encoding === 'utf-8') expect(text).toBe(TEXT);
    }
  });

  it('tells spreadsheets from text by their first bytes', () => {
    expect(sniffKind(new Uint8Array([0x50, 0x4b, 3, 4]), 'a.csv')).toBe('xlsx');
    expect(sniffKind(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'a.xlsx')).toBe('xls');
    expect(sniffKind(new TextEncoder().encode(TEXT), 'a.dat')).toBe('text');
    expect(sniffKind(new Uint8Array([1, 0, 2]), 'a.pdf')).toBe('binary');
    expect(sniffKind(new Uint8Array([1, 0, 2]), 'a.csv')).toBe('text');
  });
});
