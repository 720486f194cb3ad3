import { describe, expect, it } from 'vitest';
import { isJunkPath, junkLinks, robotsTxt, sitemapIndex, urlset } from './robots.js';

describe('robots and sitemaps', () => {
  it('writes Disallow lines, an optional Crawl-delay and absolute Sitemap lines', () => {
    const body = String(robotsTxt({ origin: 'http://127.0.0.1:9', disallow: ['/private/'], crawlDelaySeconds: 1.5 }).body);
    expect(body).toBe('User-agent: *\nDisallow: /private/\nCrawl-delay: 1.5\n\nSitemap: http://127.0.0.1:9/sitemap-index.xml\nSitemap: http://127.0.0.1:9/sitemap.xml\n');
    expect(String(robotsTxt({ origin: 'http://x', disallow: [] }).body)).not.toContain('Crawl-delay');
  });

  it('escapes locations in urlsets and sitemap indexes', () => {
    expect(String(urlset('http://x', [{ path: '/a?b=1&c=2', lastmod: '2026-01-01' }]).body)).toContain('<url><loc>http://x/a?b=1&amp;c=2</loc><lastmod>2026-01-01</lastmod></url>');
    expect(String(sitemapIndex('http://x', ['/s.xml']).body)).toContain('<sitemap><loc>http://x/s.xml</loc></sitemap>');
  });

  it('names junk paths the sites serve behind their junk links', () => {
    const links = [...junkLinks('/product/1-a', 1).matchAll(/href="([^"?]+)/g)].map((m) => m[1]!);
    expect(links.filter(isJunkPath)).toEqual(['/login', '/cart', '/share', '/print/product/1-a', '/private/staff']);
    expect(isJunkPath('/product/1-a')).toBe(false);
  });
});
