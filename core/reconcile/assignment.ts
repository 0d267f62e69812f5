/**
 * Maximum-weight one-to-one matching of reports to lines (sparse Hungarian: shortest augmenting
 * paths with potentials). Each report has a private "unmatched" vertex of weight 0; Dijkstra stops
 * at the first free vertex, so a year of reports stays far from O(n²).
 */

export interface Edge {
  to: number;
  weight: number;
}

class Heap {
  private keys: number[] = [];
  private vals: number[] = [];
  get size() {
    return this.keys.length;
  }
  clear() {
    this.keys.length = 0;
    this.vals.length = 0;
  }
  push(k: number, v: number) {
    const { keys, vals } = this;
    let i = keys.length;
    keys.push(k);
    vals.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p] <= k) break;
      keys[i] = keys[p];
      vals[i] = vals[p];
      i = p;
    }
    keys[i] = k;
    vals[i] = v;
  }
  /** removes the smallest; answers its value, its key in `lastKey` */
  lastKey = 0;
  pop(): number {
    const { keys, vals } = this;
    const topK = keys[0];
    const topV = vals[0];
    const k = keys.pop()!;
    const v = vals.pop()!;
    const n = keys.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && keys[c + 1] < keys[c]) c++;
        if (keys[c] >= k) break;
        keys[i] = keys[c];
        vals[i] = vals[c];
        i = c;
      }
      keys[i] = k;
      vals[i] = v;
    }
    this.lastKey = topK;
    return topV;
  }
}

export class Assignment {
  readonly matchL: Int32Array;
  private readonly matchR: Int32Array;
  private readonly pl: Float64Array;
  private readonly pr: Float64Array;
  private readonly dist: Float64Array;
  private readonly seen: Int32Array;
  private readonly done: Int32Array;
  private readonly prev: Int32Array;
  private readonly dl: Float64Array;
  private stamp = 0;
  private readonly heap = new Heap();

  /** `edges[i]`: the lines 0..m-1 report i may take, with positive weights */
  constructor(
    private readonly edges: Edge[][],
    private readonly m: number,
  ) {
    const n = edges.length;
    const size = m + n; // lines, then one "unmatched" vertex per report
    this.matchL = new Int32Array(n).fill(-1);
    this.matchR = new Int32Array(size).fill(-1);
    this.pl = new Float64Array(n);
    this.pr = new Float64Array(size);
    this.dist = new Float64Array(size);
    this.seen = new Int32Array(size);
    this.done = new Int32Array(size);
    this.prev = new Int32Array(size);
    this.dl = new Float64Array(n);
    // reduced costs start non-negative with every right vertex at 0
    edges.forEach((list, i) => (this.pl[i] = Math.max(0, ...list.map((e) => e.weight))));
    for (let i = 0; i < n; i++) this.augment(i);
  }

  /** Dijkstra from s to the nearest free line, avoiding `blocked` (free lines keep potential 0: first is cheapest). */
  private shortest(s: number, blocked: number, lefts: number[], rights: number[]): number {
    const { edges, m, pl, pr, dist, seen, done, prev, matchR, matchL, dl, heap } = this;
    const stamp = ++this.stamp;
    heap.clear();
    const relax = (i: number, d: number) => {
      const consider = (j: number, cost: number) => {
        if (j === matchL[i] || j === blocked || done[j] === stamp) return;
        const nd = d + cost + pl[i] - pr[j];
        if (seen[j] !== stamp || nd < dist[j]) {
          seen[j] = stamp;
          dist[j] = nd;
          prev[j] = i;
          heap.push(nd, j);
        }
      };
      for (const e of edges[i]) consider(e.to, -e.weight);
      consider(m + i, 0);
    };
    dl[s] = 0;
    lefts.push(s);
    relax(s, 0);
    while (heap.size > 0) {
      const j = heap.pop();
      const d = heap.lastKey;
      if (done[j] === stamp || d > dist[j]) continue;
      done[j] = stamp;
      rights.push(j);
      const i = matchR[j];
      if (i === -1) return j;
      dl[i] = d;
      lefts.push(i);
      relax(i, d);
    }
    return -1; // unreachable: the private "unmatched" vertex of s is always free
  }

  /** updates the potentials after shortest() and flips the path from s to t */
  private apply(s: number, t: number, lefts: number[], rights: number[]) {
    const D = this.dist[t];
    for (const j of rights) this.pr[j] += this.dist[j] - D;
    for (const i of lefts) this.pl[i] += this.dl[i] - D;
    let j = t;
    for (;;) {
      const i = this.prev[j];
      const next = this.matchL[i];
      this.matchL[i] = j;
      this.matchR[j] = i;
      if (i === s) break;
      j = next;
    }
  }

  private augment(s: number) {
    const lefts: number[] = [];
    const rights: number[] = [];
    const t = this.shortest(s, -1, lefts, rights);
    this.apply(s, t, lefts, rights);
  }

  lineOf(i: number): number {
    const j = this.matchL[i];
    return j >= 0 && j < this.m ? j : -1;
  }

  /** Weight lost when report i may not keep its line: two augmenting paths, applied for the measure and undone. */
  regret(i: number): number {
    const l = this.lineOf(i);
    if (l < 0) return 0;
    const weight = this.edges[i].find((e) => e.to === l)!.weight;
    this.matchL[i] = -1;
    this.matchR[l] = -1;
    const lefts: number[] = [];
    const rights: number[] = [];
    const t = this.shortest(i, l, lefts, rights);
    const reseat = this.pl[i] - this.dist[t]; // weight gained by re-seating i (≥ 0: it may stay alone)
    const saved = {
      pl: lefts.map((x) => this.pl[x]),
      ml: lefts.map((x) => this.matchL[x]),
      pr: rights.map((x) => this.pr[x]),
      mr: rights.map((x) => this.matchR[x]),
    };
    this.apply(i, t, lefts, rights);
    const handOver = this.handOver(l, i);
    lefts.forEach((x, k) => ((this.pl[x] = saved.pl[k]), (this.matchL[x] = saved.ml[k])));
    rights.forEach((x, k) => ((this.pr[x] = saved.pr[k]), (this.matchR[x] = saved.mr[k])));
    this.matchL[i] = l;
    this.matchR[l] = i;
    return Math.max(0, weight - reseat - handOver);
  }

  /** Best total weight with report i paired less with it alone: the log odds (max-product) that it is paid at all. */
  paidMargin(i: number): number {
    const l = this.lineOf(i);
    if (l >= 0) {
      const weight = this.edges[i].find((e) => e.to === l)!.weight;
      const own = this.matchL[i];
      this.matchL[i] = -1;
      this.matchR[l] = -1;
      const handOver = this.handOver(l, i);
      this.matchL[i] = own;
      this.matchR[l] = i;
      return weight - handOver;
    }
    if (this.edges[i].length === 0) return -Infinity;
    // i stays alone now: the cheapest path from i that does not end at its own "unmatched" vertex
    const lefts: number[] = [];
    const rights: number[] = [];
    const t = this.shortest(i, this.m + i, lefts, rights);
    return t < 0 ? -Infinity : this.pl[i] - this.dist[t] + this.pr[t];
  }

  /** The mirror of paidMargin for a line no report holds (≤ 0; -Infinity when no report may take it). */
  usedMargin(l: number): number {
    if (this.matchR[l] >= 0) return Infinity;
    return this.handOver(l, -1, true);
  }

  /** the best gain from giving free line l to a report (not `skip`) who leaves its own; `force`: one must take it */
  private handOver(l: number, skip: number, force = false): number {
    const { pl, pr, dist, seen, done, matchL, heap } = this;
    const into = this.incoming();
    const stamp = ++this.stamp;
    heap.clear();
    seen[l] = stamp;
    dist[l] = 0;
    heap.push(0, l);
    let best = Infinity; // least plain cost of a path ending at a right vertex, shifted by pr[l]
    while (heap.size > 0) {
      const j = heap.pop();
      const d = heap.lastKey;
      if (done[j] === stamp || d > dist[j]) continue;
      if (d >= best) break; // every pr is ≤ 0, so no later end does better
      done[j] = stamp;
      if (!(force && j === l)) best = Math.min(best, d - pr[j]);
      if (j >= this.m) continue; // a report's own "unmatched" vertex ends the path
      for (const [k, w] of into[j]) {
        if ((k === skip && j === l) || matchL[k] === j) continue;
        const t = matchL[k]; // k leaves t
        if (t < 0 || done[t] === stamp) continue;
        const nd = d + -w + pl[k] - pr[j];
        if (seen[t] !== stamp || nd < dist[t]) {
          seen[t] = stamp;
          dist[t] = nd;
          heap.push(nd, t);
        }
      }
    }
    return best === Infinity ? -Infinity : -(best + pr[l]);
  }

  private into?: [number, number][][];
  private incoming(): [number, number][][] {
    if (!this.into) {
      this.into = Array.from({ length: this.m }, () => []);
      this.edges.forEach((list, k) => list.forEach((e) => this.into![e.to].push([k, e.weight])));
    }
    return this.into;
  }
}
