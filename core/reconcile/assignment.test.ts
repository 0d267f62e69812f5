import { describe, expect, it } from 'vitest';
import { Assignment, type Edge } from './assignment.js';

/** exhaustive maximum weight of a one-to-one matching (small graphs only) */
function brute(edges: Edge[][], i = 0, used = new Set<number>()): number {
  if (i === edges.length) return 0;
  let best = brute(edges, i + 1, used);
  for (const e of edges[i])
    if (!used.has(e.to)) {
      used.add(e.to);
      best = Math.max(best, e.weight + brute(edges, i + 1, used));
      used.delete(e.to);
    }
  return best;
}

function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** n reports, m lines, each pair an edge with even odds, weights 0–100. */
function randomGraph(rnd: () => number, n: number, m: number): Edge[][] {
  return Array.from({ length: n }, () => {
    const list: Edge[] = [];
    for (let j = 0; j < m; j++) if (rnd() < 0.5) list.push({ to: j, weight: Math.round(rnd() * 100) });
    return list;
  });
}

describe('Assignment', () => {
  it('finds the maximum-weight one-to-one matching, not the greedy one, and its regrets', () => {
    const rnd = random(7);
    for (let round = 0; round < 500; round++) {
      const n = 1 + Math.floor(rnd() * 6);
      const m = 1 + Math.floor(rnd() * 6);
      const edges = randomGraph(rnd, n, m);
      const a = new Assignment(edges, m);
      const lines = edges.map((_, i) => a.lineOf(i)).filter((j) => j >= 0);
      expect(new Set(lines).size).toBe(lines.length);
      const total = edges.reduce((s, list, i) => s + (list.find((e) => e.to === a.lineOf(i))?.weight ?? 0), 0);
      const best = brute(edges);
      expect(total).toBeCloseTo(best, 6);
      edges.forEach((list, i) => {
        const j = a.lineOf(i);
        if (j < 0) return;
        const without = edges.map((l, k) => (k === i ? l.filter((e) => e.to !== j) : l));
        expect(a.regret(i)).toBeCloseTo(best - brute(without), 6);
      });
    }
  });

  it('answers how much likelier each report is paid than left alone (paidMargin), matched or not', () => {
    const rnd = random(11);
    for (let round = 0; round < 500; round++) {
      const n = 1 + Math.floor(rnd() * 6);
      const m = 1 + Math.floor(rnd() * 5);
      const edges = randomGraph(rnd, n, m);
      const a = new Assignment(edges, m);
      const best = brute(edges);
      edges.forEach((list, i) => {
        const alone = brute(edges.map((l, k) => (k === i ? [] : l)));
        // i paired with one of its lines, the others as best they can without that line
        const paired = list.reduce(
          (b, e) => Math.max(b, e.weight + brute(edges.map((l, k) => (k === i ? [] : l.filter((x) => x.to !== e.to))))),
          -Infinity,
        );
        expect(best).toBeCloseTo(Math.max(alone, paired), 6);
        if (list.length === 0) expect(a.paidMargin(i)).toBe(-Infinity);
        else expect(a.paidMargin(i)).toBeCloseTo(paired - alone, 6);
      });
      // asking changes nothing
      const again = new Assignment(edges, m);
      edges.forEach((_, i) => expect(a.lineOf(i)).toBe(again.lineOf(i)));
    }
  });

  it('answers how much likelier a line no report holds is some report’s payment than left alone (usedMargin)', () => {
    const rnd = random(13);
    for (let round = 0; round < 500; round++) {
      const n = 1 + Math.floor(rnd() * 6);
      const m = 1 + Math.floor(rnd() * 5);
      const edges = randomGraph(rnd, n, m);
      const a = new Assignment(edges, m);
      const held = new Set(edges.map((_, i) => a.lineOf(i)).filter((j) => j >= 0));
      for (let j = 0; j < m; j++) {
        if (held.has(j)) {
          expect(a.usedMargin(j)).toBe(Infinity);
          continue;
        }
        const alone = brute(edges.map((l) => l.filter((e) => e.to !== j)));
        // some report k takes line j, the others as best they can without k and j
        let used = -Infinity;
        edges.forEach((list, k) => {
          const e = list.find((x) => x.to === j);
          if (e)
            used = Math.max(used, e.weight + brute(edges.map((l, x) => (x === k ? [] : l.filter((y) => y.to !== j)))));
        });
        if (used === -Infinity) expect(a.usedMargin(j)).toBe(-Infinity);
        else expect(a.usedMargin(j)).toBeCloseTo(used - alone, 6);
      }
    }
  });

  it('gives a recurring pair to the nearer report even when the greedy order would not', () => {
    // report 0 likes line 0 a little more than line 1, report 1 can only take line 0
    const a = new Assignment(
      [
        [
          { to: 0, weight: 10 },
          { to: 1, weight: 9 },
        ],
        [{ to: 0, weight: 8 }],
      ],
      2,
    );
    expect([a.lineOf(0), a.lineOf(1)]).toEqual([1, 0]);
  });
});
