import { describe, expect, it } from 'vitest';
import { decodeXmlText, scanSitemap } from './sitemap-scan.js';

describe('scanSitemap', () => {
  it('reads loc and lastmod of a urlset, entities and CDATA decoded, extension elements ignored', () => {
    const scan = scanSitemap(`<?xml version="1.0" encoding="UTF-8"?>
<!-- generated -->
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc> https://example.com/a?x=1&amp;y=2 </loc>
    <lastmod>2026-01-31</lastmod>
    <image:image><image:loc>https://example.com/a.jpg</image:loc></image:image>
  </url>
  <url><loc><![CDATA[https://example.com/b?q=</b>&r]]></loc></url>
  <url><lastmod>2026-02-01</lastmod></url>
  <url/>
</urlset>`);
    expect(scan).toEqual({
      kind: 'urlset',
      complete: true,
      skipped: 0,
      entries: [
        { loc: 'https://example.com/a?x=1&y=2', lastmod: '2026-01-31' },
        { loc: 'https://example.com/b?q=</b>&r', lastmod: null },
      ],
    });
  });

  it('reads a sitemap index with a prefixed root', () => {
    const scan = scanSitemap('<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://x/s1.xml</sm:loc><sm:lastmod>2026-03-01T10:00:00Z</sm:lastmod></sm:sitemap></sm:sitemapindex>');
    expect(scan.kind).toBe('sitemapindex');
    expect(scan.entries).toEqual([{ loc: 'https://x/s1.xml', lastmod: '2026-03-01T10:00:00Z' }]);
  });

  it('keeps the entries before the point where a file is cut off, and says it is incomplete', () => {
    const scan = scanSitemap('<urlset><url><loc>https://x/1</loc></url><url><loc>https://x/2</loc></url><url><loc>https://x/3');
    expect(scan.kind).toBe('urlset');
    expect(scan.complete).toBe(false);
    expect(scan.entries.map((e) => e.loc)).toEqual(['https://x/1', 'https://x/2']);
  });

  it('is not a sitemap: an HTML page, an RSS root, prose', () => {
    expect(scanSitemap('<!doctype html><html><body><a href="/x">x</a></body></html>').kind).toBeNull();
    expect(scanSitemap('<rss><channel></channel></rss>').kind).toBeNull();
    expect(scanSitemap('Not found, sorry.').kind).toBeNull();
  });

  it('reads the plain-text form, one URL a line', () => {
    const scan = scanSitemap('https://x/1\r\n\r\nhttps://x/2\n');
    expect(scan).toMatchObject({ kind: 'text', complete: true, entries: [{ loc: 'https://x/1' }, { loc: 'https://x/2' }] });
  });

  it('stops at the entry cap and counts what it skipped', () => {
    const body = `<urlset>${Array.from({ length: 5 }, (_, i) => `<url><loc>https://x/${i}</loc></url>`).join('')}</urlset>`;
    const scan = scanSitemap(body, 3);
    expect(scan.entries).toHaveLength(3);
    expect(scan.skipped).toBe(2);
  });

  it('decodes numeric references and leaves unknown entities as written', () => {
    expect(decodeXmlText('caf&#233; &#x41; &nbsp; &amp;amp;')).toBe('café A &nbsp; &amp;');
  });
});
