import { afterEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import { Frontier } from './frontier.js';
import { priorityOf } from './graph.js';

let t: TestEngine;
afterEach(async () => t.dispose());

function frontier(intent = true) {
  t = openTestEngine();
  return new Frontier(t.engine.context.sqlite, 'crawl-1', intent);
}

const link = (url: string, over: Partial<Parameters<Frontier['discover']>[0]> = {}) => ({
  url,
  depth: 1,
  bucket: 'detail' as const,
  relevance: 0.2,
  anchor: 'a link',
  context: '',
  cash: 0.1,
  ...over,
});

describe('Frontier', () => {
  it('splits the initial cash among the seeds and hands the seeds out first', () => {
    const f = frontier();
    f.seed(['https://a.test/', 'https://b.test/#top', 'https://a.test']);
    expect(f.get('https://a.test/')!.cash).toBe(0.5);
    expect(f.get('https://b.test/')!.cash).toBe(0.5);
    expect(f.take({ bucket: 'seed' })!.url).toBe('https://a.test/');
    expect(f.get('https://a.test/')!.state).toBe('fetching');
  });

  it('adds cash, inlinks and new anchors when a known URL is linked again, and keeps the shallower depth', () => {
    const f = frontier();
    f.discover(link('https://a.test/x', { depth: 2, anchor: 'first' }), () => 0);
    f.discover(link('https://a.test/x', { depth: 1, anchor: 'second', cash: 0.3 }), () => 0.9);
    const row = f.get('https://a.test/x')!;
    expect(row).toMatchObject({ inlinks: 2, depth: 1, anchors: ['first', 'second'], relevance: 0.9 });
    expect(row.cash).toBeCloseTo(0.4);
  });

  it('relinks a URL with an anchor it already has: cash, inlinks, shallower depth and a fresh priority, relevance kept', () => {
    const f = frontier();
    f.discover(link('https://a.test/x', { depth: 2, anchor: 'same', relevance: 0.4 }), () => 0);
    const before = f.get('https://a.test/x')!;
    f.discover(link('https://a.test/x', { depth: 1, anchor: 'same', cash: 0.5, relevance: 0.9 }), () => 1);
    f.discover(link('https://a.test/x', { depth: 3, anchor: '', cash: 0.4 }), () => 1);
    const row = f.get('https://a.test/x')!;
    expect(row).toMatchObject({ inlinks: 3, depth: 1, anchors: ['same'], relevance: 0.4, id: before.id, seq: before.seq });
    expect(row.cash).toBeCloseTo(1);
    expect(row.priority).toBe(priorityOf({ relevance: 0.4, cash: row.cash, authority: 0, intent: true }));
    expect(row.priority).toBeGreaterThan(before.priority);
  });

  it('adds no cash to a URL already fetched, and numbers new URLs in discovery order whatever was relinked between them', () => {
    const f = frontier(false);
    f.discover(link('https://a.test/x', { cash: 0.25 }), () => 0);
    f.bankCash('https://a.test/x');
    f.discover(link('https://a.test/x', { cash: 0.5 }), () => 0);
    f.discover(link('https://a.test/x', { cash: 0.5, anchor: 'new words' }), () => 0);
    f.discover(link('https://a.test/y'), () => 0);
    expect(f.get('https://a.test/x')).toMatchObject({ cash: 0, history: 0.25, inlinks: 3, state: 'done', seq: 1 });
    expect(f.get('https://a.test/y')!.seq).toBe(2);
  });

  it('keeps two crawls on one connection apart, each with its own priority blend', () => {
    const smart = frontier(true);
    const plain = new Frontier(t.engine.context.sqlite, 'crawl-2', false);
    for (const f of [smart, plain]) {
      f.discover(link('https://a.test/x', { relevance: 0.8 }), () => 0);
      f.discover(link('https://a.test/x', { relevance: 0.8, cash: 0.2 }), () => 0);
    }
    expect(smart.get('https://a.test/x')!.priority).toBe(priorityOf({ relevance: 0.8, cash: 0.1 + 0.2, authority: 0, intent: true }));
    expect(plain.get('https://a.test/x')!.priority).toBe(priorityOf({ relevance: 0.8, cash: 0.1 + 0.2, authority: 0, intent: false }));
    expect(plain.get('https://a.test/x')!.inlinks).toBe(2);
  });

  it('banks the cash of a fetched page into its history and returns it for its links', () => {
    const f = frontier();
    f.discover(link('https://a.test/x', { cash: 0.25 }), () => 0);
    expect(f.bankCash('https://a.test/x')).toBe(0.25);
    expect(f.get('https://a.test/x')).toMatchObject({ cash: 0, history: 0.25, state: 'done' });
  });

  it('takes the highest priority of a bucket, or the shallowest oldest URL breadth-first', () => {
    const f = frontier();
    f.discover(link('https://a.test/deep-relevant', { depth: 2, relevance: 0.9 }), () => 0);
    f.discover(link('https://a.test/shallow-dull', { depth: 1, relevance: 0 }), () => 0);
    expect(f.take({ bucket: 'detail' })!.url).toBe('https://a.test/deep-relevant');
    f.setState('https://a.test/deep-relevant', 'queued');
    expect(f.take('breadth_first')!.url).toBe('https://a.test/shallow-dull');
  });

  it('never hands out URLs marked as seen or covered, and requeues what was in flight', () => {
    const f = frontier();
    f.seed(['https://a.test/']);
    f.markSeen(['https://a.test/', 'https://a.test/seen']);
    f.markCovered('https://a.test/copy', 1);
    expect(f.get('https://a.test/')!.state).toBe('queued');
    expect(f.take('breadth_first')!.url).toBe('https://a.test/');
    expect(f.take('breadth_first')).toBeUndefined();
    f.requeueInFlight();
    expect(f.get('https://a.test/')!.state).toBe('queued');
    expect(f.countsByBucket(['queued'])).toEqual({ seed: 1, hub: 0, detail: 0, explore: 0 });
  });

  it('lifts a queued URL by its authority estimate', () => {
    const f = frontier(false);
    f.discover(link('https://a.test/x', { cash: 0.001 }), () => 0);
    const before = f.get('https://a.test/x')!.priority;
    f.applyAuthority(() => 1);
    expect(f.get('https://a.test/x')!.priority).toBeGreaterThan(before);
  });

  it('sums the graph up for the report without the covered and seen URLs, heaviest first', () => {
    const f = frontier(false);
    f.seed(['https://a.test/']);
    const x = f.discover(link('https://a.test/x', { cash: 0.4 }), () => 0);
    f.discover(link('https://a.test/y', { cash: 0.1 }), () => 0);
    f.markCovered('https://a.test/copy', 1);
    f.markSeen(['https://a.test/old']);
    f.take({ bucket: 'seed' });
    f.bankCash('https://a.test/');
    expect(f.totals()).toEqual({ nodes: 3, fetched: 1, banked: 1 });
    expect(f.heaviest(2).map((n) => n.url)).toEqual(['https://a.test/', 'https://a.test/x']);
    expect(f.urlOf(x)).toBe('https://a.test/x');
    expect(f.discover(link('https://a.test/x'), () => 0)).toBe(x);
    expect([...f.urls()].map(([, url]) => url).sort()).toEqual(['https://a.test/', 'https://a.test/copy', 'https://a.test/old', 'https://a.test/x', 'https://a.test/y']);
  });

  it('lists stored links as pairs of row ids weighted by the region they sat in', () => {
    const f = frontier(false);
    const a = f.discover(link('https://a.test/a'), () => 0);
    const b = f.discover(link('https://a.test/b'), () => 0);
    const privacy = f.discover(link('https://a.test/privacy'), () => 0);
    const about = f.discover(link('https://a.test/about'), () => 0);
    expect(f.addEdge('https://a.test/a', 'https://a.test/b', 'main')).toBe(true);
    expect(f.addEdge('https://a.test/a', 'https://a.test/b', 'footer')).toBe(false);
    expect(f.addEdge('https://a.test/a', 'https://a.test/privacy', 'footer')).toBe(true);
    expect(f.addEdge('https://a.test/b', 'https://a.test/about', 'aside')).toBe(true);
    expect(f.edgeIds()).toEqual({ from: [a, a, b], to: [b, privacy, about], weight: [1, 0.1, 0.5] });
  });

  it('reads the same weighted graph back from a second Frontier over the same rows, as a resumed run does', () => {
    const f = frontier(false);
    f.discover(link('https://a.test/a'), () => 0);
    f.discover(link('https://a.test/b'), () => 0);
    f.addEdge('https://a.test/a', 'https://a.test/b', 'nav');
    const again = new Frontier(t.engine.context.sqlite, 'crawl-1', false);
    expect(again.edgeIds()).toEqual(f.edgeIds());
    expect(again.edgeIds().weight).toEqual([0.1]);
  });
});
