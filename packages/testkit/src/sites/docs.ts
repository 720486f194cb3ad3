import { layout } from '../html.js';
import { escapeHtml, rng, sentence } from '../random.js';
import { isJunkPath, junkLinks, robotsTxt, sitemapIndex, urlset } from '../robots.js';
import { html, notFound, type Handler } from '../server.js';
import { junkPage } from './pages.js';

export interface DocsOptions {
  seed: number;
  /** Levels below /docs; the tree has 3^1 + ... + 3^depth pages under the root. */
  depth: number;
  crawlDelaySeconds?: number;
}

export const DOC_TOPICS = ['install', 'configure', 'deploy'] as const;
const WORDS = ['cluster', 'node', 'config', 'token', 'pipeline', 'schema', 'cache', 'queue', 'index', 'replica'];
const SITE = 'Orbit Docs';

/** What a perfect extractor returns for a documentation page. */
export interface DocPage {
  path: string;
  title: string;
  depth: number;
  parent: string | null;
  children: string[];
  /** The first paragraph, also the meta description. */
  description: string;
  paragraphs: string[];
  code: string;
}

/** From version 2 on, /docs/install gains a "Changed in version N" paragraph and /docs/changelog/v2..vN exist. */
export function docsModel(options: DocsOptions, version: number) {
  const changelog = (n: number) => `/docs/changelog/v${n}`;
  const page = (rawPath: string): DocPage | null => {
    const path = rawPath.replace(/\/$/, '') || '/';
    const release = /^\/docs\/changelog\/v(\d+)$/.exec(path);
    if (release) {
      const n = Number(release[1]);
      if (n < 2 || n > version) return null;
      const text = `Release ${n} of Orbit changes the ${WORDS[n % WORDS.length]} defaults and fixes ${n + 2} bugs.`;
      return { path, title: `Changelog › v${n}`, depth: 2, parent: '/docs', children: [], description: text, paragraphs: [text], code: `orbit upgrade --to v${n}` };
    }
    if (path !== '/docs' && !path.startsWith('/docs/')) return null;
    const segments = path.split('/').slice(2);
    if (segments.length > options.depth || !segments.every((s) => (DOC_TOPICS as readonly string[]).includes(s))) return null;
    const random = rng(options.seed, path);
    const paragraphs = [`${sentence(random, WORDS, 20)} ${sentence(random, WORDS, 16)}`, sentence(random, WORDS, 18)];
    if (version >= 2 && path === '/docs/install') paragraphs.push(`Changed in version ${version}: the installer now verifies the ${WORDS[version % WORDS.length]} checksum.`);
    const children = segments.length < options.depth ? DOC_TOPICS.map((t) => `${path}/${t}`) : [];
    if (path === '/docs') for (let n = 2; n <= version; n++) children.push(changelog(n));
    return {
      path,
      title: segments.length === 0 ? 'Documentation' : segments.map((s) => s[0]!.toUpperCase() + s.slice(1)).join(' › '),
      depth: segments.length,
      parent: segments.length > 0 ? `/docs/${segments.slice(0, -1).join('/')}`.replace(/\/$/, '') : null,
      children,
      description: paragraphs[0]!,
      paragraphs,
      code: `orbit ${segments.join(' ') || 'help'} --${WORDS[segments.length % WORDS.length]} value`,
    };
  };
  /** Every page, depth first from /docs. */
  function* paths(): Generator<string> {
    const stack = ['/docs'];
    while (stack.length > 0) {
      const path = stack.pop()!;
      yield path;
      stack.push(...page(path)!.children.slice().reverse());
    }
  }
  return { version, page, paths };
}

export function docsSite(options: DocsOptions, getVersion: () => number): Handler {
  const nav: [string, string][] = [['/docs', 'Docs'], ['/docs/install', 'Install']];
  const sidebar = `<nav class="docs-nav"><h3>Guides</h3>${DOC_TOPICS.map((t) => `<a href="/docs/${t}">${t}</a>`).join(' ')}</nav>`;
  return (url) => {
    const model = docsModel(options, getVersion());
    const path = url.pathname;
    if (path === '/robots.txt') return robotsTxt({ origin: url.origin, disallow: ['/private/', '/login'], crawlDelaySeconds: options.crawlDelaySeconds });
    if (path === '/') return { status: 301, headers: { location: '/docs' } };
    if (path === '/sitemap.xml') return urlset(url.origin, [{ path: '/docs' }, ...DOC_TOPICS.map((t) => ({ path: `/docs/${t}` }))]);
    if (path === '/sitemap-index.xml') return sitemapIndex(url.origin, ['/sitemap.xml', '/sitemap-pages.xml']);
    if (path === '/sitemap-pages.xml') return urlset(url.origin, [...model.paths()].map((p) => ({ path: p })));
    if (isJunkPath(path)) return junkPage(path, { siteName: SITE, nav });
    const doc = model.page(path);
    if (!doc) return notFound();
    return html(layout(
      { title: doc.title, siteName: SITE, nav, sidebar, head: `<meta name="description" content="${escapeHtml(doc.description)}">` },
      `<article><h1>${escapeHtml(doc.title)}</h1>${doc.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<h2>Example</h2><pre><code>${escapeHtml(doc.code)}</code></pre>
${doc.children.length ? `<h2>In this section</h2><ul>${doc.children.map((c) => `<li><a href="${c}">${c.split('/').pop()}</a></li>`).join('')}</ul>` : ''}
<div class="pager">${doc.parent ? `<a href="${doc.parent}" rel="prev">Up</a>` : ''}</div>${junkLinks(doc.path, doc.depth)}</article>`,
    ));
  };
}
