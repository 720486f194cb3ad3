import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openTestEngine, fundedPrincipalOf, type TestEngine } from '../testing/engine.js';
import type { CrawlDetail } from './responses.js';

const PAGES = 60;
/** The page request that hangs until the test lets it go: the crawl is caught mid-way. */
const HANG_AT = 30;

/**
 * A small site: a home page linking to every page, each page linking home and to its next two.
 * The HANG_AT-th page request waits for release(), holding the crawl mid-way.
 */
async function stallingSite() {
  let served = 0;
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const server: Server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    served++;
    const send = () => {
      const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
      const links = n === 0 ? Array.from({ length: PAGES }, (_, i) => i + 1) : [n + 1, n + 2].filter((i) => i <= PAGES);
      const body = `<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>Text of page ${n}, long enough to be content.</p>
        <a href="/">Home</a>${links.map((i) => `<a href="/p/${i}">Page ${i}</a>`).join(' ')}</main></body></html>`;
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    };
    if (served === HANG_AT) void released.then(send);
    else send();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served: () => served,
    release: () => release(),
    close: () => new Promise((r) => server.close(r)),
  };
}

let t: TestEngine;
afterEach(async () => t.dispose());

describe('CrawlRunner while a crawl runs', () => {
  it('gives stored documents graph scores and reports the frontier size before the crawl completes', async () => {
    const site = await stallingSite();
    try {
      t = openTestEngine({ allowPrivateNetwork: true });
      const owner = await fundedPrincipalOf(t.engine, 'live@x.test', 1000);
      const created = (await t.engine.crawls.create(owner, { urls: [`${site.url}/`], max_pages: PAGES, expansion: 'internal', link_extraction_config: { max_depth: 3 } })) as CrawlDetail;
      expect(created.stats.pages_queued).toBe(1);
      const run = t.engine.jobs.runDue();
      // Waits are long (vi.waitFor's default is 1 s): on PostgreSQL every store call is a round trip, and CI's machine is shared.
      // The pages served before the held one are stored a moment after they are served, and their scores a moment
      // after they are stored (the graph refresh follows the group's commit): wait for all of it. The held page keeps
      // the crawl running meanwhile, so scores that only came at the end would fail here.
      const live = await vi.waitFor(
        async () => {
          expect(site.served()).toBeGreaterThanOrEqual(HANG_AT);
          const read = await t.engine.crawls.get(owner, created.id);
          expect(read.documents.length).toBeGreaterThanOrEqual(25);
          // The home page collects the inlinks of every page fetched; its scores show before completion.
          const home = read.documents.find((d) => d.url === `${site.url}/`)!;
          expect(home.inlink_count).toBeGreaterThan(10);
          expect(home.outlink_count).toBe(PAGES);
          expect(home.hub_score).toBeGreaterThan(0);
          expect(read.documents.filter((d) => d.importance_score > 0).length).toBeGreaterThan(20);
          expect(read.documents.some((d) => d.authority_score > 0)).toBe(true);
          return read;
        },
        { timeout: 20_000 },
      );
      expect(live.status).toBe('running');
      expect(live.stats.pages_queued).toBeGreaterThan(0);
      const top = await t.engine.crawls.get(owner, created.id, { documents: 'top', documents_limit: 3 });
      expect(top.documents).toHaveLength(3);
      expect(top.documents[0]!.importance_score).toBeGreaterThan(0);
      // The light poll ranks the same pages, by name and score only.
      const progress = await t.engine.crawls.progress(owner, created.id, { best_pages: 3 });
      expect(progress).toMatchObject({ id: created.id, status: 'running', error: null });
      expect(progress.documents_total).toBeGreaterThanOrEqual(25);
      expect(progress.stats.pages_queued).toBeGreaterThan(0);
      expect(progress.best_pages.map((p) => p.importance_score)).toEqual(top.documents.map((d) => d.importance_score));
      expect(Object.keys(progress.best_pages[0]!).sort()).toEqual(['depth', 'final_url', 'importance_score', 'status_code', 'title', 'url']);

      site.release();
      await run;
      const done = await t.engine.crawls.get(owner, created.id);
      expect(done.status).toBe('completed');
      expect(done.stats.pages_queued).toBe(0);
    } finally {
      site.release();
      await site.close();
    }
  });

  it('keeps fetching other pages while one answer hangs, instead of waiting for a whole batch', async () => {
    const pages = 20;
    let served = 0;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const server: Server = createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      served++;
      const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
      const links = n === 0 ? Array.from({ length: pages }, (_, i) => `<a href="/p/${i + 1}">Page ${i + 1}</a>`).join(' ') : '';
      const send = () => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><main><h1>Page ${n}</h1><p>Text of page ${n}.</p>${links}</main></body></html>`);
      if (n === 1) void released.then(send);
      else send();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      t = openTestEngine({ allowPrivateNetwork: true });
      const owner = await fundedPrincipalOf(t.engine, 'pipe@x.test', 1000);
      const created = (await t.engine.crawls.create(owner, { urls: [`${url}/`], max_pages: 50, expansion: 'internal' })) as CrawlDetail;
      const run = t.engine.jobs.runDue();
      // Every page but the hanging one is fetched and stored while /p/1 is still unanswered.
      await vi.waitFor(async () => expect((await t.engine.crawls.get(owner, created.id)).stats.pages_crawled).toBe(pages), { timeout: 20_000 });
      expect(served).toBe(pages + 1);
      expect((await t.engine.crawls.get(owner, created.id)).status).toBe('running');
      release();
      await run;
      const done = await t.engine.crawls.get(owner, created.id);
      expect(done.status).toBe('completed');
      expect(done.stats.pages_crawled).toBe(pages + 1);
    } finally {
      release();
      await new Promise((r) => server.close(r));
    }
  });

  it('builds the smart_crawl block of a finished crawl from the stored graph', async () => {
    // A star: the home page links five pages, each links back home.
    const server: Server = createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      const links = req.url === '/' ? [1, 2, 3, 4, 5].map((i) => `<a href="/p/${i}">Page ${i}</a>`).join(' ') : '<a href="/">Home</a>';
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><main><h1>${req.url}</h1><p>Some text.</p>${links}</main></body></html>`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      t = openTestEngine({ allowPrivateNetwork: true });
      const owner = await fundedPrincipalOf(t.engine, 'star@x.test', 100);
      const created = (await t.engine.crawls.create(owner, { urls: [`${url}/`], max_pages: 10, expansion: 'internal', link_extraction_config: { max_depth: 3 } })) as CrawlDetail;
      await t.engine.jobs.runDue();
      const done = await t.engine.crawls.get(owner, created.id);
      expect(done.status).toBe('completed');
      const block = done.smart_crawl!;
      expect(block.stats).toMatchObject({ total_nodes: 6, total_edges: 10 });
      expect(block.efficiency).toMatchObject({ coverage_ratio: 1, importance_captured: 1 });
      expect(block.top_pages[0]!.url).toBe(`${url}/`);
      expect(block.top_pages).toHaveLength(6);
      expect(block.authorities[0]).toEqual({ url: `${url}/`, score: 1 });
      expect(block.hubs.map((h) => h.url).sort()).toEqual([1, 2, 3, 4, 5].map((i) => `${url}/p/${i}`).concat(`${url}/`).sort());
      expect(Object.values(block.domain_authority)).toEqual([1]);
      const home = done.documents.find((d) => d.url === `${url}/`)!;
      expect(home).toMatchObject({ inlink_count: 5, outlink_count: 5, authority_score: 1 });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('with an intent, follows the links in the content of a page about it before exploring, though their words do not name it', async () => {
    // A manual: its home links the replication chapter and two dozen lessons (nothing of the intent); the chapter's
    // sections ("Hot standby", "Failover") do not say "replication" either.
    const lessons = Array.from({ length: 24 }, (_, i): [string, string] => [`/lesson/${i + 1}`, `Lesson ${i + 1}`]);
    const pages: Record<string, [title: string, links: [path: string, text: string][]]> = {
      '/': ['Operations manual', [['/replication', 'Replication'], ...lessons]],
      '/replication': ['Replication', [['/hot-standby', 'Hot standby'], ['/failover', 'Failover'], ['/', 'Home']]],
    };
    const server: Server = createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      const [title, links] = pages[req.url ?? ''] ?? [`Page ${req.url}`, []];
      const list = links.map(([href, text]) => `<li><a href="${href}">${text}</a></li>`).join('');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>What this page covers, in a sentence or two of text.</p><ul>${list}</ul></main></body></html>`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // One request at a time. The crawl claims eight URLs after the home page (the chapter first, then lessons), but
      // need not see them arrive in that order: on PostgreSQL each fetched page is written to the web cache by a query
      // of its own, and those finish in any order. Should the chapter come after a group of lessons, up to eight more
      // lessons are claimed before it is stored: a budget of 20 still has room once its links are known, and lessons
      // are left over.
      t = openTestEngine({ allowPrivateNetwork: true, fetchLimits: { perHostConcurrency: 1 } });
      const owner = await fundedPrincipalOf(t.engine, 'locality@x.test', 100);
      const body = { urls: [`${url}/`], max_pages: 20, expansion: 'internal' as const, intent: 'set up replication between database servers', link_extraction_config: { max_depth: 3 } };
      const created = (await t.engine.crawls.create(owner, body)) as CrawlDetail;
      await t.engine.jobs.runDue();
      const done = await t.engine.crawls.get(owner, created.id);
      expect(done.status).toBe('completed');
      // The claims after the chapter is read take its sections, as detail candidates, before the eight lessons left,
      // which carry more of the home page's cash.
      const paths = done.documents.map((d) => d.url.slice(url.length));
      expect(paths).toHaveLength(20);
      expect(paths).toEqual(expect.arrayContaining(['/', '/replication', '/hot-standby', '/failover']));
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('leaves a copy of every page it stored in the global cache (on SQLite, written with the pages)', async () => {
    const site = await stallingSite();
    try {
      t = openTestEngine({ allowPrivateNetwork: true });
      const owner = await fundedPrincipalOf(t.engine, 'cache@x.test', 100);
      const created = (await t.engine.crawls.create(owner, { urls: [`${site.url}/`], max_pages: 8, expansion: 'internal', link_extraction_config: { max_depth: 2 } })) as CrawlDetail;
      await t.engine.jobs.runDue();
      const done = await t.engine.crawls.get(owner, created.id);
      expect(done.status).toBe('completed');
      expect(done.documents).toHaveLength(8);
      const served = site.served();
      for (const doc of done.documents) {
        const copy = await t.engine.web.fetch({ url: doc.url, useCache: true });
        expect(copy).toMatchObject({ fromCache: true, status: 200 });
        expect(copy.body).toContain(`<h1>${doc.title}</h1>`);
      }
      expect(site.served()).toBe(served);
    } finally {
      await site.close();
    }
  });
});
