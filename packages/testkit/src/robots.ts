import { escapeHtml } from './random.js';
import { text, xml, type Reply } from './server.js';

export interface RobotsOptions {
  origin: string;
  disallow: readonly string[];
  crawlDelaySeconds?: number;
}

/** robots.txt with absolute Sitemap lines, as search engines require them. */
export function robotsTxt(options: RobotsOptions): Reply {
  const lines = ['User-agent: *', ...options.disallow.map((path) => `Disallow: ${path}`)];
  if (options.crawlDelaySeconds !== undefined) lines.push(`Crawl-delay: ${options.crawlDelaySeconds}`);
  lines.push('', `Sitemap: ${options.origin}/sitemap-index.xml`, `Sitemap: ${options.origin}/sitemap.xml`, '');
  return text(lines.join('\n'));
}

export interface SitemapEntry {
  path: string;
  lastmod?: string;
}

export const urlset = (origin: string, entries: readonly SitemapEntry[]): Reply =>
  xml(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries.map((e) => `<url><loc>${escapeHtml(origin + e.path)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`).join('\n')}
</urlset>`);

export const sitemapIndex = (origin: string, paths: readonly string[]): Reply =>
  xml(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((p) => `<sitemap><loc>${escapeHtml(origin + p)}</loc></sitemap>`).join('\n')}
</sitemapindex>`);

/** Links every site sprinkles into its pages: a smart crawler drops them before queueing. */
export function junkLinks(path: string, id: number | string): string {
  const encoded = encodeURIComponent(path);
  return `<p class="actions"><a href="/login?next=${encoded}">Sign in</a> · <a href="/cart?add=${id}">Add to cart</a> · <a href="/share?u=${encoded}">Share</a> · <a href="/print${path}">Print</a> · <a href="${path}?sessionid=s${id}x">Permalink</a> · <a href="${path}?utm_source=newsletter&amp;utm_medium=email">Newsletter</a> · <a href="/private/staff">Staff area</a></p>`;
}

/** Paths every site answers for the junk links above, and the private area robots.txt disallows. */
export const JUNK_PREFIXES = ['/login', '/cart', '/share', '/print/', '/private/'] as const;
export const isJunkPath = (path: string) => JUNK_PREFIXES.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix));
