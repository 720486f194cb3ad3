import { describe, expect, it } from 'vitest';
import { GraphScores, LinkGraph } from './graph-scores.js';

describe('LinkGraph and GraphScores', () => {
  it('scores frontier row ids: the page linking to many is the top hub, the most linked the top authority', () => {
    const links = [
      { from: 'hub', to: 'a' },
      { from: 'hub', to: 'b' },
      { from: 'hub', to: 'c' },
      { from: 'x', to: 'a' },
      { from: 'y', to: 'a' },
    ];
    const ids: Record<string, number> = { hub: 11, a: 12, b: 13, c: 14, x: 15, y: 16 };
    const graph = new LinkGraph({ from: links.map((e) => ids[e.from]!), to: links.map((e) => ids[e.to]!), weight: links.map(() => 1) });
    const scores = GraphScores.of(graph);
    expect(scores.hubOf(ids.hub!)).toBe(1);
    expect(scores.authorityOf(ids.a!)).toBe(1);
    expect(scores.authorityOf(ids.b!)).toBeLessThan(1);
    expect(scores.authorityOf(ids.hub!)).toBe(0);
    expect(scores.hubOf(ids.x!)).toBeGreaterThan(0);
    expect(scores.outlinksOf(ids.hub!)).toBe(3);
    expect(scores.edgeCount).toBe(5);
    expect(scores.hubOf(999)).toBe(0);
    expect(scores.authorityOf(null)).toBe(0);
  });

  it('grows past its first capacity and keeps every edge appended', () => {
    const graph = new LinkGraph({ from: [1], to: [2], weight: [1] });
    for (let i = 0; i < 5000; i++) graph.add(1, 100 + i, i % 2 === 0 ? 0.5 : 0.1);
    expect(graph.size).toBe(5001);
    const { from, to, weight } = graph.edges();
    expect(from.length).toBe(5001);
    expect(to[5000]).toBe(5099);
    expect(weight.length).toBe(5001);
    expect(weight[1]).toBe(0.5);
    expect(weight[5000]).toBeCloseTo(0.1, 6);
    expect(GraphScores.of(graph).outlinksOf(1)).toBe(5001);
  });

  it('weighs edges in HITS but counts every link as an outlink', () => {
    // Page 1 links to 2 in its content and to 3 in its footer; page 4 links to 3 in its footer too.
    const graph = new LinkGraph({ from: [1, 1, 4], to: [2, 3, 3], weight: [1, 0.1, 0.1] });
    const scores = GraphScores.of(graph);
    expect(scores.authorityOf(2)).toBe(1);
    expect(scores.authorityOf(3)).toBeLessThan(0.3);
    expect(scores.hubOf(1)).toBe(1);
    expect(scores.outlinksOf(1)).toBe(2);
    expect(scores.outlinksOf(4)).toBe(1);
    // The same links unweighted: the page with two inlinks wins.
    const plain = GraphScores.of(new LinkGraph({ from: [1, 1, 4], to: [2, 3, 3], weight: [1, 1, 1] }));
    expect(plain.authorityOf(3)).toBe(1);
  });

  it('offers every node tied with the n-th best score as a contender, and none without a score', () => {
    // Four pages each linked once by the hub: all four tie as authorities.
    const graph = new LinkGraph({ from: [1, 1, 1, 1], to: [2, 3, 4, 5], weight: [1, 1, 1, 1] });
    const scores = GraphScores.of(graph);
    expect(scores.contenders('authority', 2).map((c) => c.rowId).sort()).toEqual([2, 3, 4, 5]);
    expect(scores.contenders('hub', 10)).toEqual([{ rowId: 1, score: 1 }]);
    expect(GraphScores.of(new LinkGraph({ from: [], to: [], weight: [] })).contenders('hub', 10)).toEqual([]);
  });
});
