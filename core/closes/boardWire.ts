/**
 * The 日結總覽 board on the wire: each store's days as columns rather than one object per store and
 * day, a fifth of the JSON for a year of 50 stores. Pure, so server and back office share one pair.
 */
import { cashDifference, type DayStatus } from './rules.js';
import type { BoardDay, BoardStore, CloseBoard } from './service.js';

/** c 已結帳, r 已重新開帳, o 未結帳, q 無收支 */
const LETTER: Record<DayStatus, string> = { closed: 'c', reopened: 'r', open: 'o', quiet: 'q' };
const STATUS_OF: Record<string, DayStatus> = { c: 'closed', r: 'reopened', o: 'open', q: 'quiet' };

interface BoardColumns {
  status: string;
  cash_in: number[];
  cash_out: number[];
  expected: Array<number | null>;
  counted: Array<number | null>;
  late_changes: number[];
}

export type WireBoardStore = Omit<BoardStore, 'days'> & { days: BoardColumns };
export type WireBoard = Omit<CloseBoard, 'stores'> & { stores: WireBoardStore[] };

export function packBoard(board: CloseBoard): WireBoard {
  return {
    ...board,
    stores: board.stores.map(({ days, ...store }) => ({
      ...store,
      days: {
        status: days.map((d) => LETTER[d.status]).join(''),
        cash_in: days.map((d) => d.cash_in),
        cash_out: days.map((d) => d.cash_out),
        expected: days.map((d) => d.expected),
        counted: days.map((d) => d.counted),
        late_changes: days.map((d) => d.late_changes),
      },
    })),
  };
}

/** The board as the service gave it: a closed day's difference is its counted less its expected cash. */
export function unpackBoard(wire: WireBoard): CloseBoard {
  return {
    ...wire,
    stores: wire.stores.map(({ days: c, ...store }) => ({
      ...store,
      days: wire.dates.map((date, i): BoardDay => {
        const status = STATUS_OF[c.status[i]];
        const expected = c.expected[i];
        const counted = c.counted[i];
        return {
          date,
          status,
          cash_in: c.cash_in[i],
          cash_out: c.cash_out[i],
          expected,
          counted,
          difference:
            status === 'closed' && counted !== null && expected !== null ? cashDifference(counted, expected) : null,
          late_changes: c.late_changes[i],
        };
      }),
    })),
  };
}
