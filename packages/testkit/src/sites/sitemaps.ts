import { gzipSync } from 'node:zlib';
import { escapeHtml } from '../random.js';
import { sitemapIndex, urlset, type SitemapEntry } from '../robots.js';
import { html, notFound, text, xml, type Handler, type Reply } from '../server.js';

export interface SitemapSiteOptions {
  /**
   * When set, the site is a plain large one instead: robots.txt names one index of
   * ceil(bulkUrls / 1000) sitemaps (every fifth gzipped) listing `/item/<part>-<n>` with lastmod.
   */
  bulkUrls?: number;
}

/** Entries per bulk sitemap. */
export const BULK_PER_SITEMAP = 1_000;

const BLOG_POSTS = 10;
const GUIDES = 5;
const ARCHIVE_ITEMS = 30;
const lastmodOf = (n: number) => `2026-01-${String((n % 28) + 1).padStart(2, '0')}`;

/**
 * What a perfect map of the sitemaps site returns (paths): the sitemap URLs, deduplicated and
 * normalised, without the off-site, non-http, robots-disallowed and broken entries; and the pages
 * only links lead to, which link discovery adds.
 */
export const SITEMAP_SITE_TRUTH = {
  /** Path to lastmod (null when the sitemap gives none). */
  sitemapPaths: new Map<string, string | null>([
    ['/', '2026-02-01'],
    ['/about', null],
    ...Array.from({ length: BLOG_POSTS }, (_, i) => [`/blog/post-${i + 1}`, lastmodOf(i)] as [string, string]),
    ['/relative-loc', null],
    ...Array.from({ length: GUIDES }, (_, i) => [`/guides/guide-${i + 1}`, '2025-12-24T08:00:00+00:00'] as [string, string]),
    ...Array.from({ length: ARCHIVE_ITEMS }, (_, i) => [`/archive/item-${i + 1}`, lastmodOf(i + 3)] as [string, string]),
    ['/broken/ok-1', null],
    ['/broken/ok-2', null],
  ]),
  /** Only reachable through links from the pages, never listed in a sitemap. */
  linkedOnlyPaths: ['/hidden/linked-only', '/hidden/deeper'],
  /** Listed by the cut-off sitemap after the cut: a map cannot know it. */
  lostPath: '/broken/lost',
  disallowedPath: '/private/staff',
  /** Sitemaps the index names that fail: missing (404), not XML (an HTML page answered 200). */
  failingSitemaps: ['/sitemaps/missing.xml', '/sitemaps/soft-404.xml'],
  partialSitemap: '/sitemaps/broken.xml',
  gzippedSitemap: '/sitemaps/archive.xml.gz',
} as const;

/**
 * The site for `POST /v1/map`: a sitemap index naming a plain urlset, a nested index (with a loop
 * back to the top), a gzipped sitemap, and broken entries (a 404 child, a cut-off file, an HTML
 * page where a sitemap should be, an off-site child, non-http, off-site, duplicate and disallowed
 * locations). Its pages link to two pages no sitemap lists, for link discovery.
 */
export function sitemapSite(options: SitemapSiteOptions = {}): Handler {
  if (options.bulkUrls !== undefined) return bulkSite(options.bulkUrls);
  const gz = new Map<string, Buffer>();
  return (url) => {
    const origin = url.origin;
    const path = url.pathname;
    switch (path) {
      case '/robots.txt':
        return text(
          [
            'User-agent: *',
            'Disallow: /private/',
            '',
            `Sitemap: ${origin}/sitemap-index.xml`,
            // Named twice (sites do), and once under a scheme no one fetches.
            `Sitemap: ${origin}/sitemap-index.xml`,
            `Sitemap: ftp://${url.host}/sitemap.xml`,
            '',
          ].join('\n'),
        );
      case '/sitemap-index.xml':
        return withOffSiteChild(
          sitemapIndex(origin, ['/sitemaps/pages.xml', '/sitemaps/nested-index.xml', '/sitemaps/archive.xml.gz', '/sitemaps/missing.xml', '/sitemaps/broken.xml', '/sitemaps/soft-404.xml', '/sitemap-index.xml']),
        );
      case '/sitemaps/pages.xml':
        return pagesSitemap(origin, url.host);
      case '/sitemaps/nested-index.xml':
        return sitemapIndex(origin, ['/sitemaps/nested/level-2.xml']);
      case '/sitemaps/nested/level-2.xml':
        // The loop back to the top index must not be followed again.
        return sitemapIndex(origin, ['/sitemaps/nested/guides.xml', '/sitemap-index.xml']);
      case '/sitemaps/nested/guides.xml':
        return urlset(origin, Array.from({ length: GUIDES }, (_, i) => ({ path: `/guides/guide-${i + 1}`, lastmod: '2025-12-24T08:00:00+00:00' })));
      case '/sitemaps/archive.xml.gz': {
        let body = gz.get(origin);
        if (!body) {
          body = gzipSync(String(urlset(origin, Array.from({ length: ARCHIVE_ITEMS }, (_, i) => ({ path: `/archive/item-${i + 1}`, lastmod: lastmodOf(i + 3) }))).body));
          gz.set(origin, body);
        }
        return { body, headers: { 'content-type': 'application/x-gzip' } };
      }
      case '/sitemaps/broken.xml':
        return xml(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
            `<url><loc>${origin}/broken/ok-1</loc></url>\n<url><loc>${origin}/broken/ok-2</loc></url>\n<url><loc>${origin}/broken/lost`,
        );
      case '/sitemaps/soft-404.xml':
        return html('<!doctype html><html><head><title>Page not found</title></head><body><h1>We could not find that page</h1><a href="/">Home</a></body></html>');
      default:
        return pageFor(path);
    }
  };
}

/** The index also names a sitemap on another host, which an index may not (sitemaps.org: same host only). */
function withOffSiteChild(reply: Reply): Reply {
  const body = String(reply.body).replace('</sitemapindex>', '<sitemap><loc>http://sitemaps.elsewhere.invalid/sitemap.xml</loc></sitemap>\n</sitemapindex>');
  return { ...reply, body };
}

function pagesSitemap(origin: string, host: string): Reply {
  const entries: SitemapEntry[] = [
    { path: '/', lastmod: '2026-02-01' },
    { path: '/about' },
    ...Array.from({ length: BLOG_POSTS }, (_, i) => ({ path: `/blog/post-${i + 1}`, lastmod: lastmodOf(i) })),
    { path: '/private/staff' },
  ];
  const listed = String(urlset(origin, entries).body);
  // Entries urlset() cannot write: duplicates in other spellings, other schemes, other sites, a relative loc, a bad lastmod.
  const odd = [
    `<url><loc>${escapeHtml(origin)}/about#team</loc></url>`,
    `<url><loc>${escapeHtml(origin)}/blog/post-1?utm_source=newsletter&amp;utm_medium=email</loc><lastmod>2020-01-01</lastmod></url>`,
    `<url><loc>HTTP://${host.toUpperCase()}/about</loc></url>`,
    `<url><loc>mailto:editor@example.com</loc></url>`,
    `<url><loc>ftp://${host}/files/report.pdf</loc></url>`,
    `<url><loc>javascript:alert(1)</loc></url>`,
    `<url><loc>https://elsewhere.example/page</loc></url>`,
    `<url><loc>/relative-loc</loc><lastmod>yesterday</lastmod></url>`,
  ].join('\n');
  return xml(listed.replace('</urlset>', `${odd}\n</urlset>`));
}

const PAGE_LINKS: Record<string, string[]> = {
  '/': ['/about', '/blog/post-1', '/hidden/linked-only', '/login?next=%2F', '/cart?add=1', 'https://elsewhere.example/partner'],
  '/hidden/linked-only': ['/', '/hidden/deeper'],
};

function pageFor(path: string): Reply {
  const sitemapPaths = SITEMAP_SITE_TRUTH.sitemapPaths as ReadonlyMap<string, string | null>;
  const known = sitemapPaths.has(path) || (SITEMAP_SITE_TRUTH.linkedOnlyPaths as readonly string[]).includes(path) || path === '/private/staff' || path === '/login' || path === '/cart';
  if (!known) return notFound();
  const links = PAGE_LINKS[path] ?? ['/'];
  return html(
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(path)}</title></head><body><h1>Page ${escapeHtml(path)}</h1>` +
      `<p>A page of the sitemaps site.</p><ul>${links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join('')}</ul></body></html>`,
  );
}

/** A large plain site: one index, ceil(n / 1000) sitemaps, every fifth gzipped. Bodies are built once and kept. */
function bulkSite(count: number): Handler {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`bulkUrls must be a positive integer, got ${count}`);
  const parts = Math.ceil(count / BULK_PER_SITEMAP);
  const built = new Map<string, Reply>();
  const partPath = (k: number) => (k % 5 === 0 ? `/bulk/part-${k}.xml.gz` : `/bulk/part-${k}.xml`);
  const build = (origin: string, path: string): Reply | null => {
    if (path === '/robots.txt') return text(`User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/bulk/index.xml\n`);
    if (path === '/bulk/index.xml') return sitemapIndex(origin, Array.from({ length: parts }, (_, i) => partPath(i + 1)));
    const m = /^\/bulk\/part-(\d+)\.xml(\.gz)?$/.exec(path);
    const k = Number(m?.[1]);
    if (!m || k < 1 || k > parts || partPath(k) !== path) return null;
    const from = (k - 1) * BULK_PER_SITEMAP;
    const entries = Array.from({ length: Math.min(BULK_PER_SITEMAP, count - from) }, (_, i) => ({ path: `/item/${k}-${i + 1}`, lastmod: lastmodOf(from + i) }));
    const reply = urlset(origin, entries);
    return m[2] ? { body: gzipSync(String(reply.body)), headers: { 'content-type': 'application/gzip' } } : reply;
  };
  return (url) => {
    const key = url.origin + url.pathname;
    let reply = built.get(key);
    if (!reply) {
      const made = build(url.origin, url.pathname);
      if (!made) return /^\/item\//.test(url.pathname) ? html(`<!doctype html><title>${escapeHtml(url.pathname)}</title><h1>Item</h1>`) : notFound();
      reply = made;
      built.set(key, reply);
    }
    return reply;
  };
}
