import { describe, expect, it } from 'vitest';
import { cashScore, hits, nextBucket, priorityOf } from './graph.js';
import { smartCrawlReport } from './smart-report.js';

describe('hits', () => {
  it('makes the page linking to many authorities the top hub and the most linked page the top authority', () => {
    const edges = [
      { from: 'hub', to: 'a' },
      { from: 'hub', to: 'b' },
      { from: 'hub', to: 'c' },
      { from: 'x', to: 'a' },
      { from: 'y', to: 'a' },
    ];
    const { hub, authority } = hits(edges);
    expect(hub.get('hub')).toBe(1);
    expect(authority.get('a')).toBe(1);
    expect(authority.get('b')!).toBeLessThan(1);
    expect(authority.get('hub')).toBe(0);
  });
});

describe('priorities', () => {
  it('maps OPIC cash onto [0, 1] and lets relevance dominate once there is an intent', () => {
    expect(cashScore(1)).toBe(1);
    expect(cashScore(0.1)).toBeCloseTo(0.8);
    expect(cashScore(1e-9)).toBe(0);
    const rich = { relevance: 0, cash: 0.5, authority: 1 };
    const relevant = { relevance: 0.9, cash: 0.001, authority: 0 };
    expect(priorityOf({ ...rich, intent: false })).toBeGreaterThan(priorityOf({ ...relevant, intent: false }));
    expect(priorityOf({ ...relevant, intent: true })).toBeGreaterThan(priorityOf({ ...rich, intent: true }));
  });

  it('keeps the 30/60/10 split between hub, detail and exploration fetches', () => {
    const fetched = { hub: 0, detail: 0, explore: 0 };
    const all = new Set(['hub', 'detail', 'explore'] as const);
    for (let i = 0; i < 100; i++) fetched[nextBucket(fetched, all)!]++;
    expect(fetched).toEqual({ hub: 30, detail: 60, explore: 10 });
    expect(nextBucket(fetched, new Set(['explore'] as const))).toBe('explore');
    expect(nextBucket(fetched, new Set())).toBeNull();
  });
});

describe('smartCrawlReport', () => {
  it('computes graph statistics and efficiency from the final graph', () => {
    const report = smartCrawlReport({
      nodes: 3,
      edges: 2,
      fetched: 2,
      captured: 0.8,
      heaviest: [
        { url: 'https://a.test/x', importance: 0.3, inlinks: 1 },
        { url: 'https://a.test/', importance: 0.5, inlinks: 0 },
      ],
      hubs: new Map([['https://a.test/', 1], ['https://b.test/y', 0]]),
      authorities: new Map([['https://a.test/x', 1], ['https://b.test/y', 0.5]]),
      domainAuthority: new Map([['a.test', 1], ['b.test', 0.5]]),
    });
    expect(report.stats).toEqual({ total_nodes: 3, total_edges: 2, avg_inlinks: 0.6667, graph_density: 0.333333 });
    expect(report.efficiency).toEqual({ coverage_ratio: 0.6667, importance_captured: 0.8, avg_importance_per_page: 0.4 });
    expect(report.top_pages[0]).toEqual({ url: 'https://a.test/', importance: 0.5, inlinks: 0 });
    expect(report.domain_authority).toEqual({ 'a.test': 1, 'b.test': 0.5 });
    expect(report.hubs).toEqual([{ url: 'https://a.test/', score: 1 }]);
    expect(report.authorities.map((a) => a.url)).toEqual(['https://a.test/x', 'https://b.test/y']);
  });
});
