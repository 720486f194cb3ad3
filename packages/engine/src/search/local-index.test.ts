import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import { WvrError } from '../core/errors.js';
import type { LocalIndex, Visibility } from './local-index.js';

let t: TestEngine;
let index: LocalIndex;
const anyone: Visibility = { userId: 'nobody', sharedCrawlIds: [] };
const page = (url: string, extra: Partial<Parameters<LocalIndex['upsert']>[0]> = {}) =>
  index.upsert({ url, ownerUserId: null, fetchedAt: '2026-03-10T12:00:00Z', ...extra });

beforeEach(() => {
  t = openTestEngine();
  index = t.engine.search.index;
});
afterEach(() => t.dispose());

describe('LocalIndex', () => {
  it('ranks a title match above the same word in the body', async () => {
    await page('http://a.test/body', { title: 'General notes', text: 'Something about a heron in the marsh.' });
    await page('http://b.test/title', { title: 'Heron', text: 'Birds of the wetland and their habits.' });
    expect((await index.search({ query: 'heron', limit: 5, visibility: anyone })).map((h) => h.url)).toEqual(['http://b.test/title', 'http://a.test/body']);
  });

  it('indexes a group of pages in one call, each copy in its own scope, and none when one page is invalid', async () => {
    const at = '2026-03-10T12:00:00Z';
    const stored = await index.upsertMany([
      { url: 'http://a.test/owl', title: 'Owl', ownerUserId: null, fetchedAt: at },
      { url: 'http://a.test/owl', title: 'Owl', ownerUserId: 'u1', crawlId: 'c1', fetchedAt: at },
    ]);
    expect(stored.map((p) => p.scope)).toEqual(['public', 'crawl:c1']);
    expect(() => index.upsertMany([{ url: 'http://a.test/wren', title: 'Wren', ownerUserId: null, fetchedAt: at }, { url: 'ftp://x', ownerUserId: null, fetchedAt: at }])).toThrow(WvrError);
    expect(await index.search({ query: 'wren', limit: 5, visibility: anyone })).toEqual([]);
    expect(await index.counts('u1')).toEqual({ own_pages: 1, public_pages: 1 });
  });

  it('finds pages by the anchor text pointing at them and by URL tokens', async () => {
    await page('http://a.test/p1', { title: 'Page one', anchorTexts: ['quarterly earnings report'] });
    await page('http://a.test/rate-limits', { title: 'Page two' });
    expect((await index.search({ query: 'earnings', limit: 5, visibility: anyone })).map((h) => h.url)).toEqual(['http://a.test/p1']);
    expect((await index.search({ query: 'rate limits', limit: 5, visibility: anyone })).map((h) => h.url)).toEqual(['http://a.test/rate-limits']);
  });

  it('prefers pages with every term, then fills with pages having any', async () => {
    await page('http://a.test/both', { title: 'Solar', text: 'solar panels and batteries' });
    await page('http://a.test/one', { title: 'Panels', text: 'wooden panels' });
    expect((await index.search({ query: 'solar batteries', limit: 5, visibility: anyone })).map((h) => h.url)).toEqual(['http://a.test/both']);
    expect((await index.search({ query: 'solar panels', limit: 5, visibility: anyone })).map((h) => h.url)).toEqual(['http://a.test/both', 'http://a.test/one']);
  });

  it('gives a snippet of the body around the query terms', async () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(40);
    await page('http://a.test/x', { title: 'X', text: `${filler} the zeppelin landed safely ${filler}` });
    const [hit] = await index.search({ query: 'zeppelin', limit: 1, visibility: anyone });
    expect(hit!.snippet).toContain('zeppelin');
    expect(hit!.snippet.length).toBeLessThan(300);
  });

  it('filters by domain, subdomains included', async () => {
    await page('http://docs.a.test/x', { title: 'Kiwi' });
    await page('http://b.test/x', { title: 'Kiwi' });
    expect((await index.search({ query: 'kiwi', limit: 5, visibility: anyone, includeDomains: ['a.test'] })).map((h) => h.domain)).toEqual(['docs.a.test']);
    expect((await index.search({ query: 'kiwi', limit: 5, visibility: anyone, excludeDomains: ['a.test'] })).map((h) => h.domain)).toEqual(['b.test']);
  });

  it('replaces a page on re-index within its scope and removes a crawl’s pages', async () => {
    await page('http://a.test/x', { title: 'Old walrus', ownerUserId: 'u1', crawlId: 'c1' });
    await page('http://a.test/x', { title: 'New walrus', ownerUserId: 'u1', crawlId: 'c1' });
    const me: Visibility = { userId: 'u1', sharedCrawlIds: [] };
    expect((await index.search({ query: 'walrus', limit: 5, visibility: me })).map((h) => h.title)).toEqual(['New walrus']);
    expect(await index.removeCrawl('c1')).toBe(1);
    expect(await index.search({ query: 'walrus', limit: 5, visibility: me })).toEqual([]);
  });

  it('never shows a private page to another user, but shows crawls shared with them', async () => {
    await page('http://a.test/secret', { title: 'Secret otter plans', ownerUserId: 'u1', crawlId: 'c1' });
    await page('http://a.test/public', { title: 'Public otter facts' });
    const titles = async (v: Visibility) => (await index.search({ query: 'otter', limit: 5, visibility: v })).map((h) => h.title).sort();
    expect(await titles({ userId: 'u1', sharedCrawlIds: [] })).toEqual(['Public otter facts', 'Secret otter plans']);
    expect(await titles({ userId: 'u2', sharedCrawlIds: [] })).toEqual(['Public otter facts']);
    expect(await titles({ userId: 'u2', sharedCrawlIds: ['c1'] })).toEqual(['Public otter facts', 'Secret otter plans']);
  });

  it('returns a URL once when the caller sees it through two scopes', async () => {
    await page('http://a.test/x', { title: 'Lynx' });
    await page('http://a.test/x', { title: 'Lynx', ownerUserId: 'u1', crawlId: 'c1' });
    expect(await index.search({ query: 'lynx', limit: 5, visibility: { userId: 'u1', sharedCrawlIds: [] } })).toHaveLength(1);
  });

  it('treats FTS5 operators in the query as plain words', async () => {
    await page('http://a.test/x', { title: 'NEAR and OR' });
    await expect(index.search({ query: '"unbalanced ( NEAR* OR', limit: 5, visibility: anyone })).resolves.toEqual(expect.any(Array));
  });

  it('rejects a page without a valid URL or owner field', () => {
    expect(() => index.upsert({ url: 'ftp://x', ownerUserId: null, fetchedAt: 0 })).toThrow(WvrError);
    expect(() => index.upsert({ url: 'http://x.test', fetchedAt: 0 } as never)).toThrow(WvrError);
  });

  it('reads a page\'s full text only for those who may see it, preferring their own copy to the public one', async () => {
    const long = `${'The opening paragraph. '.repeat(50)}The closing sentence mentions herons.`;
    await page('http://a.test/report', { title: 'Public copy', text: 'Old public text.' });
    await page('http://a.test/report', { title: 'Alice copy', text: long, ownerUserId: 'alice' });
    await page('http://a.test/crawled', { title: 'Crawled', text: 'From a crawl.', ownerUserId: 'carol', crawlId: 'crawl-1' });
    expect(await index.page('http://a.test/report', { userId: 'alice', sharedCrawlIds: [] })).toMatchObject({ title: 'Alice copy', text: long });
    expect(await index.page('http://a.test/report', anyone)).toMatchObject({ title: 'Public copy', text: 'Old public text.' });
    expect(await index.page('http://a.test/crawled', anyone)).toBeNull();
    expect(await index.page('http://a.test/crawled', { userId: 'dave', sharedCrawlIds: ['crawl-1'] })).toMatchObject({ text: 'From a crawl.' });
    expect(await index.page('http://a.test/missing', { userId: 'alice', sharedCrawlIds: [] })).toBeNull();
  });
});
