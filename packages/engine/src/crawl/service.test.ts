import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { rejectionCodeOf, openTestEngine, sqlOf, principalOf, fundedPrincipalOf, sharingCast, type TestEngine } from '../testing/engine.js';
import type { EngineOptions } from '../core/options.js';
import { intentFromSchema } from '../extract/intent.js';
import { summarizeText } from '../extract/summary.js';
import type { Principal } from '../accounts/schemas.js';
import type { CrawlDetail } from './responses.js';

let web: LocalWeb;
let t: TestEngine;
let owner: Principal;

beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 300, articles: 30, docsDepth: 3 } });
});
afterAll(async () => web.close());
afterEach(async () => t.dispose());

async function open(grant = 1000, options: EngineOptions = {}) {
  t = openTestEngine({ allowPrivateNetwork: true, ...options });
  owner = grant > 0 ? await fundedPrincipalOf(t.engine, 'crawler@x.test', grant) : await principalOf(t.engine, 'crawler@x.test');
  return t.engine;
}

/** An OpenAI-compatible endpoint that answers every chat completion with one fixed text. */
async function modelStub(content: string) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }], usage: { prompt_tokens: 10, completion_tokens: 5 } })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise((r) => server.close(r)) };
}

describe('CrawlService', () => {
  it('returns a pending job at once in async mode and completes it through the job queue', async () => {
    const engine = await open();
    const before = await engine.credits.balance(owner.userId);
    const created = (await engine.crawls.create(owner, { urls: [`${web.catalogue}/`], max_pages: 12, expansion: 'internal' })) as CrawlDetail;
    expect(created.status).toBe('pending');
    expect(await engine.credits.balance(owner.userId)).toBe(before - 12);
    await engine.jobs.drain();
    const done = await engine.crawls.get(owner, created.id);
    expect(done.status).toBe('completed');
    expect(done.documents).toHaveLength(12);
    expect(done.stats.pages_crawled).toBe(12);
    expect(await engine.credits.balance(owner.userId)).toBe(before - 12);
    const home = done.documents[0]!;
    expect(home.url).toBe(`${web.catalogue}/`);
    expect(home.title).toBeTruthy();
    expect(home.markdown.length).toBeGreaterThan(0);
    expect(home.links.length).toBeGreaterThan(5);
    expect(home.outlink_count).toBeGreaterThan(0);
    expect(done.documents.every((d) => d.depth <= 1)).toBe(true);
    expect(done.smart_crawl).toMatchObject({ enabled: true, algorithm: 'opic' });
    expect(done.smart_crawl!.stats.total_nodes).toBeGreaterThan(12);
    expect(new Set(done.documents.map((d) => d.url)).size).toBe(12);
  });

  it('carries the spec’s credits object for its owner: consumed, balance_after, tier and features', async () => {
    const engine = await open();
    const created = (await engine.crawls.create(owner, { urls: [`${web.catalogue}/`], max_pages: 3, expansion: 'internal', extraction_schema: { title: 'the product name on this page' }, processing_mode: 'sync' })) as CrawlDetail;
    expect(created.credits).toEqual({
      consumed: created.stats.credits_used,
      balance_after: await engine.credits.balance(owner.userId),
      pricing_tier: 'advanced',
      advanced_features: ['extraction_schema'],
    });
    expect(created.credits!.consumed).toBe(6);
    expect((await engine.crawls.get(owner, created.id)).credits).toEqual(created.credits);
    await engine.crawls.share(owner, created.id, { public_share: true });
    expect(await engine.crawls.getPublic(created.id)).not.toHaveProperty('credits');
  });

  it('charges only the pages it fetched and gives the rest of the reservation back', async () => {
    const engine = await open();
    const before = await engine.credits.balance(owner.userId);
    const created = (await engine.crawls.create(owner, { urls: [`${web.docs}/`], max_pages: 10, processing_mode: 'sync' })) as CrawlDetail;
    expect(created.status).toBe('completed');
    expect(created.documents).toHaveLength(1);
    expect(created.smart_crawl).toBeNull();
    expect(await engine.credits.balance(owner.userId)).toBe(before - 1);
  });

  it('releases the whole reservation when a scheduled crawl is cancelled', async () => {
    const engine = await open();
    const before = await engine.credits.balance(owner.userId);
    const created = (await engine.crawls.create(owner, { urls: [`${web.catalogue}/`], max_pages: 50, expansion: 'internal' }, { runAt: new Date(t.clock.now().getTime() + 3_600_000) })) as CrawlDetail;
    expect(await engine.credits.balance(owner.userId)).toBe(before - 50);
    const cancelled = await engine.crawls.cancel(owner, created.id);
    expect(cancelled.status).toBe('cancelled');
    expect(await engine.credits.balance(owner.userId)).toBe(before);
    expect(await engine.credits.ledgerSum(owner.userId)).toBe(before);
    t.clock.advance(3_600_000);
    await engine.jobs.drain();
    expect((await engine.crawls.get(owner, created.id)).documents).toHaveLength(0);
  });

  it('aborts a running crawl, keeps what it fetched charged and releases the rest', async () => {
    const engine = await open();
    const before = await engine.credits.balance(owner.userId);
    const created = (await engine.crawls.create(owner, { urls: [`${web.catalogue}/`], max_pages: 300, expansion: 'internal', link_extraction_config: { max_depth: 3 } })) as CrawlDetail;
    const running = engine.jobs.runDue();
    await vi.waitFor(async () => expect((await engine.crawls.get(owner, created.id)).stats.pages_crawled).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    await engine.crawls.abort(owner, created.id);
    await running;
    const aborted = await engine.crawls.get(owner, created.id);
    expect(aborted.status).toBe('cancelled');
    expect(aborted.stats.pages_crawled).toBeLessThan(300);
    expect(aborted.documents.reduce((s, d) => s + d.credits, 0)).toBe(aborted.stats.credits_used);
    expect(await engine.credits.balance(owner.userId)).toBe(before - aborted.stats.credits_used);
    expect((await engine.jobs.get(created.id))!.status).toBe('cancelled');
  });

  it('aborts a crawl while one of its pages is being stored: both commit, none is killed as a deadlock', async () => {
    const engine = await open();
    const before = await engine.credits.balance(owner.userId);
    const created = (await engine.crawls.create(owner, { urls: [`${web.catalogue}/`], max_pages: 10, expansion: 'internal' })) as CrawlDetail;
    const store = engine.context.store;
    const { reservationId } = (await store.crawl.get(created.id))!;
    // A page's commit as the runner makes it: the page charged to the reservation, then counted on the crawl's row.
    let charged!: () => void;
    let counting!: () => void;
    const chargedNow = new Promise<void>((resolve) => (charged = resolve));
    const countNow = new Promise<void>((resolve) => (counting = resolve));
    const page = store.atomically(async () => {
      expect(await store.ledger.useReserved(reservationId!, 1)).toBe('used');
      charged();
      await countNow;
      await store.crawl.countFetched(created.id, 1, false);
    });
    await chargedNow;
    const abort = engine.crawls.abort(owner, created.id);
    // On PostgreSQL the abort waits for the page's lock on the reservation; count the page only then, so a stop
    // that took the crawl's row first would deadlock here. (On SQLite the abort waits for the whole transaction.)
    if (store.dialect === 'postgres') {
      const waiting = "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'";
      await vi.waitFor(async () => expect(await sqlOf(engine).all(waiting)).toHaveLength(1), { timeout: 20_000, interval: 20 });
    }
    counting();
    await page;
    expect((await abort).status).toBe('cancelled');
    // The page stays charged; the rest of the reservation went back.
    expect(await engine.credits.balance(owner.userId)).toBe(before - 1);
    expect(await engine.credits.ledgerSum(owner.userId)).toBe(before - 1);
  });

  it('answers 400 for sync mode above 10 pages and for a proxy tier that is not configured', async () => {
    const engine = await open();
    await expect(engine.crawls.create(owner, { urls: [`${web.catalogue}/`], max_pages: 11, processing_mode: 'sync' })).rejects.toMatchObject({ status: 400, code: 'sync_max_pages_exceeded' });
    await expect(engine.crawls.create(owner, { urls: [`${web.catalogue}/`], premium_proxy: true })).rejects.toMatchObject({ status: 400, code: 'proxy_tier_unavailable' });
  });

  it('answers 402 with nothing reserved when the balance cannot cover max_pages', async () => {
    const engine = await open(0);
    const balance = await engine.credits.balance(owner.userId);
    await expect(engine.crawls.create(owner, { urls: [`${web.catalogue}/`], max_pages: balance + 1, expansion: 'internal' })).rejects.toMatchObject({ status: 402 });
    expect((await engine.crawls.list(owner)).total).toBe(0);
  });

  it('answers an org viewer who cancels or executes a shared crawl with 403 crawl_read_only', async () => {
    const engine = await open();
    const { owner: boss, colleague, outsider, orgId } = await sharingCast(engine);
    await engine.credits.grant(boss.userId, 100);
    const created = (await engine.crawls.create(boss, { urls: [`${web.catalogue}/`], max_pages: 1 })) as CrawlDetail;
    await engine.crawls.share(boss, created.id, { shared_with_org: true, organization_id: orgId });
    expect(await rejectionCodeOf(() => engine.crawls.cancel(colleague, created.id))).toBe('403 crawl_read_only');
    expect(await rejectionCodeOf(() => engine.crawls.execute(colleague, created.id))).toBe('403 crawl_read_only');
    expect(await rejectionCodeOf(() => engine.crawls.cancel(outsider, created.id))).toBe('404 crawl_not_found');
  });

  it('reserves and estimates only its seeds when nothing can expand', async () => {
    const engine = await open(0); // a free user: the month's 100 credits
    const body = { urls: [`${web.catalogue}/`], max_pages: 200 };
    expect(await engine.crawls.estimate(owner, body)).toMatchObject({ cost_estimate: 1, would_succeed: true, max_pages: 1 });
    const created = (await engine.crawls.create(owner, body)) as CrawlDetail;
    expect(created.stats.credits_reserved).toBe(1);
    expect(await engine.credits.balance(owner.userId)).toBe(99);
    expect((await engine.crawls.estimate(owner, { ...body, urls: [`${web.catalogue}/`, `${web.catalogue}/`, `${web.news}/`] })).cost_estimate).toBe(2);
    expect(await engine.crawls.estimate(owner, { ...body, follow_links: true })).toMatchObject({ cost_estimate: 200, would_succeed: false });
  });

  it('estimates and dry-runs at the advanced price when an intent is given, creating nothing', async () => {
    const engine = await open();
    const body = { urls: [`${web.catalogue}/`], max_pages: 20, expansion: 'internal', intent: 'espresso machines for a small office' };
    const estimate = await engine.crawls.estimate(owner, body);
    expect(estimate).toMatchObject({ cost_estimate: 40, would_succeed: true, price_per_page: 2, pricing_tier: 'advanced', advanced_features: ['intent'], max_depth: 2 });
    const dry = await engine.crawls.create(owner, { ...body, dry_run: true, budget_config: { max_credits: 15 } });
    expect(dry).toMatchObject({ dry_run: true, cost_estimate: 15 });
    expect((await engine.crawls.list(owner)).total).toBe(0);
    expect(await engine.credits.balance(owner.userId)).toBe(estimate.credits_balance);
    expect((await engine.crawls.estimate(owner, { ...body, intent: 'every individual product detail page' })).max_depth).toBe(3);
  });

  it('stops at budget_config.max_credits and charges no more than it', async () => {
    const engine = await open();
    const before = await engine.credits.balance(owner.userId);
    const created = (await engine.crawls.create(owner, { urls: [`${web.catalogue}/`], max_pages: 30, expansion: 'internal', budget_config: { max_credits: 7 } })) as CrawlDetail;
    await engine.jobs.drain();
    const done = await engine.crawls.get(owner, created.id);
    expect(done.status).toBe('completed');
    expect(done.documents).toHaveLength(7);
    expect(await engine.credits.balance(owner.userId)).toBe(before - 7);
  });

  it('follows only url_patterns, never exclude_patterns, and drops junk URLs before queueing', async () => {
    const engine = await open();
    const created = (await engine.crawls.create(owner, {
      urls: [`${web.catalogue}/`],
      max_pages: 25,
      follow_links: true,
      link_extraction_config: { max_depth: 2, url_patterns: ['/category/*', '/product/*'], exclude_patterns: ['*?page=*'] },
    })) as CrawlDetail;
    await engine.jobs.drain();
    const done = await engine.crawls.get(owner, created.id);
    expect(done.documents.length).toBeGreaterThan(5);
    for (const d of done.documents.slice(1)) {
      expect(d.url).toMatch(/\/(category|product)\//);
      expect(d.url).not.toContain('page=');
      expect(d.url).not.toMatch(/cart|login|share|print|calendar/);
    }
  });

  it('lists crawls as a page with a status filter and hides other users\' crawls', async () => {
    const engine = await open();
    await engine.crawls.create(owner, { urls: [`${web.docs}/`], max_pages: 1, processing_mode: 'sync' });
    await engine.crawls.create(owner, { urls: [`${web.docs}/`], max_pages: 1 });
    expect(await engine.crawls.list(owner, { limit: 1 })).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect((await engine.crawls.list(owner, { status: 'completed' })).total).toBe(1);
    const stranger = engine.accounts.localPrincipal(await engine.accounts.ensureUser({ email: 'other@x.test' }));
    expect((await engine.crawls.list(stranger)).total).toBe(0);
    const id = (await engine.crawls.list(owner)).data[0]!.id;
    await expect(engine.crawls.get(stranger, id)).rejects.toMatchObject({ status: 404 });
    await expect(engine.crawls.getPublic(id)).rejects.toMatchObject({ status: 404 });
    await engine.crawls.share(owner, id, { public_share: true });
    expect((await engine.crawls.getPublic(id)).access_level).toBe('public');
    expect((await engine.crawls.get(stranger, id)).access_level).toBe('public');
  });

  it('runs a scheduled crawl at once on execute', async () => {
    const engine = await open();
    const created = (await engine.crawls.create(owner, { urls: [`${web.docs}/`], max_pages: 1 }, { runAt: new Date(t.clock.now().getTime() + 86_400_000) })) as CrawlDetail;
    await engine.jobs.runDue();
    expect((await engine.crawls.get(owner, created.id)).status).toBe('pending');
    expect((await engine.crawls.execute(owner, created.id)).scheduled_for).toBe(t.clock.now().toISOString());
    await engine.jobs.runDue();
    const executed = await engine.crawls.get(owner, created.id);
    expect(executed.status).toBe('completed');
    expect(executed.documents).toHaveLength(1);
  });

  it('posts a signed crawl.completed event in webhook mode', async () => {
    const engine = await open();
    const received: { headers: Record<string, unknown>; body: string }[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const created = (await engine.crawls.create(owner, { urls: [`${web.docs}/`], max_pages: 2, processing_mode: 'webhook', webhook_url: url })) as CrawlDetail;
      await engine.jobs.drain();
      await engine.notify.deliverDue();
      expect(received).toHaveLength(1);
      const payload = JSON.parse(received[0]!.body);
      expect(payload).toMatchObject({ type: 'crawl.completed', data: { crawl_id: created.id, status: 'completed' } });
      expect(received[0]!.headers['webhook-signature']).toMatch(/^v1,/);
    } finally {
      await new Promise((r) => hook.close(r));
    }
  });

  it('classifies and extracts each page at the advanced price when asked', async () => {
    const engine = await open();
    const before = await engine.credits.balance(owner.userId);
    const product = web.truth.productUrls('coffee')[0]!;
    const done = (await engine.crawls.create(owner, {
      urls: [product],
      max_pages: 1,
      processing_mode: 'sync',
      classify_documents: true,
      extraction_schema: { price: 'The current price of the product as a number' },
    })) as CrawlDetail;
    expect(done.status).toBe('completed');
    const [doc] = done.documents;
    expect(doc!.classification).toMatchObject({ label: 'product' });
    expect(done.classifications).toEqual([{ url: doc!.url, label: 'product', confidence: doc!.classification!.confidence }]);
    expect(doc!.extracted_data).toHaveProperty('price');
    expect(done.stats).toMatchObject({ pricing_tier: 'advanced', credits_used: 2 });
    expect(await engine.credits.balance(owner.userId)).toBe(before - 2);
  });

  it('writes a free summary when generate_summary is set', async () => {
    const engine = await open();
    const done = (await engine.crawls.create(owner, { urls: [`${web.news}/`], max_pages: 3, expansion: 'internal', generate_summary: true, processing_mode: 'sync' })) as CrawlDetail;
    expect(done.summary).toBeTruthy();
    expect(done.stats.credits_used).toBe(3);
  });

  it('puts every stored page into the local search index, visible to the crawl owner only', async () => {
    const engine = await open();
    const url = web.truth.productUrls('garden')[0]!;
    const done = (await engine.crawls.create(owner, { urls: [url], max_pages: 1, processing_mode: 'sync' })) as CrawlDetail;
    const query = done.documents[0]!.title!;
    const mine = await engine.search.index.search({ query, limit: 5, visibility: { userId: owner.userId, sharedCrawlIds: [] } });
    expect(mine.map((h) => h.url)).toContain(url);
    const theirs = await engine.search.index.search({ query, limit: 5, visibility: { userId: 'someone-else', sharedCrawlIds: [] } });
    expect(theirs.map((h) => h.url)).not.toContain(url);
  });

  it('crawls a page whose title, description and links run past the API\'s limits: indexed with their beginnings, long links left', async () => {
    const longPath = `/${'segment/'.repeat(300)}`;
    const title = `Heron ${'keyword '.repeat(400)}`;
    const server = createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        `<html lang="en"><head><title>${req.url === '/' ? title : 'Short'}</title><meta name="description" content="${'stuffed '.repeat(2000)}"></head>` +
          `<body><main><p>A page nobody here wrote, with a title and a description a search engine would cut, and links.</p>` +
          `<a href="/short">A short link</a> <a href="${longPath}">A link longer than any URL the API takes</a></main></body></html>`,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const engine = await open();
      const done = (await engine.crawls.create(owner, { urls: [`${origin}/`], max_pages: 5, expansion: 'internal', processing_mode: 'sync' })) as CrawlDetail;
      expect(done.status).toBe('completed');
      expect(done.documents.map((d) => d.url).sort()).toEqual([`${origin}/`, `${origin}/short`]);
      // The document keeps the title as read; the index, its first 2,000 characters.
      expect(done.documents.find((d) => d.url === `${origin}/`)!.title!.length).toBeGreaterThan(2_000);
      const [hit] = await engine.search.index.search({ query: 'heron', limit: 5, visibility: { userId: owner.userId, sharedCrawlIds: [] } });
      expect(hit!.url).toBe(`${origin}/`);
      expect(hit!.title).toBe(title.trim().slice(0, 2_000));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('neither stores nor charges the pages a classifier drops, and counts them in stats.pages_filtered', async () => {
    const engine = await open();
    const before = await engine.credits.balance(owner.userId);
    const products = web.truth.productUrls().slice(0, 2);
    const article = web.truth.articleUrls()[0]!;
    const done = (await engine.crawls.create(owner, {
      urls: [...products, article],
      max_pages: 3,
      processing_mode: 'sync',
      classifiers: [{ type: 'document_type', types: ['product'] }],
    })) as CrawlDetail;
    expect(done.status).toBe('completed');
    expect(done.documents.map((d) => d.url).sort()).toEqual([...products].sort());
    expect(done.stats).toMatchObject({ pages_crawled: 2, pages_filtered: 1, pages_skipped: 0, credits_used: 4 });
    expect(before - await engine.credits.balance(owner.userId)).toBe(4);
    expect(await engine.credits.balance(owner.userId)).toBe(await engine.credits.ledgerSum(owner.userId));
  });

  it('summarises every page and the crawl through engine.extraction: extractive under the heuristic provider', async () => {
    const engine = await open();
    const done = (await engine.crawls.create(owner, { urls: [`${web.news}/`], max_pages: 3, expansion: 'internal', generate_summary: true, processing_mode: 'sync' })) as CrawlDetail;
    expect(done.documents).toHaveLength(3);
    for (const doc of done.documents) expect(doc.summary).toBe(summarizeText(doc.text));
    const leads = done.documents.map((d) => d.summary!.split(/(?<=[.!?])\s+/)[0]);
    expect(done.summary).toBeTruthy();
    expect(leads.some((lead) => done.summary!.startsWith(lead!))).toBe(true);
    expect(done.stats.credits_used).toBe(3);
  });

  it('has the model write the page and crawl summaries under the openai provider', async () => {
    const stub = await modelStub('A generated summary.');
    try {
      const engine = await open(1000, { ai: { provider: 'openai', baseUrl: stub.url, model: 'good' } });
      const done = (await engine.crawls.create(owner, { urls: [`${web.news}/`], max_pages: 2, expansion: 'internal', generate_summary: true, processing_mode: 'sync' })) as CrawlDetail;
      expect(done.documents.map((d) => d.summary)).toEqual(['A generated summary.', 'A generated summary.']);
      expect(done.summary).toBe('A generated summary.');
      expect(done.stats.credits_used).toBe(2);
    } finally {
      await stub.close();
    }
  });

  it('derives the intent from the extraction schema with auto_generate_intent', async () => {
    const engine = await open();
    const schema = { price: 'The current price of the product as a number', brand: 'The brand of the product' };
    const dry = await engine.crawls.create(owner, { urls: [`${web.catalogue}/`], extraction_schema: schema, auto_generate_intent: true, dry_run: true });
    expect(dry).toMatchObject({ dry_run: true, configuration: { intent: intentFromSchema(schema) } });
    const done = (await engine.crawls.create(owner, { urls: [web.truth.productUrls()[0]!], max_pages: 1, extraction_schema: schema, auto_generate_intent: true, processing_mode: 'sync' })) as CrawlDetail;
    expect(done.configuration.intent).toBe(intentFromSchema(schema));
    expect(done.stats.advanced_features).toContain('intent');
  });

  it('ends failed at once, reservation released and webhook sent, when the queue gives its job up', async () => {
    const engine = await open();
    const received: string[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(body);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    try {
      const before = await engine.credits.balance(owner.userId);
      const webhook_url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const created = (await engine.crawls.create(owner, { urls: [`${web.catalogue}/`], max_pages: 5, expansion: 'internal', processing_mode: 'webhook', webhook_url })) as CrawlDetail;
      expect(await engine.credits.balance(owner.userId)).toBe(before - 5);
      // Its worker died on the last allowed attempt: the queue fails the job without running it again.
      const job = (await engine.jobs.get(created.id))!;
      await sqlOf(engine).run("update jobs set status = 'running', attempts = ?, owner = 'gone:1:x', lease_until = 0, last_error = 'worker lost' where id = ?", job.maxAttempts, created.id);
      await engine.jobs.runDue();
      expect((await engine.jobs.get(created.id))!.status).toBe('failed');
      // Settled by the queue's onFailed, before anyone reads the crawl.
      const row = (await engine.context.store.crawl.get(created.id))!;
      expect(row).toMatchObject({ status: 'failed' });
      expect(row.error).toContain('worker lost');
      expect(await engine.credits.balance(owner.userId)).toBe(before);
      expect(await engine.credits.balance(owner.userId)).toBe(await engine.credits.ledgerSum(owner.userId));
      await engine.notify.deliverDue();
      expect(received.map((b) => JSON.parse(b))).toMatchObject([{ type: 'crawl.completed', data: { crawl_id: created.id, status: 'failed' } }]);
      const done = await engine.crawls.get(owner, created.id);
      expect(done.stats.credits_reserved).toBe(0);
      expect((await engine.crawls.list(owner)).data[0]!.status).toBe('failed');
    } finally {
      await new Promise((r) => hook.close(r));
    }
  });
});
