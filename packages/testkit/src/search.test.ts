import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from './index.js';
import { queryTerms, relevance, type SearxngResponse } from './search.js';

describe('the SearXNG-compatible search origin', () => {
  let web: LocalWeb;
  beforeAll(async () => {
    web = await startLocalWeb({ seed: 21, sizes: { products: 3_000, articles: 60, docsDepth: 3 } });
  });
  afterAll(() => web.close());

  const search = async (params: Record<string, string>) => {
    const res = await fetch(`${web.search}/search?${new URLSearchParams(params)}`);
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
  };
  const results = async (q: string, extra: Record<string, string> = {}) => JSON.parse((await search({ q, format: 'json', ...extra })).body) as SearxngResponse;

  /** The same ranking computed the slow way: every content page of the truth, no pruning. */
  const exhaustive = (q: string) => {
    const terms = queryTerms(q);
    return web.truth.contentUrls()
      .map((url) => {
        const page = web.truth.page(url)!;
        const [title, content] = page.kind === 'product' ? [page.product.name, page.product.description.slice(0, 150)]
          : page.kind === 'article' ? [page.article.headline, page.article.description] : [page.doc.title, page.doc.description];
        return { url, score: relevance(terms, title, content) };
      })
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score || (a.url < b.url ? -1 : 1));
  };

  it('answers in the SearXNG JSON shape', async () => {
    const res = await search({ q: 'espresso grinder', format: 'json' });
    expect(res.status).toBe(200);
    expect(res.type).toContain('application/json');
    const body = JSON.parse(res.body) as SearxngResponse;
    expect(Object.keys(body).sort()).toEqual(['answers', 'corrections', 'infoboxes', 'number_of_results', 'query', 'results', 'suggestions', 'unresponsive_engines']);
    expect(body.query).toBe('espresso grinder');
    expect(body.results.length).toBe(10);
    expect(body.results[0]).toMatchObject({ engine: 'catalogue', engines: ['catalogue'], category: 'general', positions: [1], publishedDate: null, template: 'default.html' });
    expect(typeof body.results[0]!.title).toBe('string');
    expect(typeof body.results[0]!.content).toBe('string');
  });

  it('ranks the known relevant products first for an intent', async () => {
    const intent = 'noise cancelling wireless headphones';
    const category = web.truth.categoryForIntent(intent)!;
    const relevant = new Set(web.truth.relevantUrls(category.slug));
    const body = await results(intent);
    expect(body.results.map((r) => r.url).filter((url) => relevant.has(url)).length).toBe(10);
    const scores = body.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(body.number_of_results).toBeGreaterThan(relevant.size);
  });

  it('counts and orders exactly like an exhaustive scan over every page', async () => {
    for (const q of ['noise cancelling wireless headphones', 'durable garden hose', 'telescope climate', 'configure cluster', 'Norda 512', 'reliable']) {
      const expected = exhaustive(q);
      const body = await results(q);
      expect(body.number_of_results, q).toBe(expected.length);
      expect(body.results.map((r) => r.url), q).toEqual(expected.slice(0, 10).map((r) => r.url));
    }
  });

  it('pages through results with pageno without overlap', async () => {
    const first = await results('cooking kettle');
    const second = await results('cooking kettle', { pageno: '2' });
    expect(second.results[0]!.positions).toEqual([11]);
    expect(second.results.map((r) => r.url)).toEqual(exhaustive('cooking kettle').slice(10, 20).map((r) => r.url));
    expect(second.results.some((r) => first.results.some((f) => f.url === r.url))).toBe(false);
  });

  it('filters by SearXNG category: news results carry their publication date', async () => {
    const body = await results('telescope markets software', { categories: 'news' });
    expect(body.results.length).toBeGreaterThan(0);
    for (const r of body.results) {
      expect(r.category).toBe('news');
      expect(r.url.startsWith(web.news)).toBe(true);
      const page = web.truth.page(r.url);
      expect(page?.kind).toBe('article');
      if (page?.kind === 'article') expect(r.publishedDate).toBe(page.article.published);
    }
  });

  it('follows the version knob: removed products vanish and new articles appear', async () => {
    const removed = web.truth.product(34)!;
    expect((await results(removed.name)).results.map((r) => r.url)).toContain(web.truth.productUrl(34));
    web.setVersion(2);
    try {
      const after = await results(removed.name, { pageno: '1' });
      expect(after.results.map((r) => r.url)).not.toContain(`${web.catalogue}${removed.path}`);
      const added = web.truth.article(63)!;
      expect((await results(added.headline, { categories: 'news' })).results.map((r) => r.url)).toContain(web.news + added.path);
    } finally {
      web.setVersion(1);
    }
  });

  it('refuses formats other than json with 403 as a SearXNG instance does, and a missing query with 400', async () => {
    expect((await search({ q: 'kettle', format: 'html' })).status).toBe(403);
    expect((await search({ q: 'kettle' })).status).toBe(403);
    expect((await search({ q: 'kettle', format: 'csv' })).status).toBe(403);
    const missing = await search({ format: 'json' });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body)).toEqual({ error: 'No query' });
    expect((await search({ q: 'kettle', format: 'json', pageno: 'zero' })).status).toBe(400);
  });
});
