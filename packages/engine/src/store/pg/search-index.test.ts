import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type PgDatabase } from './client.js';
import { PgExecutor } from './executor.js';
import { PgSearchIndex, type IndexedPageRecord, type IndexMatch } from './search-index.js';
import { freshDatabase, type TestDatabase } from './testing.js';

let database: TestDatabase;
let store: PgDatabase;
let index: PgSearchIndex;

beforeAll(async () => {
  database = await freshDatabase('search');
  store = await openPostgres(database.url, { max: 4 });
  index = new PgSearchIndex(new PgExecutor(store.pool));
}, 120_000);

afterAll(async () => {
  await store?.close();
  await database?.drop();
}, 60_000);

function page(url: string, fields: Partial<IndexedPageRecord> = {}): IndexedPageRecord {
  const { hostname, pathname } = new URL(url);
  return {
    url,
    scope: 'public',
    ownerUserId: null,
    crawlId: null,
    domain: hostname,
    title: '',
    description: '',
    headings: [],
    body: '',
    urlTokens: `${hostname} ${pathname}`.replace(/[^a-z0-9]+/gi, ' '),
    anchorTexts: [],
    schemaTypes: [],
    publishedDate: null,
    language: 'en',
    fetchedAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

const query = (terms: string[], extra: Partial<IndexMatch> = {}): IndexMatch => ({
  terms,
  optionalTerms: [],
  limit: 10,
  visibility: { userId: 'u1', sharedCrawlIds: [] },
  includeDomains: [],
  excludeDomains: [],
  ...extra,
});

describe('PgSearchIndex', () => {
  beforeAll(async () => {
    await index.put(page('https://garden.test/tools', { title: 'Garden tools', body: 'Rakes, spades and hoses for every garden.', schemaTypes: ['Product'] }));
    await index.put(page('https://blog.test/spring', { title: 'Spring notes', body: 'We spent the weekend in the garden planting tulips.' }));
    await index.put(page('https://shop.test/hoses', { title: 'Hoses', headings: ['Garden hoses'], body: 'Hoses of every length.' }));
    await index.put(page('https://private.test/plan', { title: 'Garden plan', body: 'my garden', scope: 'user:u2', ownerUserId: 'u2' }));
  }, 60_000);

  it('ranks a title match above a heading match above a body match, with a snippet from the body', async () => {
    const hits = await index.match(query(['garden']));
    expect(hits.map((h) => h.url)).toEqual(['https://garden.test/tools', 'https://shop.test/hoses', 'https://blog.test/spring']);
    expect(hits[0]!.snippet).toContain('garden');
    expect(hits[0]!.schemaTypes).toEqual(['Product']);
    expect(hits[0]!.bm25).toBeGreaterThan(hits[2]!.bm25);
  });

  it('requires every term first, then fills with pages holding any', async () => {
    const hits = await index.match(query(['garden', 'tulips'], { limit: 2 }));
    expect(hits[0]!.url).toBe('https://blog.test/spring');
    expect(hits).toHaveLength(2);
  });

  it('never shows another user’s private copy, and shows the owner theirs', async () => {
    expect((await index.match(query(['plan']))).map((h) => h.url)).toEqual([]);
    const own = await index.match(query(['plan'], { visibility: { userId: 'u2', sharedCrawlIds: [] } }));
    expect(own.map((h) => h.url)).toEqual(['https://private.test/plan']);
  });

  it('filters by domain and subdomain', async () => {
    const only = await index.match(query(['garden'], { includeDomains: [{ domain: 'shop.test', anyPort: true }] }));
    expect(only.map((h) => h.url)).toEqual(['https://shop.test/hoses']);
    const without = await index.match(query(['garden'], { excludeDomains: [{ domain: 'garden.test', anyPort: true }] }));
    expect(without.map((h) => h.url)).not.toContain('https://garden.test/tools');
  });

  it('replaces a scope’s copy in place, and drops a crawl’s pages with their text', async () => {
    await index.put(page('https://crawl.test/a', { title: 'Orchids', scope: 'crawl:c1', crawlId: 'c1', ownerUserId: 'u1' }));
    await index.put(page('https://crawl.test/a', { title: 'Cacti', scope: 'crawl:c1', crawlId: 'c1', ownerUserId: 'u1' }));
    expect(await index.match(query(['orchids']))).toEqual([]);
    expect((await index.match(query(['cacti']))).map((h) => h.url)).toEqual(['https://crawl.test/a']);
    expect((await index.page('https://crawl.test/a', { userId: 'u1', sharedCrawlIds: [] }))?.title).toBe('Cacti');
    expect(await index.counts('u1')).toEqual({ own_pages: 1, public_pages: 3 });
    expect(await index.removeCrawl('c1')).toBe(1);
    expect(await index.match(query(['cacti']))).toEqual([]);
    expect(Number((await store.pool.query('SELECT count(*) AS n FROM search_fts')).rows[0].n)).toBe(4);
  });
});
