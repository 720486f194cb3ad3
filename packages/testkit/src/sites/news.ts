import { jsonLd, layout } from '../html.js';
import { escapeHtml, pick, rng, sentence, slugify } from '../random.js';
import { isJunkPath, junkLinks, robotsTxt, sitemapIndex, urlset } from '../robots.js';
import { html, notFound, type Handler } from '../server.js';
import { junkPage } from './pages.js';

export interface NewsOptions {
  seed: number;
  /** Articles at version 1; every later version adds three. */
  articles: number;
  crawlDelaySeconds?: number;
}

export const SECTIONS = [
  { slug: 'technology', name: 'Technology', words: ['software', 'chips', 'startup', 'cloud', 'privacy', 'robots', 'batteries'] },
  { slug: 'science', name: 'Science', words: ['climate', 'telescope', 'genome', 'ocean', 'fusion', 'species', 'vaccine'] },
  { slug: 'business', name: 'Business', words: ['markets', 'earnings', 'merger', 'inflation', 'shipping', 'retail', 'shares'] },
  { slug: 'culture', name: 'Culture', words: ['festival', 'museum', 'novel', 'film', 'orchestra', 'gallery', 'theatre'] },
] as const;
const AUTHORS = ['Mara Lindqvist', 'Tomás Ferreira', 'Aiko Tanaka', 'Priya Raman', 'Jonas Weber', 'Claire Dubois'];
const START = Date.UTC(2026, 0, 5, 8, 0, 0);
const SITE = 'The Daily Ledger';
const ARCHIVE_PAGE = 25;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** What a perfect extractor returns for an article page. */
export interface Article {
  id: number;
  path: string;
  headline: string;
  section: string;
  sectionName: string;
  author: string;
  /** ISO 8601, UTC. */
  published: string;
  modified: string;
  /** The meta description: the first 150 characters of the first paragraph. */
  description: string;
  paragraphs: string[];
  tags: string[];
  /** 'dom' means the author appears only in the visible byline, not in JSON-LD or meta tags. */
  authorIn: 'jsonld+dom' | 'dom';
  /** The date as the visible byline prints it. */
  dateText: string;
}

/** From version 2 on, three articles per version step are added and article number `articles` is rewritten each version. */
export function newsModel(options: NewsOptions, version: number) {
  const count = options.articles + (version >= 2 ? 3 * (version - 1) : 0);
  const article = (id: number): Article | null => (Number.isInteger(id) && id >= 1 && id <= count ? makeArticle(options, id, version) : null);
  return {
    version,
    count,
    article,
    /** Newest first, optionally within a section. */
    latest(n: number, section?: string, skip = 0): Article[] {
      const out: Article[] = [];
      let seen = 0;
      for (let id = count; id >= 1 && out.length < n; id--) {
        if (section && SECTIONS[id % SECTIONS.length]!.slug !== section) continue;
        if (seen++ >= skip) out.push(article(id)!);
      }
      return out;
    },
  };
}

export type NewsModel = ReturnType<typeof newsModel>;

function makeArticle(options: NewsOptions, id: number, version: number): Article {
  const random = rng(options.seed, `article:${id}`);
  const section = SECTIONS[id % SECTIONS.length]!;
  const headline = `${pick(random, ['New', 'Major', 'Surprising', 'Quiet', 'Early'])} ${pick(random, section.words)} ${pick(random, ['report', 'breakthrough', 'deal', 'plan', 'debate'])} ${pick(random, ['shakes up', 'reshapes', 'divides', 'energises', 'puzzles'])} ${pick(random, section.words)} ${pick(random, ['sector', 'researchers', 'investors', 'audiences', 'regulators'])}`;
  const published = new Date(START + id * 9 * 3600 * 1000);
  const paragraphs = Array.from({ length: 5 }, () => `${sentence(random, section.words, 18)} ${sentence(random, section.words, 16)}`);
  const edited = version >= 2 && id === options.articles;
  if (edited) paragraphs[1] = `Update: officials confirmed the ${section.words[0]} figures were revised after publication (version ${version}).`;
  const author = pick(random, AUTHORS);
  const d = published;
  const dateStyles = [d.toISOString().slice(0, 10), `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`, `${MONTHS[d.getUTCMonth()]!.slice(0, 3)} ${d.getUTCDate()}, ${d.getUTCFullYear()}`];
  return {
    id,
    path: `/article/${id}-${slugify(headline)}`,
    headline,
    section: section.slug,
    sectionName: section.name,
    author,
    published: published.toISOString(),
    modified: (edited ? new Date(published.getTime() + 86_400_000 * (version - 1)) : published).toISOString(),
    description: paragraphs[0]!.slice(0, 150),
    paragraphs,
    tags: [section.words[id % section.words.length]!, section.words[(id + 3) % section.words.length]!],
    authorIn: id % 3 === 1 ? 'dom' : 'jsonld+dom',
    dateText: dateStyles[id % dateStyles.length]!,
  };
}

export function newsSite(options: NewsOptions, getVersion: () => number): Handler {
  const nav: [string, string][] = [['/', 'Front page'], ...SECTIONS.map((s): [string, string] => [`/section/${s.slug}`, s.name]), ['/archive', 'Archive']];
  const page = (title: string, main: string, head = '') => layout({ title, siteName: SITE, nav, head }, main);
  const list = (items: Article[]) =>
    `<ul class="stories">${items.map((a) => `<li><a href="${a.path}">${escapeHtml(a.headline)}</a> <time datetime="${a.published}">${a.published.slice(0, 10)}</time></li>`).join('')}</ul>`;

  return (url) => {
    const model = newsModel(options, getVersion());
    const path = url.pathname;
    if (path === '/robots.txt') return robotsTxt({ origin: url.origin, disallow: ['/private/', '/login'], crawlDelaySeconds: options.crawlDelaySeconds });
    if (path === '/') return html(page('Front page', `<h1>${SITE}</h1><h2>Latest</h2>${list(model.latest(20))}`));
    const section = /^\/section\/([a-z]+)$/.exec(path);
    if (section) {
      const s = SECTIONS.find((x) => x.slug === section[1]);
      return s ? html(page(s.name, `<h1>${s.name}</h1>${list(model.latest(30, s.slug))}`)) : notFound();
    }
    if (path === '/archive') {
      const n = Number(url.searchParams.get('page') ?? '1');
      const pages = Math.max(1, Math.ceil(model.count / ARCHIVE_PAGE));
      if (!Number.isInteger(n) || n < 1 || n > pages) return notFound();
      const next = n < pages ? `/archive?page=${n + 1}` : null;
      return html(page(`Archive – page ${n}`, `<h1>Archive</h1>${list(model.latest(ARCHIVE_PAGE, undefined, (n - 1) * ARCHIVE_PAGE))}<div class="pagination">Page ${n} of ${pages} ${next ? `<a rel="next" href="${next}">Older stories</a>` : ''}</div>`, next ? `<link rel="next" href="${next}">` : ''));
    }
    const match = /^\/article\/(\d+)-[a-z0-9-]+$/.exec(path);
    if (match) {
      const a = model.article(Number(match[1]));
      return a && a.path === path ? articlePage(model, a, page) : notFound();
    }
    if (path === '/feed.xml') {
      return {
        headers: { 'content-type': 'application/rss+xml; charset=utf-8' },
        body: `<?xml version="1.0"?><rss version="2.0"><channel><title>${SITE}</title>${model.latest(20).map((a) => `<item><title>${escapeHtml(a.headline)}</title><link>${url.origin}${a.path}</link><pubDate>${new Date(a.published).toUTCString()}</pubDate></item>`).join('')}</channel></rss>`,
      };
    }
    if (path === '/sitemap.xml') return urlset(url.origin, [{ path: '/' }, { path: '/archive' }, ...SECTIONS.map((s) => ({ path: `/section/${s.slug}` }))]);
    if (path === '/sitemap-index.xml') {
      return sitemapIndex(url.origin, ['/sitemap.xml', ...Array.from({ length: Math.ceil(model.count / 1000) }, (_, i) => `/sitemap-articles-${i + 1}.xml`)]);
    }
    const part = /^\/sitemap-articles-(\d+)\.xml$/.exec(path);
    if (part) {
      const start = (Number(part[1]) - 1) * 1000 + 1;
      if (start < 1 || start > model.count) return notFound();
      const entries = [];
      for (let id = start; id <= Math.min(model.count, start + 999); id++) {
        const a = model.article(id)!;
        entries.push({ path: a.path, lastmod: a.modified });
      }
      return urlset(url.origin, entries);
    }
    if (path.startsWith('/tag/') || path.startsWith('/author/')) return html(page('Archive', `<h1>Archive</h1>${list(model.latest(10))}`));
    if (isJunkPath(path)) return junkPage(path, { siteName: SITE, nav });
    return notFound();
  };
}

function articlePage(model: NewsModel, a: Article, page: (title: string, main: string, head?: string) => string) {
  // earlier stories of the same section: stable across versions, so an article only changes when its own text does
  const list = [a.id - 4, a.id - 8, a.id - 12].map((id) => model.article(id)).filter((x): x is Article => x !== null);
  const ld = {
    '@context': 'https://schema.org', '@type': 'NewsArticle', headline: a.headline, datePublished: a.published, dateModified: a.modified, articleSection: a.sectionName,
    ...(a.authorIn === 'jsonld+dom' ? { author: { '@type': 'Person', name: a.author } } : {}),
  };
  const byline = a.id % 2 === 0
    ? `<p class="byline">By <a rel="author" href="/author/${slugify(a.author)}">${escapeHtml(a.author)}</a> · <time datetime="${a.published}">${a.dateText}</time></p>`
    : `<div class="meta"><span class="author-name">${escapeHtml(a.author)}</span><span class="date">Published ${a.dateText}</span></div>`;
  return html(page(a.headline,
    `<article><h1>${escapeHtml(a.headline)}</h1>${byline}
${a.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p class="tags">${a.tags.map((t) => `<a href="/tag/${t}">${t}</a>`).join(' ')}</p>${junkLinks(a.path, a.id)}</article>
<section class="related"><h2>More in ${a.sectionName}</h2><ul>${list.map((x) => `<li><a href="${x.path}">${escapeHtml(x.headline)}</a></li>`).join('')}</ul></section>`,
    jsonLd(ld) + `<link rel="canonical" href="${a.path}"><meta property="article:published_time" content="${a.published}"><meta property="og:type" content="article"><meta name="description" content="${escapeHtml(a.description)}">`));
}
