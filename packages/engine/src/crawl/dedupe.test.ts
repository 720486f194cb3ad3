import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import type { CrawlDetail } from './responses.js';

// A site small enough to know every URL: duplicates by rel=canonical and by redirect.
const PAGES: Record<string, string> = {
  '/': '<a href="/real">Real</a> <a href="/copy-a">Copy A</a> <a href="/copy-b?x=1">Copy B</a> <a href="/old">Old</a> <a href="/seen">Seen</a> <a href="/other">Other</a> <a href="/category/x">X</a> <a href="/category/x?page=1">X, page 1</a>',
  '/real': '<link rel="canonical" href="/real"><h1>Real</h1><p>The one true page.</p>',
  '/copy-a': '<link rel="canonical" href="/real"><h1>Real</h1><p>The one true page.</p>',
  '/copy-b': '<link rel="canonical" href="/real"><h1>Real</h1><p>The one true page.</p>',
  '/seen': '<h1>Seen before</h1>',
  '/other': '<h1>Other</h1><p>Another page.</p>',
  // No canonical: the same bytes answer /category/x and /category/x?page=1.
  '/category/x': '<h1>Category X</h1><p>Every product in category X.</p>',
};

let server: Server;
let origin: string;
let t: TestEngine;
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/old') {
      res.writeHead(301, { location: '/real' }).end();
      return;
    }
    const body = PAGES[path];
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><head><title>${path}</title></head><body>${body}</body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise((r) => server.close(r)));
afterEach(async () => t.dispose());

async function crawl(options: { skipUrls?: string[] } = {}) {
  t = openTestEngine({ allowPrivateNetwork: true });
  const user = await t.engine.accounts.ensureUser({ email: 'dedupe@x.test' });
  await t.engine.credits.grant(user.id, 100);
  const principal = t.engine.accounts.localPrincipal(user);
  const created = (await t.engine.crawls.create(principal, { urls: [`${origin}/`], max_pages: 10, follow_links: true }, { strategy: 'breadth_first', ...options })) as CrawlDetail;
  await t.engine.jobs.drain();
  return await t.engine.crawls.get(principal, created.id);
}

describe('crawl dedupe', () => {
  it('stores and charges one document for pages that share a canonical URL or redirect to one', async () => {
    const done = await crawl();
    const paths = done.documents.map((d) => new URL(d.url).pathname);
    expect(paths.filter((p) => ['/real', '/copy-a', '/copy-b', '/old'].includes(p))).toHaveLength(1);
    expect(paths).toContain('/other');
    expect(done.stats.pages_skipped).toBe(4);
    expect(done.stats.credits_used).toBe(done.documents.length);
  });

  it('stores and charges once byte-identical pages under two URLs, by content fingerprint', async () => {
    const done = await crawl();
    const twins = done.documents.filter((d) => new URL(d.url).pathname === '/category/x');
    expect(twins).toHaveLength(1);
    expect(twins[0]!.metadata.content_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(done.stats.credits_used).toBe(done.documents.length);
    const fingerprints = done.documents.map((d) => d.metadata.content_fingerprint);
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
  });

  it('never fetches URLs the caller marked as already seen', async () => {
    const done = await crawl({ skipUrls: [`${origin}/seen`] });
    expect(done.documents.map((d) => new URL(d.url).pathname)).not.toContain('/seen');
  });

  it('fails, saying why, when not even a seed could be fetched, and charges nothing', async () => {
    t = openTestEngine({ allowPrivateNetwork: true });
    const user = await t.engine.accounts.ensureUser({ email: 'dedupe@x.test' });
    await t.engine.credits.grant(user.id, 100);
    const principal = t.engine.accounts.localPrincipal(user);
    const before = await t.engine.credits.balance(user.id);
    const done = (await t.engine.crawls.create(principal, { urls: [`${origin}/missing`], max_pages: 5, processing_mode: 'sync' })) as CrawlDetail;
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/\/missing: .*404/);
    expect(done.stats.last_failure).toContain('404');
    expect(await t.engine.credits.balance(user.id)).toBe(before);
  });
});
