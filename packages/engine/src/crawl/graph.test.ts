import { describe, expect, it } from 'vitest';
import { hitsIndexed, nextBucket, REGION_WEIGHTS, strongerRegion } from './graph.js';
import { cashScore, priorityOf } from './vocabulary.js';
import { smartCrawlReport } from './smart-report.js';

describe('hits', () => {
  it('makes the page linking to many authorities the top hub and the most linked page the top authority', () => {
    // 0 = hub, 1..3 = a, b, c, 4 = x, 5 = y
    const from = [0, 0, 0, 4, 5];
    const to = [1, 2, 3, 1, 1];
    const { hub, authority } = hitsIndexed(6, from, to);
    expect(hub[0]).toBe(1);
    expect(authority[1]).toBe(1);
    expect(authority[2]!).toBeLessThan(1);
    expect(authority[2]!).toBeGreaterThan(0);
    expect(authority[0]).toBe(0);
    expect(hub[1]).toBe(0);
  });
});

describe('region-weighted hits', () => {
  // A shop: every page carries the same footer link to /privacy and nav links to both categories;
  // in their content, cat1 lists p1..p3, cat2 lists p3 and p4, and the home page features p3.
  const names = ['home', 'cat1', 'cat2', 'p1', 'p2', 'p3', 'p4', 'privacy'] as const;
  const edges: [string, string, keyof typeof REGION_WEIGHTS][] = [];
  for (const page of names.slice(0, 7)) {
    edges.push([page, 'privacy', 'footer']);
    for (const category of ['cat1', 'cat2']) if (category !== page) edges.push([page, category, 'nav']);
  }
  edges.push(['cat1', 'p1', 'main'], ['cat1', 'p2', 'main'], ['cat1', 'p3', 'main'], ['cat2', 'p3', 'main'], ['cat2', 'p4', 'main'], ['home', 'p3', 'main']);
  const id = (name: string) => names.indexOf(name as (typeof names)[number]);
  const from = edges.map((e) => id(e[0]));
  const to = edges.map((e) => id(e[1]));
  const ranked = (scores: Float64Array) => [...names].sort((a, b) => scores[id(b)]! - scores[id(a)]! || a.localeCompare(b));

  it('lets the template win when every link counts the same: the footer page is the top authority', () => {
    const { hub, authority } = hitsIndexed(names.length, from, to);
    expect(ranked(authority)[0]).toBe('privacy');
    expect(ranked(hub)[0]).toBe('home');
  });

  it('ranks by the content once template links weigh 0.1: the most listed product leads, the longest listing is the top hub', () => {
    const { hub, authority } = hitsIndexed(names.length, from, to, edges.map((e) => REGION_WEIGHTS[e[2]]));
    expect(ranked(authority).slice(0, 4)).toEqual(['p3', 'p1', 'p2', 'p4']);
    expect(authority[id('p3')]).toBe(1);
    expect(authority[id('p1')]).toBeCloseTo(0.449, 2);
    expect(authority[id('privacy')]).toBeCloseTo(0.102, 2);
    expect(ranked(hub).slice(0, 3)).toEqual(['cat1', 'cat2', 'home']);
    expect(hub[id('cat2')]).toBeCloseTo(0.693, 2);
    expect(hub[id('p1')]).toBeLessThan(0.05);
  });

  it('counts a link found in several regions of a page at its most editorial placement', () => {
    expect(strongerRegion('footer', 'main')).toBe('main');
    expect(strongerRegion('aside', 'nav')).toBe('aside');
    expect(strongerRegion('main', 'header')).toBe('main');
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

  it("hands an empty bucket's share to the others in proportion", () => {
    // A documentation site: no listing-like URLs, so the hub bucket never has anything waiting.
    const fetched = { hub: 0, detail: 0, explore: 0 };
    const noHubs = new Set(['detail', 'explore'] as const);
    for (let i = 0; i < 70; i++) fetched[nextBucket(fetched, noHubs)!]++;
    expect(fetched).toEqual({ hub: 0, detail: 60, explore: 10 });
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
