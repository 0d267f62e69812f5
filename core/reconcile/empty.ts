/** Why every queue came back empty, so an accountant never faces empty queues with no word why. */
export type EmptyReason = 'no_statement' | 'no_credits' | 'all_decided' | 'credits_decided' | 'no_reports';

export const EMPTY_REASON_TEXT: Record<EmptyReason, string> = {
  no_statement: '這段期間沒有可對帳的銀行明細：請先匯入涵蓋這段期間的存款交易明細，或改選明細涵蓋的日期',
  no_credits: '這段期間的銀行明細沒有任何存入款項',
  all_decided: '這段期間的存入款項都已對帳完成，也沒有待確認的回報',
  credits_decided: '這段期間的存入款項都已對帳完成；尚未確認的回報沒有可對應的存入',
  no_reports: '這段期間沒有待確認的匯款回報',
};

interface PeriodCounts {
  credits: number;
  openCredits: number;
  reports: number;
  openReports: number;
}

export function emptyReason(c: PeriodCounts): EmptyReason {
  if (c.credits === 0) return 'no_credits';
  if (c.openCredits === 0) return c.openReports === 0 ? 'all_decided' : 'credits_decided';
  return 'no_reports';
}
