import type { EdgeIds } from '../store/ports/crawl.js';
import { hitsIndexed } from './graph.js';

/**
 * A crawl's link graph kept in memory as pairs of frontier row ids and a HITS weight (12 bytes an
 * edge, whatever the URLs), loaded once from SQLite when a run starts and appended to as links are
 * found, so a score refresh never reads the edge table again.
 */
export class LinkGraph {
  private from: Int32Array;
  private to: Int32Array;
  private weight: Float32Array;
  private count = 0;

  constructor(initial: EdgeIds) {
    const capacity = Math.max(1024, initial.from.length * 2);
    this.from = new Int32Array(capacity);
    this.to = new Int32Array(capacity);
    this.weight = new Float32Array(capacity);
    for (let e = 0; e < initial.from.length; e++) this.add(initial.from[e]!, initial.to[e]!, initial.weight[e]!);
  }

  get size(): number {
    return this.count;
  }

  add(from: number, to: number, weight: number): void {
    if (this.count === this.from.length) {
      this.from = grow(this.from, Int32Array);
      this.to = grow(this.to, Int32Array);
      this.weight = grow(this.weight, Float32Array);
    }
    this.from[this.count] = from;
    this.to[this.count] = to;
    this.weight[this.count] = weight;
    this.count++;
  }

  edges(): { from: Int32Array; to: Int32Array; weight: Float32Array } {
    return { from: this.from.subarray(0, this.count), to: this.to.subarray(0, this.count), weight: this.weight.subarray(0, this.count) };
  }
}

function grow<T extends Int32Array | Float32Array>(array: T, Type: new (length: number) => T): T {
  const next = new Type(array.length * 2);
  next.set(array);
  return next;
}

/**
 * Region-weighted HITS over a crawl's link graph as it stands, keyed by frontier row id: the graph
 * is read as typed arrays, so scoring a 100k-edge crawl holds a few megabytes, never its URLs.
 * `outlinksOf` counts links, whatever their weight.
 */
export class GraphScores {
  private constructor(
    readonly edgeCount: number,
    private readonly index: Map<number, number>,
    private readonly hub: Float64Array,
    private readonly authority: Float64Array,
    private readonly outlinks: Uint32Array,
  ) {}

  static of(graph: LinkGraph): GraphScores {
    const edges = graph.edges();
    const index = new Map<number, number>();
    const dense = (rowId: number) => {
      let i = index.get(rowId);
      if (i === undefined) index.set(rowId, (i = index.size));
      return i;
    };
    const from = new Int32Array(edges.from.length);
    const to = new Int32Array(edges.to.length);
    for (let e = 0; e < from.length; e++) {
      from[e] = dense(edges.from[e]!);
      to[e] = dense(edges.to[e]!);
    }
    const outlinks = new Uint32Array(index.size);
    for (const f of from) outlinks[f]! += 1;
    const { hub, authority } = hitsIndexed(index.size, from, to, edges.weight);
    return new GraphScores(from.length, index, hub, authority, outlinks);
  }

  has(rowId: number): boolean {
    return this.index.has(rowId);
  }

  hubOf(rowId: number | null): number {
    return this.score(this.hub, rowId);
  }

  authorityOf(rowId: number | null): number {
    return this.score(this.authority, rowId);
  }

  outlinksOf(rowId: number | null): number {
    return this.score(this.outlinks, rowId);
  }

  /**
   * The nodes that can make a top-`n` list by score: every positive score at least the n-th best,
   * ties included, so the caller can break them by URL as the report does.
   */
  contenders(kind: 'hub' | 'authority', n: number): { rowId: number; score: number }[] {
    const scores = kind === 'hub' ? this.hub : this.authority;
    const sorted = [...scores].filter((s) => s > 0).sort((a, b) => b - a);
    if (sorted.length === 0) return [];
    const floor = sorted[Math.min(n, sorted.length) - 1]!;
    const out: { rowId: number; score: number }[] = [];
    for (const [rowId, i] of this.index) if (scores[i]! >= floor) out.push({ rowId, score: scores[i]! });
    return out;
  }

  private score(scores: Float64Array | Uint32Array, rowId: number | null): number {
    const i = rowId === null ? undefined : this.index.get(rowId);
    return i === undefined ? 0 : scores[i]!;
  }
}
