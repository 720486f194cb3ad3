import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseHtml } from '../html/index.js';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import { parseInput } from '../core/validate.js';
import { indexEntry } from './index-entry.js';
import { pageRecord, type Visibility } from './local-index.js';
import { IndexPageInput, MAX_INDEXED_TITLE } from './schemas.js';
import { clip } from './text.js';

let t: TestEngine;
beforeEach(() => {
  t = openTestEngine();
});
afterEach(() => t.dispose());

const anyone: Visibility = { userId: 'nobody', sharedCrawlIds: [] };
const read = (body: string, title = 'Kingfishers') => parseHtml(`<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`, 'http://a.test/birds');

describe('a page read off the web, as the index keeps it', () => {
  it('is the record the validated path would store, found by its words, in its crawl’s scope', async () => {
    const page = read('<p>The common kingfisher hunts from a perch above slow water, diving for small fish.</p>');
    const as = { url: 'http://a.test/birds', ownerUserId: 'u1', crawlId: 'c1', anchorTexts: ['river birds'], fetchedAt: Date.parse('2026-03-10T12:00:00Z') };
    const entry = indexEntry(page, as)!;
    // What upsert would make of the same page handed over as a caller's input.
    const input = { ...as, title: page.title ?? '', description: page.description ?? '', text: page.text, headings: page.headings.map((h) => h.text), language: page.language };
    expect(entry).toEqual(pageRecord(parseInput(IndexPageInput, input)));
    expect(entry).toMatchObject({ scope: 'crawl:c1', domain: 'a.test', title: 'Kingfishers', fetchedAt: '2026-03-10T12:00:00.000Z' });
    const index = t.engine.search.index;
    expect(await index.put([entry])).toEqual([{ id: expect.any(Number), url: 'http://a.test/birds', scope: 'crawl:c1' }]);
    const shared: Visibility = { userId: 'u3', sharedCrawlIds: ['c1'] };
    expect((await index.search({ query: 'kingfisher perch', limit: 5, visibility: shared })).map((h) => h.url)).toEqual(['http://a.test/birds']);
    expect(await index.search({ query: 'kingfisher', limit: 5, visibility: anyone })).toEqual([]);
  });

  it('is refused for a URL the index cannot take, and keeps the beginning of an overlong title', () => {
    const page = read('<p>Short.</p>', 'kingfisher '.repeat(400));
    const at = { ownerUserId: null, fetchedAt: 0 };
    expect(indexEntry(page, { url: 'http://user:secret@a.test/birds', ...at })).toBeNull();
    expect(indexEntry(page, { url: `http://a.test/${'x'.repeat(5_000)}`, ...at })).toBeNull();
    expect(indexEntry(page, { url: 'ftp://a.test/birds', ...at })).toBeNull();
    expect(indexEntry(page, { url: 'http://a.test/birds', ...at })!.title).toHaveLength(MAX_INDEXED_TITLE);
  });

  it('cuts a body at its cap without splitting a surrogate pair (the index refuses half of one)', () => {
    expect(clip(`${'a'.repeat(9)}😀`, 10)).toBe('a'.repeat(9));
    // The paragraph put so that the emoji's first half is the body's 200,000th unit.
    const before = read('<p>x</p>').text.indexOf('x');
    const page = read(`<p>${'a'.repeat(199_999 - before)}😀 and more</p>`);
    expect(page.text.charCodeAt(199_999)).toBe(0xd83d);
    const entry = indexEntry(page, { url: 'http://a.test/birds', ownerUserId: null, fetchedAt: 0 })!;
    expect(entry.body).toBe(page.text.slice(0, 199_999));
  });
});
