import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PgExecutor } from './pg/executor.js';
import { PgSearchIndex } from './pg/search-index.js';
import { usePostgres } from './pg/testing.js';
import type { IndexedPageRecord, SearchIndexPort } from './ports/search.js';
import { createSqliteStore } from './sqlite/index.js';
import { openDatabase } from './sqlite/open.js';
import { LocalIndex, type IndexQuery } from '../search/local-index.js';

/**
 * The search index on both drivers, one golden set: FTS5's BM25 and PostgreSQL's weighted
 * tsvector must put the same pages in the same order for these queries, through the search
 * capability's own index logic (both passes, one copy per URL, snippets).
 */
const pg = usePostgres('search', { max: 4 });

const drivers: [string, () => SearchIndexPort][] = [
  ['SQLite FTS5', () => {
    const { sqlite, db } = openDatabase(join(mkdtempSync(join(tmpdir(), 'wvr-search-')), 'wvr.db'));
    return createSqliteStore(sqlite, db).searchIndex;
  }],
  ['PostgreSQL', () => new PgSearchIndex(new PgExecutor(pg.pool))],
];

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

const query = (terms: string[], extra: Partial<IndexQuery> = {}): IndexQuery => ({
  query: terms.join(' '),
  limit: 10,
  visibility: { userId: 'u1', sharedCrawlIds: [] },
  ...extra,
});

describe.each(drivers)('the search index on %s', (_name, open) => {
  let driver: SearchIndexPort;
  let index: LocalIndex;
  beforeAll(async () => {
    driver = open();
    index = new LocalIndex(driver);
    // One group, as a crawl commits them: one call, one transaction.
    const ids = await driver.put([
      page('https://garden.test/tools', { title: 'Garden tools', body: 'Rakes, spades and hoses for every garden.', schemaTypes: ['Product'] }),
      page('https://blog.test/spring', { title: 'Spring notes', body: 'We spent the weekend in the garden planting tulips.' }),
      page('https://shop.test/hoses', { title: 'Hoses', headings: ['Garden hoses'], body: 'Hoses of every length.' }),
      page('https://private.test/plan', { title: 'Garden plan', body: 'my garden', scope: 'user:u2', ownerUserId: 'u2' }),
    ]);
    expect(new Set(ids).size).toBe(4);
  }, 60_000);

  it('ranks a title match above a heading match above a body match, with a snippet from the body', async () => {
    const hits = await index.search(query(['garden']));
    expect(hits.map((h) => h.url)).toEqual(['https://garden.test/tools', 'https://shop.test/hoses', 'https://blog.test/spring']);
    expect(hits[0]!.snippet).toContain('garden');
    expect(hits[0]!.schemaTypes).toEqual(['Product']);
    expect(hits[0]!.bm25).toBeGreaterThan(hits[2]!.bm25);
  });

  it('requires every term first, then fills with pages holding any', async () => {
    const hits = await index.search(query(['garden', 'tulips'], { limit: 2 }));
    expect(hits[0]!.url).toBe('https://blog.test/spring');
    expect(hits).toHaveLength(2);
  });

  it('never shows another user’s private copy, and shows the owner theirs', async () => {
    expect((await index.search(query(['plan']))).map((h) => h.url)).toEqual([]);
    const own = await index.search(query(['plan'], { visibility: { userId: 'u2', sharedCrawlIds: [] } }));
    expect(own.map((h) => h.url)).toEqual(['https://private.test/plan']);
  });

  it('filters by domain and subdomain', async () => {
    const only = await index.search(query(['garden'], { includeDomains: ['shop.test'] }));
    expect(only.map((h) => h.url)).toEqual(['https://shop.test/hoses']);
    const without = await index.search(query(['garden'], { excludeDomains: ['garden.test'] }));
    expect(without.map((h) => h.url)).not.toContain('https://garden.test/tools');
  });

  it('replaces a scope’s copy in place, and drops a crawl’s pages with their text', async () => {
    await driver.put([page('https://crawl.test/a', { title: 'Orchids', scope: 'crawl:c1', crawlId: 'c1', ownerUserId: 'u1' })]);
    await driver.put([page('https://crawl.test/a', { title: 'Cacti', scope: 'crawl:c1', crawlId: 'c1', ownerUserId: 'u1' })]);
    expect(await index.search(query(['orchids']))).toEqual([]);
    expect((await index.search(query(['cacti']))).map((h) => h.url)).toEqual(['https://crawl.test/a']);
    expect((await driver.page('https://crawl.test/a', { userId: 'u1', sharedCrawlIds: [] }))?.title).toBe('Cacti');
    expect(await driver.counts('u1')).toEqual({ own_pages: 1, public_pages: 3 });
    expect(await driver.removeCrawl('c1')).toBe(1);
    expect(await index.search(query(['cacti']))).toEqual([]);
    expect(await driver.counts('u1')).toEqual({ own_pages: 0, public_pages: 3 });
  });
});

describe('the SQLite index given one page twice in a call', () => {
  it('keeps the last copy and none of the first copy’s text (a full-text row for the replaced row would linger)', async () => {
    const { sqlite, db } = openDatabase(join(mkdtempSync(join(tmpdir(), 'wvr-search-')), 'wvr.db'));
    const driver = createSqliteStore(sqlite, db).searchIndex;
    const crawl = { scope: 'crawl:c2', crawlId: 'c2', ownerUserId: 'u1' };
    await driver.put([page('https://crawl.test/b', { ...crawl, title: 'Ferns' }), page('https://crawl.test/c', { ...crawl, title: 'Lichens' }), page('https://crawl.test/b', { ...crawl, title: 'Mosses' })]);
    const count = (sql: string) => sqlite.prepare(sql).pluck().get() as number;
    expect(count("SELECT count(*) FROM search_fts WHERE search_fts MATCH 'ferns'")).toBe(0);
    expect(count("SELECT count(*) FROM search_fts WHERE search_fts MATCH 'mosses OR lichens'")).toBe(2);
    expect(count('SELECT count(*) FROM search_fts')).toBe(count('SELECT count(*) FROM search_pages'));
    expect((await driver.page('https://crawl.test/b', { userId: 'u1', sharedCrawlIds: [] }))?.title).toBe('Mosses');
  });
});
