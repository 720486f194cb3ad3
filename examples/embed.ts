/**
 * Embedding the engine in a Node app: one typed call per operation, no server, no accounts (calls
 * run as the local owner). A tiny shop on loopback is crawled with an intent and an extraction
 * schema, searched, asked about, and monitored through one price change. `pnpm tsx examples/embed.ts`
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '@wvr/engine';

let price = 249;
const product = (name: string, euros: number, text: string) =>
  `<html><head><title>${name}</title><script type="application/ld+json">${JSON.stringify({ '@type': 'Product', name, offers: { price: euros, priceCurrency: 'EUR' } })}</script></head>` +
  `<body><h1>${name}</h1><p>${text}</p><p>Price: €${euros}</p></body></html>`;
const pages: Record<string, () => string> = {
  '/': () => '<html><head><title>Shop</title></head><body><a href="/aurora">Aurora headphones</a> <a href="/breeze">Breeze earbuds</a></body></html>',
  '/aurora': () => product('Aurora headphones', price, 'Noise cancelling over-ear headphones with 30 hours of battery life.'),
  '/breeze': () => product('Breeze earbuds', 89, 'Small wireless earbuds with 8 hours of battery life.'),
};
const site = createServer((req, res) => {
  const page = pages[req.url ?? '']?.();
  res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page ?? 'not found');
});
await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
const shop = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

const engine = createEngine({ dataDir: mkdtempSync(join(tmpdir(), 'wvr-embed-')), allowPrivateNetwork: true });
engine.jobs.start({ pollMs: 20 }); // run queued crawls here; engine.start() would also run the schedules
try {
  const crawl = await engine.ops.crawls.create({
    urls: [`${shop}/`],
    max_pages: 5,
    expansion: 'internal',
    intent: 'noise cancelling headphones',
    extraction_schema: { name: 'The product name', price: 'The price as a number' },
  });
  if ('dry_run' in crawl) throw new Error('not a dry run');
  for await (const p of engine.ops.crawls.watch(crawl.id, { signal: AbortSignal.timeout(30_000) })) console.log(`crawl ${p.status}: ${p.stats.pages_crawled} pages`);
  const { data } = await engine.ops.crawls.documents({ id: crawl.id });
  for (const d of data.filter((d) => d.extracted_data?.price)) console.log(`- ${d.extracted_data?.name}: ${d.extracted_data?.price} EUR`);

  const found = await engine.ops.search.quick({ query: 'battery headphones' });
  console.log(`search: ${found.results.map((r) => r.title).join(', ')}`);
  const answer = await engine.ops.asks.create({ question: 'Which headphones cancel noise?', depth: 'quick' }, { signal: AbortSignal.timeout(30_000) });
  console.log(`ask: ${answer.answer.replace(/\s+/g, ' ')} (${answer.sources.length} sources)`);

  const { workflow } = await engine.ops.workflows.create({ name: 'Aurora price', workflow_type: 'crawl', operation_config: { urls: [`${shop}/aurora`], max_pages: 1 }, interval: '1 day' });
  await engine.ops.workflows.execute({ id: workflow!.id });
  price = 199;
  const second = await engine.ops.workflows.execute({ id: workflow!.id });
  if (second.dry_run) throw new Error('not a dry run');
  console.log(`monitor: ${second.execution.result_changes?.changed_urls?.length ?? 0} changed page(s)`);
} finally {
  await engine.close();
  site.close();
}
