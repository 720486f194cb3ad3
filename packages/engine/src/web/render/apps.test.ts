import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type AppPage, type LocalWeb } from '@wvr/testkit';
import { parseHtml } from '../../html/parse.js';
import { collapse } from '../../html/dom.js';
import { openTestEngine, type TestEngine } from '../../testing/engine.js';
import type { FetchedPage } from '../types.js';

/** Share of a page's truth (its text blocks and its links) that a fetched page yields, as the crawler reads it. */
function coverage(page: FetchedPage, truth: AppPage, origin: string): { text: number; links: number } {
  const parsed = parseHtml(page.body ?? '', page.url);
  const text = collapse(`${parsed.title ?? ''} ${parsed.text}`);
  const textChars = truth.texts.reduce((sum, t) => sum + t.length, 0);
  const foundChars = truth.texts.filter((t) => text.includes(collapse(t))).reduce((sum, t) => sum + t.length, 0);
  const links = new Set(parsed.links.map((l) => l.url));
  const foundLinks = truth.links.filter((path) => links.has(origin + path)).length;
  return { text: foundChars / textChars, links: truth.links.length === 0 ? 1 : foundLinks / truth.links.length };
}

describe('the local web applications, fetched statically and rendered in Chromium', () => {
  let web: LocalWeb;
  let lab: TestEngine;
  beforeAll(async () => {
    web = await startLocalWeb({ sizes: { products: 20, articles: 5, docsDepth: 1 } });
    // A generous page timeout: the shared test machine can be loaded far past its cores, and this test is about what rendering finds.
    lab = openTestEngine({ allowPrivateNetwork: true, render: { maxContexts: 2, pageTimeoutMs: 90_000 } });
  });
  afterAll(async () => {
    await lab?.dispose();
    await web?.close();
  });

  it('static fetching finds under 10 % of their text and links; rendering finds at least 95 %', async () => {
    // Every index page (routing, JSON, infinite scroll) and every third detail page: the detail pages share their app's code.
    const pages = web.appsTruth().pages.filter((p, i) => p.path.endsWith('/') || i % 3 === 0);
    const results = await Promise.all(
      pages.map(async (truth) => {
        const url = web.apps + truth.path;
        const [plain, rendered] = await Promise.all([lab.engine.web.fetch({ url, render: 'never' }), lab.engine.web.fetch({ url, render: 'auto' })]);
        return { path: truth.path, plain: coverage(plain, truth, web.apps), rendered: coverage(rendered, truth, web.apps), rendering: rendered.rendering };
      }),
    );
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const staticText = mean(results.map((r) => r.plain.text));
    const renderedText = mean(results.map((r) => r.rendered.text));
    const renderedLinks = mean(results.map((r) => r.rendered.links));
    expect(staticText).toBeLessThan(0.1);
    expect(mean(results.map((r) => r.plain.links))).toBeLessThan(0.1);
    expect(renderedText, JSON.stringify(results.filter((r) => r.rendered.text < 1))).toBeGreaterThanOrEqual(0.95);
    expect(renderedLinks, JSON.stringify(results.filter((r) => r.rendered.links < 1))).toBeGreaterThanOrEqual(0.95);
    for (const r of results) expect(r.rendering, r.path).toMatchObject({ mode: 'auto', rendered: true });
    // The feed loads 5 posts at first; the rest come from scrolling and "Load more".
    const feed = results.find((r) => r.path === '/feed/')!;
    expect(feed.rendered.text).toBe(1);
    const stats = lab.engine.web.renderStats();
    expect(stats.browser_launches).toBe(1);
    expect(stats.pages_rendered).toBe(pages.length);
    expect(stats.contexts_peak).toBeLessThanOrEqual(2);
  }, 240_000);

  it('waits for a shell whose script fills it in later than the network goes quiet (a timer, no request)', async () => {
    const text = 'The timetable arrives well after the page has loaded, with nothing fetched meanwhile.';
    const shell =
      `<!doctype html><html><head><title>Late</title></head><body><div id="root"><p>Loading…</p></div>` +
      `<script>setTimeout(() => { document.getElementById('root').innerHTML = '<h1>Timetable</h1><p>${text}</p>'; }, 1500);</script></body></html>`;
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shell));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const page = await lab.engine.web.fetch({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, render: 'auto' });
      expect(page.rendering).toMatchObject({ mode: 'auto', rendered: true });
      expect(parseHtml(page.body!, page.url).text).toContain(text);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('auto leaves static pages alone: the whole static local web starts no browser', async () => {
    const engine = openTestEngine({ allowPrivateNetwork: true });
    try {
      const urls = [web.apps + '/', ...web.truth.contentUrls().slice(0, 30), web.catalogue + '/', web.news + '/', web.docs + '/docs', web.lab + '/'];
      const pages = await Promise.all(urls.map((url) => engine.engine.web.fetch({ url, render: 'auto' })));
      expect(pages.filter((p) => p.status === 200).length).toBeGreaterThan(30);
      expect(pages.every((p) => p.rendering === undefined)).toBe(true);
      expect(engine.engine.web.renderStats()).toMatchObject({ browser_launches: 0, pages_rendered: 0 });
    } finally {
      await engine.dispose();
    }
  });
});
