/** The body reader's pieces: the streaming nesting check and the parser that yields. */
import { describe, expect, it } from 'vitest';
import { DepthScan, jsonHasNul, MAX_JSON_DEPTH, parseJsonYielding } from './json.js';

const outcome = async (f: () => unknown | Promise<unknown>) => {
  try {
    return { ok: true, value: await f() };
  } catch (err) {
    return { ok: false, error: (err as Error).name };
  }
};

describe('DepthScan', () => {
  it('refuses nesting past the limit as it arrives, across chunks, and ignores brackets inside strings', () => {
    const scan = new DepthScan();
    const deep = Buffer.from('['.repeat(MAX_JSON_DEPTH));
    expect(scan.feed(deep.subarray(0, 10))).toBeNull();
    expect(scan.feed(deep.subarray(10))).toBeNull();
    expect(scan.feed(Buffer.from('['))).toBe('too_deep');
    const strings = new DepthScan();
    expect(strings.feed(Buffer.from(`{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`))).toBeNull();
    // an escaped quote split between two chunks
    const split = new DepthScan(2);
    expect(split.feed(Buffer.from('["a\\'))).toBeNull();
    expect(split.feed(Buffer.from('"[[[[", 1]'))).toBeNull();
  });

  it('counts values, so a body of millions of tiny values is refused', () => {
    const scan = new DepthScan(MAX_JSON_DEPTH, 1000);
    expect(scan.feed(Buffer.from(`[${'0,'.repeat(999)}`))).toBeNull();
    expect(scan.feed(Buffer.from('0,0]'))).toBe('too_many');
  });
});

describe('parseJsonYielding', () => {
  const cases = [
    '{}',
    '[]',
    ' [ ] ',
    '{"a":[1,2,{"b":"c,d]}"}],"e":null,"f":true,"g":-1.5e3}',
    '[{"x":"\\"quoted\\" \\\\ , ] }"},[[],[{}]],"\\u4e2d\\u6587","中文, 逗號"]',
    '{"payments":[{"last_five":"12345","amount":100},{"last_five":"54321","amount":200}],"allow_duplicates":false}',
    '{"a":1,"a":2}',
    '{"constructor":{"prototype":1}}',
    // refused as JSON.parse refuses them
    '[1,]',
    '[,1]',
    '{"a":1,}',
    '{"a" 1}',
    '{1:2}',
    '[1 2]',
    '[1}',
    '{"a":[1,2}',
    '[[1,2],[3,4]',
    '["unterminated]',
    '{"a":tru}',
  ];

  it.each(cases)('answers what JSON.parse answers when split to the smallest slices: %s', async (text) => {
    for (const slice of [1, 2, 5, 1 << 20]) {
      expect(await outcome(() => parseJsonYielding(text, slice)), `slice ${slice}`).toEqual(
        await outcome(() => JSON.parse(text)),
      );
    }
  });

  it('refuses a __proto__ key in any spelling, and a scalar at the top', async () => {
    for (const text of ['{"__proto__":{"admin":true}}', '{"a":{"\\u005f_proto__":1}}', '[{"__proto__":1}]']) {
      for (const slice of [1, 1 << 20]) await expect(parseJsonYielding(text, slice)).rejects.toThrow(SyntaxError);
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    for (const text of ['1', '"a"', 'null', '']) await expect(parseJsonYielding(text)).rejects.toThrow(SyntaxError);
  });

  it('gives the event loop turns while parsing a large import body, and parses it exactly', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => ({
      last_five: String(10000 + i),
      paid_at: '2026-11-18T10:00:00.000Z',
      amount: 1000 + i,
      note: `備註，第 ${i} 筆 "[{`,
      store_id: 1 + (i % 3),
    }));
    const text = JSON.stringify({ payments: rows, allow_duplicates: true });
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const parsed = await parseJsonYielding(text);
    running = false;
    expect(parsed).toEqual(JSON.parse(text));
    // about 5 MB: the loop turned at least once for each 256 KB slice
    expect(turns).toBeGreaterThanOrEqual(Math.floor(text.length / (256 * 1024)));
  });

  it('finds U+0000 by its escape, whatever backslashes stand before it', () => {
    const nul = (v: unknown) => jsonHasNul(JSON.stringify(v));
    expect(nul({ a: 'x\u0000y' })).toBe(true);
    expect(nul({ ['k\u0000']: 1 })).toBe(true);
    expect(nul(['\\\u0000'])).toBe(true);
    expect(nul(['\\u0000', 'u0000', '\\\\u0000'])).toBe(false);
    expect(jsonHasNul('"\\u0000"')).toBe(true);
    expect(jsonHasNul('["\\\\u0000"]')).toBe(false);
    expect(jsonHasNul('["\\\\\\u0000"]')).toBe(true);
  });
});
