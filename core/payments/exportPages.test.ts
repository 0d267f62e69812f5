import { describe, expect, it } from 'vitest';
import { PaymentPage } from './exportPages.js';

// A page as the database writes it: fields joined by `,` in pageFields' order (paid_at, uuid, store_id,
// last_five, amount, status, method, method_detail, employee, then created_by, created_at, updated_at when full), the note last as a JSON string.
const line = (f: Array<string | number>, note: string) => `${f.join(',')},${JSON.stringify(note)}`;
const notes = ['', 'plain', 'a,b', '第一行\n第二行', 'say "hi"', 'back\\slash', 'ctl\u0001', '😀,\r\n=1+2'];
const sheetText = notes
  .map((n, i) =>
    line(
      [
        1_763_000_000_000 - i,
        `u${i}`,
        i + 1,
        `0000${i}`,
        i === 3 ? -250 : 1000 + i,
        i % 2 ? '已入帳' : '未確認',
        i === 2 ? '電子支付' : '匯款',
        i === 2 ? 'LINE Pay' : '',
        i === 2 ? 1 : 0,
      ],
      n,
    ),
  )
  .join('\n');

/** The payments of a page, each copied as it comes (the page reuses one object). */
function read(page: PaymentPage) {
  const out = [];
  for (const p of page) out.push({ ...p });
  return out;
}

describe('PaymentPage (a page of the export read from one text)', () => {
  it('reads every field and every note back as stored, whatever the note holds', () => {
    const rows = read(new PaymentPage(sheetText, notes.length, false));
    expect(rows.map((r) => r.note)).toEqual(notes);
    expect(rows.map((r) => JSON.parse(r.noteJson))).toEqual(notes);
    expect(rows[3]).toMatchObject({
      paid_at: 1_763_000_000_000 - 3,
      last_five: '00003',
      amount: -250,
      store_id: 4,
      status: '已入帳',
    });
    expect(rows[0]).toMatchObject({
      amount: 1000,
      store_id: 1,
      status: '未確認',
      method: '匯款',
      method_detail: '',
      employee: 0,
    });
    expect(rows[2]).toMatchObject({ method: '電子支付', method_detail: 'LINE Pay', employee: 1 });
  });

  it('reads created_by (empty is none), created_at and updated_at from a full page, and the uuid', () => {
    const text = [
      line([5, 'aa-1', 2, '12345', 10, '未入帳', '匯款', '', 0, '', 7, 8, 'staff'], 'x'),
      line([4, 'aa-0', 1, '', 20, '已入帳', '現金', '', 1, 3, 9, 11, 'customer'], ''),
    ].join('\n');
    const rows = read(new PaymentPage(text, 2, true));
    expect(rows).toEqual([
      expect.objectContaining({
        uuid: 'aa-1',
        created_by: null,
        created_at: 7,
        updated_at: 8,
        source: 'staff',
        note: 'x',
      }),
      expect.objectContaining({
        uuid: 'aa-0',
        last_five: '',
        method: '現金',
        employee: 1,
        created_by: 3,
        created_at: 9,
        updated_at: 11,
        source: 'customer',
        note: '',
      }),
    ]);
    expect(new PaymentPage(text, 2, true).last()).toEqual({ paid_at: 4, uuid: 'aa-0' });
  });

  it('cut in parts, gives the same payments in the same order, each part its own count', () => {
    const page = new PaymentPage(sheetText, notes.length, false);
    for (const size of [1, 3, notes.length, 100]) {
      const parts = page.parts(size);
      expect(parts.map((p) => p.length).reduce((a, b) => a + b, 0)).toBe(notes.length);
      expect(parts.every((p) => read(p).length === p.length)).toBe(true);
      expect(parts.flatMap(read)).toEqual(read(page));
    }
  });
});
