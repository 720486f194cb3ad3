import { describe, expect, it } from 'vitest';
import { applySessionUrlRules } from './filter.js';

const items = [{ url: 'https://a.test/1' }, { url: 'https://a.test/2' }, { url: 'https://a.test/1' }, { url: 'https://a.test/3' }];
const seen = new Set(['https://a.test/2']);

describe('applySessionUrlRules', () => {
  it('drops seen URLs when filter_seen_urls is set and counts them', () => {
    const out = applySessionUrlRules(items, { seenUrls: seen, filterSeenUrls: true, autoDeduplicate: true });
    expect(out.kept.map((i) => i.url)).toEqual(['https://a.test/1', 'https://a.test/3']);
    expect([out.filtered, out.duplicates]).toEqual([1, 1]);
  });

  it('keeps seen URLs without filter_seen_urls and keeps repeats without auto_deduplicate', () => {
    const out = applySessionUrlRules(items, { seenUrls: seen, filterSeenUrls: false, autoDeduplicate: false });
    expect(out.kept).toHaveLength(4);
    expect([out.filtered, out.duplicates]).toEqual([0, 0]);
  });

  it('matches exact URLs only: a trailing slash or fragment is a different URL', () => {
    const out = applySessionUrlRules([{ url: 'https://a.test/2/' }, { url: 'https://a.test/2#x' }], { seenUrls: seen, filterSeenUrls: true, autoDeduplicate: true });
    expect(out.kept).toHaveLength(2);
  });
});
