import { describe, expect, it } from 'vitest';
import { packBoard, unpackBoard } from './boardWire.js';
import type { CloseBoard } from './service.js';

const board: CloseBoard = {
  from: '2026-11-17',
  to: '2026-11-19',
  dates: ['2026-11-17', '2026-11-18', '2026-11-19'],
  by_method: { 匯款: 3000, 現金: 1620, 刷卡: 890, 電子支付: 450 },
  stores: [
    {
      id: 1,
      code: 'TPE',
      name: '台北店',
      by_method: { 匯款: 3000, 現金: 1620, 刷卡: 890, 電子支付: 450 },
      closed_days: 1,
      difference: -50,
      days: [
        {
          date: '2026-11-17',
          status: 'open',
          cash_in: 0,
          cash_out: 0,
          expected: null,
          counted: null,
          difference: null,
          late_changes: 0,
        },
        {
          date: '2026-11-18',
          status: 'closed',
          cash_in: 1550,
          cash_out: 1300,
          expected: 5150,
          counted: 5100,
          difference: -50,
          late_changes: 2,
        },
        {
          date: '2026-11-19',
          status: 'reopened',
          cash_in: 70,
          cash_out: 0,
          expected: 5170,
          counted: null,
          difference: null,
          late_changes: 1,
        },
      ],
    },
  ],
};

describe('the board on the wire', () => {
  it('sends each store’s days as columns and reads back the board the service gave', () => {
    const wire = packBoard(board);
    expect(wire.stores[0].days).toEqual({
      status: 'ocr',
      cash_in: [0, 1550, 70],
      cash_out: [0, 1300, 0],
      expected: [null, 5150, 5170],
      counted: [null, 5100, null],
      late_changes: [0, 2, 1],
    });
    expect(unpackBoard(JSON.parse(JSON.stringify(wire)))).toEqual(board);
  });
});
