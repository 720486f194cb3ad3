import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb, type SearxngResponse } from '@wvr/testkit';
import { WvrError } from '../../core/errors.js';
import type { Principal } from '../../accounts/schemas.js';
import { openTestEngine, principalOf, type TestEngine } from '../../testing/engine.js';
import type { SearchJob } from '../schemas.js';

let web: LocalWeb;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 300, articles: 40, docsDepth: 2 } });
});
afterAll(() => web.close());

let t: TestEngine;
let alice: Principal;
beforeEach(async () => {
  t = openTestEngine({ searxngUrl: web.search, searchProvider: 'searxng', allowPrivateNetwork: true });
  alice = await principalOf(t.engine, 'alice@x.test');
});
afterEach(() => t.dispose());

const direct = async (q: string, pageno = 1) =>
  (await (await fetch(`${web.search}/search?q=${encodeURIComponent(q)}&format=json&pageno=${pageno}`)).json()) as SearxngResponse;

describe('searxng provider against the local web', () => {
  it('returns the instance’s results in its order, with scores scaled to the best', async () => {
    const expected = await direct('espresso grinder');
    expect(expected.results.length).toBeGreaterThan(3);
    const out = await t.engine.search.quick(alice, { query: 'espresso grinder', max_results: 5 });
    expect(out.provider).toBe('searxng');
    expect(out.results.map((r) => r.url)).toEqual(expected.results.slice(0, 5).map((r) => r.url));
    expect(out.results[0]!.relevance_score).toBe(1);
    expect(out.results[0]!.title).toBe(expected.results[0]!.title);
    expect(out.results[0]!.description).toBe(expected.results[0]!.content);
  });

  it('reads further pages when more results are asked for than one page holds', async () => {
    const [one, two] = await Promise.all([direct('news'), direct('news', 2)]);
    const out = await t.engine.search.quick(alice, { query: 'news', max_results: 15 });
    expect(out.results.map((r) => r.url)).toEqual([...one.results, ...two.results].slice(0, 15).map((r) => r.url));
  });

  it('asks the instance for only what a plain full search returns, and for more when reranking will choose', async () => {
    const requestsFor = async (body: Record<string, unknown>) => {
      const before = web.requests.filter((r) => r.path.startsWith('/search?')).length;
      await t.engine.search.run(alice, { query: 'news', max_results: 5, ...body });
      return web.requests.filter((r) => r.path.startsWith('/search?')).length - before;
    };
    expect((await direct('news')).results.length).toBeGreaterThan(5);
    expect(await requestsFor({})).toBe(1);
    expect(await requestsFor({ rerank_results: true })).toBe(2);
  });

  it('keeps to include_domains and drops exclude_domains (host and port)', async () => {
    const newsHost = new URL(web.news).host;
    const only = await t.engine.search.quick(alice, { query: 'report', include_domains: [newsHost] });
    expect(only.results.length).toBeGreaterThan(0);
    expect(only.results.every((r) => new URL(r.url).host === newsHost)).toBe(true);
    const without = await t.engine.search.quick(alice, { query: 'report', exclude_domains: [newsHost] });
    expect(without.results.some((r) => new URL(r.url).host === newsHost)).toBe(false);
  });

  it('runs a full search with published dates, source types and a cited summary', async () => {
    const job = (await t.engine.search.search(alice, { query: 'report', processing_mode: 'sync', max_results: 5, generate_suggestions: true })) as SearchJob;
    expect(job.status).toBe('completed');
    expect(job.provider).toBe('searxng');
    expect(job.results).toHaveLength(5);
    const newsResults = job.results.filter((r) => r.url.startsWith(web.news));
    expect(newsResults.length).toBeGreaterThan(0);
    expect(newsResults.every((r) => r.published_date !== null)).toBe(true);
    for (const c of job.summary?.citations ?? []) expect(job.results[c.marker - 1]!.url).toBe(c.url);
    expect(job.credits.consumed).toBe(2);
  });

  it('fetches web results into the local index so local search finds them', async () => {
    const found = await t.engine.search.quick(alice, { query: 'espresso grinder', max_results: 3 });
    const indexed = await t.engine.search.fetchIntoIndex(found.results.map((r) => r.url));
    expect(indexed).toHaveLength(3);
    const local = await t.engine.search.index.search({ query: 'espresso grinder', limit: 10, visibility: await t.engine.search.visibility(alice) });
    expect(local.map((h) => h.url).sort()).toEqual([...indexed].sort());
    expect((await t.engine.search.overview(alice)).statistics.indexed_pages_public).toBe(3);
  });
});

describe('a failing provider', () => {
  let deadUrl: string;
  beforeAll(async () => {
    const server = createServer((_req, res) => res.writeHead(500).end('boom'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    deadUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  });

  it('answers 502 to a quick search and refunds its credit', async () => {
    const e = openTestEngine({ searxngUrl: deadUrl, searchProvider: 'searxng' });
    const bob = await principalOf(e.engine, 'bob@x.test');
    try {
      const error = await e.engine.search.quick(bob, { query: 'x' }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(WvrError);
      expect((error as WvrError).status).toBe(502);
      expect((error as WvrError).code).toBe('search_provider_failed');
      expect(await e.engine.credits.balance(bob.userId)).toBe(100);
    } finally {
      await e.dispose();
    }
  });

  it('marks a full search failed and gives its credits back', async () => {
    const e = openTestEngine({ searxngUrl: deadUrl, searchProvider: 'searxng' });
    const bob = await principalOf(e.engine, 'bob@x.test');
    try {
      const job = (await e.engine.search.search(bob, { query: 'x', rerank_results: true, processing_mode: 'sync' })) as SearchJob;
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(/HTTP 500/);
      expect(await e.engine.credits.balance(bob.userId)).toBe(100);
    } finally {
      await e.dispose();
    }
  });
});
