import { html, notFound, text, type Handler, type Reply } from '../server.js';
import { appsModel, type AppsModel } from './apps-model.js';

export interface AppsOptions {
  seed?: number;
}

const json = (value: unknown): Reply => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json; charset=utf-8' } });
const script = (body: string): Reply => ({ body, headers: { 'content-type': 'text/javascript; charset=utf-8' } });

/** What a server sends for every page of a single-page application: no text, a mount point, a script. */
const shell = (src: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>App</title></head>` +
  `<body><div id="app"><p class="loading">Loading…</p></div><noscript>This application requires JavaScript.</noscript>` +
  `<script src="${src}" defer></script></body></html>`;

/** Helpers every app script starts with (plain ES2020, no build step). */
const RUNTIME = `
const app = document.getElementById('app');
const el = (tag, text, attrs) => { const e = document.createElement(tag); if (text) e.textContent = text; for (const k in attrs || {}) e.setAttribute(k, attrs[k]); return e; };
const show = (title, nodes) => { document.title = title; app.replaceChildren(el('h1', title), ...nodes); };
const getJson = (url) => fetch(url).then((r) => { if (!r.ok) throw new Error(r.status); return r.json(); });
const item = (child) => { const li = el('li'); li.append(child); return li; };
`;

/** Client-side routing: the route table ships in the bundle, links push history entries. */
const routerScript = (model: AppsModel) => `${RUNTIME}
const GUIDES = ${JSON.stringify(model.guides)};
const go = (href) => { history.pushState(null, '', href); route(); };
const link = (href, text) => { const a = el('a', text, { href }); a.addEventListener('click', (e) => { e.preventDefault(); go(href); }); return a; };
function route() {
  const m = /^\\/router\\/guide\\/([a-z0-9-]+)$/.exec(location.pathname);
  const guide = m && GUIDES.find((g) => g.slug === m[1]);
  if (guide) {
    const nav = el('nav');
    nav.append(link('/router/', 'All guides'));
    return show(guide.title, [...guide.paragraphs.map((p) => el('p', p)), nav]);
  }
  const list = el('ul');
  for (const g of GUIDES) list.append(item(link('/router/guide/' + g.slug, g.title)));
  show('Guides', [list]);
}
window.addEventListener('popstate', route);
route();
`;

/** Data from a JSON endpoint: the list and each item are fetched after the load. */
const dataScript = `${RUNTIME}
(async () => {
  const m = /^\\/data\\/item\\/(\\d+)$/.exec(location.pathname);
  if (m) {
    const it = await getJson('/data/api/item/' + m[1] + '.json');
    return show(it.name, [el('p', it.summary, { class: 'summary' }), ...it.paragraphs.map((p) => el('p', p)), el('a', 'Back to the catalogue', { href: '/data/' })]);
  }
  const items = await getJson('/data/api/items.json');
  const list = el('ul');
  for (const it of items) { const li = el('li'); li.append(el('a', it.name, { href: '/data/item/' + it.id }), el('p', it.summary)); list.append(li); }
  show('Catalogue', [list]);
})();
`;

/** Infinite scroll: a first page, then more on scroll (an observer) or on the "Load more" button. */
const feedScript = `${RUNTIME}
(async () => {
  const m = /^\\/feed\\/post\\/(\\d+)$/.exec(location.pathname);
  if (m) {
    const post = await getJson('/feed/api/post/' + m[1] + '.json');
    return show(post.headline, [...post.paragraphs.map((p) => el('p', p)), el('a', 'All release notes', { href: '/feed/' })]);
  }
  const list = el('ol');
  const more = el('button', 'Load more', { type: 'button' });
  const sentinel = el('div', '', { class: 'sentinel' });
  show('Release notes', [list, more, sentinel]);
  let next = 1;
  let loading = false;
  async function load() {
    if (loading || next === null) return;
    loading = true;
    const page = await getJson('/feed/api/page/' + next + '.json');
    for (const p of page.posts) { const li = el('li'); li.append(el('a', p.headline, { href: '/feed/post/' + p.id }), el('p', p.teaser)); list.append(li); }
    next = page.next;
    loading = false;
    if (next === null) { more.remove(); observer.disconnect(); }
  }
  more.addEventListener('click', load);
  const observer = new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) load(); });
  await load();
  observer.observe(sentinel);
})();
`;

/** A page that asks its browser to fetch `?target=`: the renderer's address policy must stop it. */
const probeScript = `${RUNTIME}
(async () => {
  const target = new URLSearchParams(location.search).get('target');
  show('Probe', [el('p', 'Probing ' + target)]);
  try { await fetch(target, { mode: 'no-cors' }); app.append(el('p', 'probe answered')); } catch { app.append(el('p', 'probe refused')); }
})();
`;

const LANDING = `<!doctype html><html><head><meta charset="utf-8"><title>Applications</title></head><body>
<h1>Applications of the local web</h1>
<p>Three single-page applications whose content appears only after their scripts run: a guide with client-side
routing, a catalogue that reads a JSON endpoint, and release notes that load more as one scrolls. This landing
page itself is plain HTML, so a crawler that renders only application shells leaves it alone.</p>
<ul><li><a href="/router/">Guides</a></li><li><a href="/data/">Catalogue</a></li><li><a href="/feed/">Release notes</a></li></ul>
</body></html>`;

/** The applications site; its content follows the local web's version (see appsModel). */
export function appsSite(options: AppsOptions, version: () => number): Handler {
  const seed = options.seed ?? 1;
  let cached: AppsModel | null = null;
  const model = () => {
    if (!cached || cached.version !== version()) cached = appsModel(seed, version());
    return cached;
  };
  return (url) => {
    const path = url.pathname;
    const m = model();
    if (path === '/') return html(LANDING);
    if (path === '/robots.txt') return text('User-agent: *\nAllow: /\n');
    if (path === '/assets/router.js') return script(routerScript(m));
    if (path === '/assets/data.js') return script(dataScript);
    if (path === '/assets/feed.js') return script(feedScript);
    if (path === '/assets/probe.js') return script(probeScript);
    if (path === '/probe') return html(shell('/assets/probe.js'));
    if (path === '/router/' || /^\/router\/guide\/[a-z0-9-]+$/.test(path)) return html(shell('/assets/router.js'));
    if (path === '/data/' || /^\/data\/item\/\d+$/.test(path)) return html(shell('/assets/data.js'));
    if (path === '/feed/' || /^\/feed\/post\/\d+$/.test(path)) return html(shell('/assets/feed.js'));
    if (path === '/data/api/items.json') return json(m.items.map(({ id, name, summary }) => ({ id, name, summary })));
    const itemMatch = /^\/data\/api\/item\/(\d+)\.json$/.exec(path);
    if (itemMatch) {
      const it = m.items.find((i) => i.id === Number(itemMatch[1]));
      return it ? json(it) : notFound();
    }
    const pageMatch = /^\/feed\/api\/page\/(\d+)\.json$/.exec(path);
    if (pageMatch) {
      const n = Number(pageMatch[1]);
      const posts = m.posts.slice((n - 1) * m.feedPageSize, n * m.feedPageSize).map(({ id, headline, teaser }) => ({ id, headline, teaser }));
      return json({ posts, next: n * m.feedPageSize < m.posts.length ? n + 1 : null });
    }
    const postMatch = /^\/feed\/api\/post\/(\d+)\.json$/.exec(path);
    if (postMatch) {
      const post = m.posts.find((p) => p.id === Number(postMatch[1]));
      return post ? json(post) : notFound();
    }
    if (path === '/favicon.ico' || path.startsWith('/img/')) return { status: 404, body: '' };
    return notFound();
  };
}
