import { layout } from '../html.js';
import { escapeHtml, rng, sentence } from '../random.js';
import { html, notFound, text, type Handler } from '../server.js';

const TOPICS = ['install', 'configure', 'deploy', 'monitor', 'scale', 'secure', 'backup', 'migrate', 'debug'];
const WORDS = ['cluster', 'node', 'config', 'token', 'pipeline', 'schema', 'cache', 'queue', 'index', 'replica'];
const BRANCHING = 3;

/** A deep documentation tree: /docs/<a>/<b>/... with BRANCHING children per page down to `depth`. */
export function docsSite(options: { seed: number; depth: number }): Handler {
  return (url) => {
    const path = url.pathname.replace(/\/$/, '') || '/';
    if (path === '/robots.txt') return text('User-agent: *\nAllow: /\n');
    if (path === '/') return { status: 301, headers: { location: '/docs' } };
    if (!path.startsWith('/docs')) return notFound();
    const segments = path.split('/').slice(2);
    if (segments.length > options.depth || !segments.every((s) => TOPICS.slice(0, BRANCHING).some((t) => s === t))) return notFound();
    const random = rng(options.seed, path);
    const title = segments.length === 0 ? 'Documentation' : segments.map((s) => s[0]!.toUpperCase() + s.slice(1)).join(' › ');
    const children = segments.length < options.depth ? TOPICS.slice(0, BRANCHING).map((t) => `${path}/${t}`) : [];
    const parent = segments.length > 0 ? `/docs/${segments.slice(0, -1).join('/')}`.replace(/\/$/, '') : null;
    const sidebar = `<nav class="docs-nav"><h3>Guides</h3>${TOPICS.slice(0, BRANCHING).map((t) => `<a href="/docs/${t}">${t}</a>`).join(' ')}</nav>`;
    return html(
      layout(
        { title, siteName: 'Orbit Docs', nav: [['/docs', 'Docs'], ['/docs/install', 'Install']], sidebar },
        `<article><h1>${escapeHtml(title)}</h1><p>${sentence(random, WORDS, 20)} ${sentence(random, WORDS, 16)}</p>
<h2>Example</h2><pre><code>orbit ${segments.join(' ') || 'help'} --${WORDS[segments.length % WORDS.length]} value</code></pre>
<p>${sentence(random, WORDS, 18)}</p>
${children.length ? `<h2>In this section</h2><ul>${children.map((c) => `<li><a href="${c}">${c.split('/').pop()}</a></li>`).join('')}</ul>` : ''}
<div class="pager">${parent ? `<a href="${parent}" rel="prev">Up</a>` : ''}</div></article>`,
      ),
    );
  };
}
