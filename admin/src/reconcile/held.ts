import type { Proposals } from './types';

/** Decisions made on the page and not yet in the server's answer. */
export interface Held {
  payments: ReadonlySet<string>;
  lines: ReadonlySet<number>;
}

export const NOTHING_HELD: Held = { payments: new Set(), lines: new Set() };

/** A decided report and its credit leave their queue at once, while the decision waits behind 復原. */
export function withoutHeld(data: Proposals, held: Held): Proposals {
  if (held.payments.size === 0 && held.lines.size === 0) return data;
  const p = (uuid: string) => held.payments.has(uuid);
  const l = (id: number) => held.lines.has(id);
  const auto = data.auto.filter((a) => !p(a.payment.uuid) && !l(a.line.id));
  const review = data.review
    .filter((r) => !p(r.payment.uuid))
    .map((r) =>
      r.candidates.some((c) => l(c.line.id)) ? { ...r, candidates: r.candidates.filter((c) => !l(c.line.id)) } : r,
    );
  const reviewLines = data.reviewLines
    .filter((o) => !l(o.line.id))
    .map((o) =>
      o.candidates.some((c) => p(c.payment.uuid))
        ? { ...o, candidates: o.candidates.filter((c) => !p(c.payment.uuid)) }
        : o,
    )
    .filter((o) => o.candidates.length > 0);
  const unpaid = data.unpaid.filter((u) => !p(u.payment.uuid));
  const unreported = data.unreported.filter((u) => !l(u.line.id));
  const out: Proposals = { ...data, auto, review, reviewLines, unpaid, unreported };
  if (data.page) {
    const t = data.page.total;
    const less = (n: number, before: unknown[], after: unknown[]) => Math.max(0, n - (before.length - after.length));
    out.page = {
      ...data.page,
      total: {
        ...t,
        auto: less(t.auto, data.auto, auto),
        review: less(t.review, data.review, review),
        reviewLines: less(t.reviewLines, data.reviewLines, reviewLines),
        unpaid: less(t.unpaid, data.unpaid, unpaid),
        unreported: less(t.unreported, data.unreported, unreported),
      },
    };
  }
  return out;
}

export function holding(held: Held, payments: string[], lines: number[], on: boolean): Held {
  const ps = new Set(held.payments);
  const ls = new Set(held.lines);
  for (const u of payments)
    if (on) ps.add(u);
    else ps.delete(u);
  for (const l of lines)
    if (on) ls.add(l);
    else ls.delete(l);
  return { payments: ps, lines: ls };
}
