import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import { isWvrError, type WvrError } from '../core/errors.js';
import type { Principal } from '../accounts/schemas.js';

let t: TestEngine;
let p: Principal;
let server: Server | undefined;
afterEach(async () => {
  await t.dispose();
  if (server) await new Promise((done) => server!.close(done));
  server = undefined;
});

async function open(options: Parameters<typeof openTestEngine>[0] = {}): Promise<void> {
  t = openTestEngine(options);
  p = t.engine.accounts.localPrincipal(await t.engine.accounts.ensureUser({ email: 'watcher@x.test' }));
}

/** Public pages about kettles in the local index: a shop, a news site, a forum, a university, docs. */
async function indexKettlePages(): Promise<void> {
  const add = (url: string, title: string, text: string, schemaTypes: string[] = []) =>
    t.engine.search.index.upsert({ url, title, text, description: text, schemaTypes, ownerUserId: null, fetchedAt: '2026-03-10T12:00:00Z' });
  await add('http://shop.test/products/kettle', 'Steel Kettle', 'A steel kettle that boils water fast. Add to cart today.', ['Product']);
  await add('http://news.test/news/kettle-recall', 'Kettle Recall Announced', 'Regulators announced a kettle recall after reports of faults.', ['NewsArticle']);
  await add('http://daily.test/news/kettle-prices', 'Kettle Prices Rise', 'Reporters found kettle prices rose this week, the news desk said.', ['NewsArticle']);
  await add('http://forum.test/threads/kettle-descaling', 'Descaling my kettle', 'Posted by a reader: how do I descale a kettle? Replies welcome.');
  await add('http://uni.edu/papers/kettle-thermodynamics', 'Kettle Thermodynamics', 'Abstract: we measure how a kettle heats water, peer-reviewed.');
}

async function failure(fn: () => unknown): Promise<WvrError> {
  try {
    await fn();
  } catch (error) {
    if (isWvrError(error)) return error;
    throw error;
  }
  throw new Error('expected a WvrError');
}

describe('search patrols use every search option', () => {
  it('applies source_type, summary and suggestions, and charges 2 credits when generate_suggestions is set', async () => {
    await open();
    await indexKettlePages();
    const config = { query: 'kettle', source_type: 'news', generate_suggestions: true, generate_summary: true };
    const { workflow } = await t.engine.workflows.create(p, { name: 'kettle news', workflow_type: 'search', operation_config: config, interval: '1 day' });
    expect(workflow!.estimated_credits_per_execution).toBe(2);
    const before = await t.engine.credits.balance(p.userId);
    const run = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(run.results!.map((r) => r.url).sort()).toEqual(['http://daily.test/news/kettle-prices', 'http://news.test/news/kettle-recall']);
    expect(run.results!.every((r) => r.source_type === 'news')).toBe(true);
    expect(run.suggested_queries!.length).toBeGreaterThan(0);
    expect(run.summary!.citations.map((c) => c.url).sort()).toEqual(run.results!.map((r) => r.url).sort());
    expect(run.credits).toMatchObject({ consumed: 2, pricing_tier: 'advanced', advanced_features: ['generate_suggestions'] });
    expect(await t.engine.credits.balance(p.userId)).toBe(before - 2);
    // The patrol's search is neither charged again nor recorded as a search job.
    expect((await t.engine.search.list(p)).total).toBe(0);
  });

  it('applies include_domains and exclude_domains', async () => {
    await open();
    await indexKettlePages();
    const only = await t.engine.workflows.create(p, { name: 'only', workflow_type: 'search', operation_config: { query: 'kettle', include_domains: ['news.test', 'uni.edu'] }, interval: '1 day' });
    const without = await t.engine.workflows.create(p, { name: 'without', workflow_type: 'search', operation_config: { query: 'kettle', exclude_domains: ['shop.test'] }, interval: '1 day' });
    const urls = async (id: string) => (await t.engine.workflows.execute(p, id)).execution!.results!.map((r) => new URL(r.url).hostname).sort();
    expect(await urls(only.workflow!.id)).toEqual(['news.test', 'uni.edu']);
    expect(await urls(without.workflow!.id)).toEqual(['daily.test', 'forum.test', 'news.test', 'uni.edu']);
  });

  it('charges 3 credits for a reranked patrol with a natural_language stop, and says so before running', async () => {
    await open();
    await indexKettlePages();
    const stop = { type: 'natural_language', description: 'a kettle recall is announced by regulators', confidence_threshold: 0.99 };
    const body = { name: 'recall', workflow_type: 'search', operation_config: { query: 'kettle', rerank_results: true }, stop_condition: stop, interval: '1 day' };
    expect((await t.engine.workflows.create(p, { ...body, dry_run: true })).estimate.credits_per_execution).toBe(3);
    const { workflow } = await t.engine.workflows.create(p, body);
    const run = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(run.credits).toMatchObject({ consumed: 3, advanced_features: ['rerank_results', 'natural_language_stop_condition'] });
    expect(run.results!.length).toBe(5);
    const scores = run.results!.map((r) => r.relevance_score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('answers 400 with the field path for a bad operation_config, on create and on a PATCH of operation_config alone', async () => {
    await open();
    const bad = await failure(() => t.engine.workflows.create(p, { name: 'x', workflow_type: 'search', operation_config: { query: 'kettle', source_type: 'gossip' }, interval: '1 day' }));
    expect(bad.status).toBe(400);
    expect(bad.details).toMatchObject({ fields: [{ path: 'operation_config.source_type' }] });
    const { workflow } = await t.engine.workflows.create(p, { name: 'x', workflow_type: 'search', operation_config: { query: 'kettle' }, interval: '1 day' });
    const patched = await failure(() => t.engine.workflows.update(p, workflow!.id, { operation_config: { query: 'kettle', max_results: 50, processing_mode: 'sync' } }));
    expect(patched.status).toBe(400);
    expect((patched.details as { fields: { path: string }[] }).fields.map((f) => f.path).sort()).toEqual(['operation_config', 'operation_config.max_results']);
    expect((await t.engine.workflows.get(p, workflow!.id)).operation_config).toEqual({ query: 'kettle' });
  });
});

/** A SearXNG stand-in: a shop page ranked first, an arXiv paper second; it records the query of each search (its first page). */
async function startSearx(): Promise<string[]> {
  const queries: string[] = [];
  server = createServer((req, res) => {
    const params = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    const first = params.get('pageno') === '1';
    if (first) queries.push(params.get('q') ?? '');
    const results = first
      ? [
          { url: 'http://shop.test/products/kettle', title: 'Steel Kettle', content: 'A steel kettle. Add to cart.', score: 1 },
          { url: 'https://arxiv.org/abs/2601.00001', title: 'Kettle Thermodynamics', content: 'Abstract: how a kettle heats water.', score: 0.7 },
        ]
      : [];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
  });
  await new Promise<void>((listening) => server!.listen(0, '127.0.0.1', listening));
  await open({ searxngUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, searchProvider: 'searxng', allowPrivateNetwork: true });
  return queries;
}

describe('search patrols in a session', () => {
  const config = { query: 'kettle', rerank_results: true };

  it('sends the academic_research intent’s query additions and boosts the academic result to the top', async () => {
    const queries = await startSearx();
    const session = await t.engine.sessions.create(p, { name: 'kettle science', metadata: { intent: { type: 'academic_research' } } });
    const { workflow } = await t.engine.workflows.create(p, { name: 'papers', workflow_type: 'search', operation_config: config, interval: '1 day', session_id: session.id });
    const first = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(queries).toEqual(['kettle research paper']);
    expect(first.results!.map((r) => [r.url, r.relevance_score])).toEqual([
      // 0.7 x 1.25 (academic authority) x 1.15 (preferred type) x 1.2 (intent boost)
      ['https://arxiv.org/abs/2601.00001', 1.2075],
      ['http://shop.test/products/kettle', 1],
    ]);
    // Seen URLs are neither filtered nor demoted: change tracking compares whole executions.
    const second = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(second.results!.map((r) => r.url)).toEqual(first.results!.map((r) => r.url));
    expect(second.result_changes).toMatchObject({ net_new_count: 0, dropped_count: 0, retained_count: 2, first_seen_count: 0 });
  });

  it('gives multi_step search steps the session’s intent too', async () => {
    const queries = await startSearx();
    const session = await t.engine.sessions.create(p, { name: 'kettle science', metadata: { intent: { type: 'academic_research' } } });
    const { workflow } = await t.engine.workflows.create(p, {
      name: 'steps',
      mode: 'multi_step',
      interval: '1 day',
      session_id: session.id,
      steps: [{ id: 'find', type: 'search', config: { query: 'kettle', max_results: 2 } }],
    });
    const run = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(queries).toEqual(['kettle research paper']);
    expect(run.result_count).toBe(2);
  });

  it('searches the plain query, unboosted, without a session or when the session turns its context off', async () => {
    const queries = await startSearx();
    const plain = await t.engine.workflows.create(p, { name: 'plain', workflow_type: 'search', operation_config: config, interval: '1 day' });
    const session = await t.engine.sessions.create(p, { name: 'no context', metadata: { intent: { type: 'academic_research' } }, session_config: { use_session_context: false } });
    const off = await t.engine.workflows.create(p, { name: 'off', workflow_type: 'search', operation_config: config, interval: '1 day', session_id: session.id });
    for (const { workflow } of [plain, off]) {
      const run = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
      expect(run.results!.map((r) => [r.url, r.relevance_score])).toEqual([
        ['http://shop.test/products/kettle', 1],
        // 0.7 x 1.25: an authority of some source type, but no preferred type and no intent boost
        ['https://arxiv.org/abs/2601.00001', 0.875],
      ]);
    }
    expect(queries).toEqual(['kettle', 'kettle']);
  });
});

describe('failed workflows', () => {
  it('turns failed after 3 failed scheduled runs, and a successful manual run revives it with next_run_at set', async () => {
    let healthy = false;
    server = createServer((req, res) => {
      if (!healthy) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('searxng is down');
        return;
      }
      const page = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('pageno');
      const results = page === '1' ? [{ url: 'http://news.test/kettle-recall', title: 'Kettle recall', content: 'A kettle recall was announced.' }] : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    });
    await new Promise<void>((listening) => server!.listen(0, '127.0.0.1', listening));
    await open({ searxngUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, searchProvider: 'searxng', allowPrivateNetwork: true });
    const { workflow } = await t.engine.workflows.create(p, { name: 'flaky', workflow_type: 'search', operation_config: { query: 'kettle recall' }, interval_minutes: 10 });
    for (let i = 0; i < 3; i++) {
      const [ran] = await t.engine.workflows.scheduler.tick();
      expect(ran).toBeDefined();
      t.clock.advance(10 * 60_000);
    }
    const failed = await t.engine.workflows.get(p, workflow!.id);
    expect(failed).toMatchObject({ status: 'failed', next_run_at: null, execution_count: 0 });
    expect(failed.recent_executions.map((e) => e.status)).toEqual(['failed', 'failed', 'failed']);
    expect(await t.engine.credits.balance(p.userId)).toBe(100);

    healthy = true;
    const revived = await t.engine.workflows.execute(p, workflow!.id);
    expect(revived).toMatchObject({ status: 'active', execution: { status: 'completed', trigger: 'manual', result_count: 1 } });
    const now = t.clock.now().getTime();
    const active = await t.engine.workflows.get(p, workflow!.id);
    expect(active).toMatchObject({ status: 'active', status_reason: null, execution_count: 1 });
    expect(Date.parse(active.next_run_at!)).toBeGreaterThan(now);
    expect(Date.parse(active.next_run_at!)).toBeLessThanOrEqual(now + 10 * 60_000);
    t.clock.advance(10 * 60_000);
    expect(await t.engine.workflows.scheduler.tick()).toHaveLength(1);
  });
});
