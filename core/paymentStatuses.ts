/** Payment statuses (spec section 4) and their spreadsheet mappings. */
export const STATUSES = ['未確認', '已入帳', '未入帳'] as const;
export type PaymentStatus = (typeof STATUSES)[number];

export const STATUS_PENDING: PaymentStatus = '未確認';
export const STATUS_CREDITED: PaymentStatus = '已入帳';
export const STATUS_FAILED: PaymentStatus = '未入帳';
/** @alias the status a new payment starts in */
export const DEFAULT_STATUS: PaymentStatus = STATUS_PENDING;

/** A payment linked to a bank line is 已入帳 because of it: only 取消對帳 changes its status. */
export function statusChangeable(p: { bank_line_id?: number | null }): boolean {
  return p.bank_line_id === undefined || p.bank_line_id === null;
}
/** @alias counted as confirmed in the statistics (spec section 9) */
export const CONFIRMED_STATUS: PaymentStatus = STATUS_CREDITED;

export const STATUS_COLORS: Record<PaymentStatus, 'warning' | 'success' | 'error'> = {
  未確認: 'warning',
  已入帳: 'success',
  未入帳: 'error',
};

export const COLLECTED = '已點收';
export const NOT_COLLECTED = '未點收';

export function isStatus(value: unknown): value is PaymentStatus {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

/** Export: 已入帳 becomes 已點收; both others become 未點收. */
export function toCollectionStatus(status: PaymentStatus): typeof COLLECTED | typeof NOT_COLLECTED {
  return status === STATUS_CREDITED ? COLLECTED : NOT_COLLECTED;
}

/** Import: 已點收 becomes 已入帳; anything else becomes 未確認. */
export function fromCollectionStatus(cell: unknown): PaymentStatus {
  return typeof cell === 'string' && cell.trim() === COLLECTED ? STATUS_CREDITED : STATUS_PENDING;
}
