import { jsonLd, layout } from '../html.js';
import { escapeHtml, pick, rng, sentence, slugify } from '../random.js';
import { html, notFound, text, type Handler } from '../server.js';

export interface NewsOptions {
  seed: number;
  articles: number;
}

const SECTIONS = [
  { slug: 'technology', name: 'Technology', words: ['software', 'chips', 'startup', 'cloud', 'privacy', 'robots', 'batteries'] },
  { slug: 'science', name: 'Science', words: ['climate', 'telescope', 'genome', 'ocean', 'fusion', 'species', 'vaccine'] },
  { slug: 'business', name: 'Business', words: ['markets', 'earnings', 'merger', 'inflation', 'shipping', 'retail', 'shares'] },
  { slug: 'culture', name: 'Culture', words: ['festival', 'museum', 'novel', 'film', 'orchestra', 'gallery', 'theatre'] },
] as const;
const AUTHORS = ['Mara Lindqvist', 'Tomás Ferreira', 'Aiko Tanaka', 'Priya Raman', 'Jonas Weber', 'Claire Dubois'];
const START = Date.UTC(2026, 0, 5, 8, 0, 0);

export interface Article {
  id: number;
  headline: string;
  path: string;
  section: (typeof SECTIONS)[number];
  author: string;
  published: string;
  modified: string;
  paragraphs: string[];
  tags: string[];
}

/** Version 2 adds three articles per version step and rewrites the newest article's second paragraph. */
export function newsTruth(options: NewsOptions, version = 1) {
  const count = options.articles + (version >= 2 ? 3 * (version - 1) : 0);
  return {
    count,
    sections: SECTIONS,
    article: (id: number): Article | null => (id >= 1 && id <= count ? article(options, id, version, count) : null),
    articlePaths: () => Array.from({ length: count }, (_, i) => article(options, i + 1, version, count).path),
  };
}

function article(options: NewsOptions, id: number, version: number, count: number): Article {
  const random = rng(options.seed, `article:${id}`);
  const section = SECTIONS[id % SECTIONS.length]!;
  const headline = `${pick(random, ['New', 'Major', 'Surprising', 'Quiet', 'Early'])} ${pick(random, section.words)} ${pick(random, ['report', 'breakthrough', 'deal', 'plan', 'debate'])} ${pick(random, ['shakes up', 'reshapes', 'divides', 'energises', 'puzzles'])} ${pick(random, section.words)} ${pick(random, ['sector', 'researchers', 'investors', 'audiences', 'regulators'])}`;
  const published = new Date(START + id * 9 * 3600 * 1000);
  const paragraphs = Array.from({ length: 5 }, () => `${sentence(random, section.words, 18)} ${sentence(random, section.words, 16)}`);
  const edited = version >= 2 && id === count - 3 * (version - 1);
  if (edited) paragraphs[1] = `Update: officials confirmed the ${section.words[0]} figures were revised after publication (version ${version}).`;
  return {
    id,
    headline,
    path: `/article/${id}-${slugify(headline)}`,
    section,
    author: pick(random, AUTHORS),
    published: published.toISOString(),
    modified: (edited ? new Date(published.getTime() + 86_400_000) : published).toISOString(),
    paragraphs,
    tags: [section.words[id % section.words.length]!, section.words[(id + 3) % section.words.length]!],
  };
}

export function newsSite(options: NewsOptions, getVersion: () => number): Handler {
  const nav: [string, string][] = SECTIONS.map((s) => [`/section/${s.slug}`, s.name]);
  const page = (title: string, main: string, head = '') => layout({ title, siteName: 'The Daily Ledger', nav, head }, main);
  const list = (items: Article[]) =>
    `<ul class="stories">${items.map((a) => `<li><a href="${a.path}">${escapeHtml(a.headline)}</a> <time datetime="${a.published}">${a.published.slice(0, 10)}</time></li>`).join('')}</ul>`;

  return (url) => {
    const truth = newsTruth(options, getVersion());
    const latest = (filter: (a: Article) => boolean, n: number) => {
      const out: Article[] = [];
      for (let id = truth.count; id >= 1 && out.length < n; id--) {
        const a = truth.article(id)!;
        if (filter(a)) out.push(a);
      }
      return out;
    };
    const path = url.pathname;
    if (path === '/robots.txt') return text('User-agent: *\nAllow: /\n');
    if (path === '/') return html(page('Front page', `<h1>The Daily Ledger</h1><h2>Latest</h2>${list(latest(() => true, 20))}`));
    const section = /^\/section\/([a-z]+)$/.exec(path);
    if (section) {
      const s = SECTIONS.find((x) => x.slug === section[1]);
      if (!s) return notFound();
      return html(page(s.name, `<h1>${s.name}</h1>${list(latest((a) => a.section.slug === s.slug, 30))}`));
    }
    const match = /^\/article\/(\d+)-[a-z0-9-]+$/.exec(path);
    if (match) {
      const a = truth.article(Number(match[1]));
      if (!a || a.path !== path) return notFound();
      return html(
        page(a.headline,
          `<article><h1>${escapeHtml(a.headline)}</h1><p class="byline">By <a rel="author" href="/author/${slugify(a.author)}">${a.author}</a> · <time datetime="${a.published}">${a.published.slice(0, 10)}</time></p>
${a.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p class="tags">${a.tags.map((t) => `<a href="/tag/${t}">${t}</a>`).join(' ')}</p></article>
<section class="related"><h2>More in ${a.section.name}</h2>${list(latest((x) => x.section.slug === a.section.slug && x.id !== a.id, 4))}</section>`,
          jsonLd({ '@context': 'https://schema.org', '@type': 'NewsArticle', headline: a.headline, datePublished: a.published, dateModified: a.modified, author: { '@type': 'Person', name: a.author }, articleSection: a.section.name }) +
            `<meta property="article:published_time" content="${a.published}"><meta property="og:type" content="article"><meta name="description" content="${escapeHtml(a.paragraphs[0]!.slice(0, 150))}">`),
      );
    }
    if (path === '/feed.xml') {
      const items = latest(() => true, 20);
      return {
        headers: { 'content-type': 'application/rss+xml; charset=utf-8' },
        body: `<?xml version="1.0"?><rss version="2.0"><channel><title>The Daily Ledger</title>${items.map((a) => `<item><title>${escapeHtml(a.headline)}</title><link>${url.origin}${a.path}</link><pubDate>${new Date(a.published).toUTCString()}</pubDate></item>`).join('')}</channel></rss>`,
      };
    }
    if (path.startsWith('/tag/') || path.startsWith('/author/')) return html(page('Archive', `<h1>Archive</h1>${list(latest(() => true, 10))}`));
    return notFound();
  };
}
