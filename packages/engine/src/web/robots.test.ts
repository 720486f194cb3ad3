import { describe, expect, it } from 'vitest';
import { parseRobots, productToken } from './robots.js';

const UA = 'wvr/0.1.0';

describe('parseRobots', () => {
  it('obeys the group naming our product token over the * group', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: WVR\nDisallow: /private/\n', UA);
    expect(robots.isAllowed('/public')).toBe(true);
    expect(robots.isAllowed('/private/x')).toBe(false);
  });

  it('lets consecutive user-agent lines share one group of rules', () => {
    const robots = parseRobots('User-agent: other\nUser-agent: wvr\nDisallow: /a\n', UA);
    expect(robots.isAllowed('/a/b')).toBe(false);
  });

  it('picks the longest matching rule and lets Allow win a tie', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /shop\nAllow: /shop/public\nDisallow: /tie\nAllow: /tie\n', UA);
    expect(robots.isAllowed('/shop/cart')).toBe(false);
    expect(robots.isAllowed('/shop/public/item')).toBe(true);
    expect(robots.isAllowed('/tie')).toBe(true);
  });

  it('supports * wildcards and the $ end anchor', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?sessionid=\n', UA);
    expect(robots.isAllowed('/files/report.pdf')).toBe(false);
    expect(robots.isAllowed('/files/report.pdf?download=1')).toBe(true);
    expect(robots.isAllowed('/page?sessionid=1')).toBe(false);
    expect(robots.isAllowed('/page?id=1')).toBe(true);
  });

  it('treats an empty Disallow as allowing everything and always allows /robots.txt', () => {
    expect(parseRobots('User-agent: *\nDisallow:\n', UA).isAllowed('/anything')).toBe(true);
    expect(parseRobots('User-agent: *\nDisallow: /\n', UA).isAllowed('/robots.txt')).toBe(true);
  });

  it('reads Crawl-delay and Sitemap lines and ignores comments', () => {
    const robots = parseRobots('# hi\nUser-agent: * # everyone\nCrawl-delay: 2.5\nDisallow: /x # no\nSitemap: https://e.test/s.xml\n', UA);
    expect(robots.crawlDelaySeconds).toBe(2.5);
    expect(robots.sitemaps).toEqual(['https://e.test/s.xml']);
    expect(robots.isAllowed('/x')).toBe(false);
  });

  it('matches percent-escapes of unreserved characters either way', () => {
    expect(parseRobots('User-agent: *\nDisallow: /%7Ejoe/\n', UA).isAllowed('/~joe/page')).toBe(false);
  });

  it('derives the product token from a versioned user agent', () => {
    expect(productToken('wvr/0.1.0 (+https://example.com)')).toBe('wvr');
  });
});
