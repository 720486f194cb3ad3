import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, fundedPrincipalOf, type TestEngine } from '../testing/engine.js';
import type { CrawlDetail } from './responses.js';

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
    const links = [n + 1, n + 2].filter((i) => i <= 8).map((i) => `<li><a href="/p/${i}">Chapter ${i}</a></li>`);
    res.writeHead(200, { 'content-type': 'text/html' }).end(
      `<html lang="en"><head><title>Chapter ${n}</title></head><body><nav><a href="/">Home</a></nav><main><h1>Chapter ${n}</h1>` +
        `<p>The text of chapter ${n}, long enough to be read as the main content of the page and stored with it.</p><ul>${links.join('')}</ul></main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** What a crawl stored, by URL. */
async function crawl(t: TestEngine, email: string) {
  const owner = await fundedPrincipalOf(t.engine, email, 100);
  const done = (await t.engine.crawls.create(owner, { urls: [`${origin}/`], max_pages: 9, processing_mode: 'sync', expansion: 'internal', link_extraction_config: { max_depth: 9 } })) as CrawlDetail;
  return done.documents.map((d) => ({ url: d.url, title: d.title, language: d.language, text: d.text, markdown: d.markdown, links: d.links, metadata: d.metadata, outlinks: d.outlink_count })).sort((a, b) => a.url.localeCompare(b.url));
}

describe('a crawl reading its pages on worker threads', () => {
  it('stores exactly what a crawl reading them in place stores', async () => {
    const inPlace = openTestEngine({ allowPrivateNetwork: true, parseWorkers: 0 });
    const expected = await crawl(inPlace, 'in-place@x.test').finally(() => inPlace.dispose());
    expect(expected).toHaveLength(9);
    // Two readers, whose answers can come back out of the order the pages went out in. The first crawl starts them and
    // reads its pages in place while they load their code (a few hundred ms through tsx, ample time given below); the
    // second has its pages read by them (a single crawl of nine pages would have none).
    const t = openTestEngine({ allowPrivateNetwork: true, parseWorkers: 2 });
    try {
      expect(await crawl(t, 'first@x.test')).toEqual(expected);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await crawl(t, 'second@x.test')).toEqual(expected);
    } finally {
      await t.dispose();
    }
  }, 60_000);
});
