import type { WvrError } from '../core/errors.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../accounts/schemas.js';
import { openTestEngine, principalOf, rejectionCodeOf, type TestEngine } from '../testing/engine.js';
import type { SearchDryRun, SearchJob } from './schemas.js';

let t: TestEngine;
let alice: Principal;
let bob: Principal;

beforeEach(async () => {
  t = openTestEngine();
  alice = await principalOf(t.engine, 'alice@x.test');
  bob = await principalOf(t.engine, 'bob@x.test');
  const index = t.engine.search.index;
  const add = (url: string, title: string, text: string, extra: Record<string, unknown> = {}) =>
    index.upsert({ url, title, text, description: text, ownerUserId: null, fetchedAt: '2026-03-10T12:00:00Z', ...extra });
  await add('http://shop.test/products/kettle', 'Steel Kettle', 'A steel kettle that boils water fast. Add to cart today.', { schemaTypes: ['Product'] });
  await add('http://news.test/news/kettle-recall', 'Kettle Recall Announced', 'Regulators announced a kettle recall after reports of faults.', { schemaTypes: ['NewsArticle'] });
  await add('http://forum.test/threads/kettle-descaling', 'Descaling my kettle', 'Posted by a reader: how do I descale a kettle? Replies welcome.');
  await add('http://uni.edu/papers/kettle-thermodynamics', 'Kettle Thermodynamics', 'Abstract: we measure how a kettle heats water, peer-reviewed.');
  await add('http://docs.test/docs/kettle-api', 'Kettle API documentation', 'Documentation for the kettle control API and its specs.');
  afterEach(async () => {
    // Whatever a test did, the balance it reports is the ledger's sum.
    expect(await t.engine.credits.balance(alice.userId)).toBe(await t.engine.credits.ledgerSum(alice.userId));
  });
});
afterEach(() => t.dispose());

const balance = (p: Principal = alice) => t.engine.credits.balance(p.userId);
const sync = (body: Record<string, unknown>, p: Principal = alice) =>
  t.engine.search.search(p, { processing_mode: 'sync', ...body }) as Promise<SearchJob>;
describe('prices', () => {
  const cases: [Record<string, boolean>, number, string[]][] = [
    [{}, 1, []],
    [{ rerank_results: true }, 2, ['rerank_results']],
    [{ generate_suggestions: true }, 2, ['generate_suggestions']],
    [{ rerank_results: true, generate_suggestions: true }, 2, ['rerank_results', 'generate_suggestions']],
    [{ generate_summary: false }, 1, []],
    [{ generate_summary: true, rerank_results: true }, 2, ['rerank_results']],
  ];
  for (const [flags, credits, features] of cases) {
    it(`charges ${credits} credit(s) for a full search with ${JSON.stringify(flags)}`, async () => {
      const before = await balance();
      const job = await sync({ query: 'kettle', ...flags });
      expect(job.credits).toEqual({
        consumed: credits,
        balance_after: before - credits,
        pricing_tier: credits === 2 ? 'advanced' : 'basic',
        advanced_features: features,
      });
      expect(await balance()).toBe(before - credits);
    });

    it(`quotes ${credits} credit(s) in a dry run with ${JSON.stringify(flags)} and charges nothing`, async () => {
      const before = await balance();
      const dry = (await t.engine.search.search(alice, { query: 'kettle', dry_run: true, ...flags })) as SearchDryRun;
      expect(dry).toEqual({
        dry_run: true,
        query: 'kettle',
        credits: { would_consume: credits, pricing_tier: credits === 2 ? 'advanced' : 'basic', advanced_features: features },
        would_succeed: true,
        credits_balance: before,
      });
      expect(await balance()).toBe(before);
      expect((await t.engine.search.list(alice)).total).toBe(0);
    });
  }

  it('charges 1 credit for a quick search and reports it', async () => {
    const out = await t.engine.search.quick(alice, { query: 'kettle' });
    expect(out.credits).toEqual({ consumed: 1, balance_after: 99, pricing_tier: 'basic', advanced_features: [] });
    expect(await balance()).toBe(99);
  });

  it('answers 402 and charges nothing when the balance is short', async () => {
    await t.engine.credits.charge(alice.userId, { credits: 99, pricing_tier: 'basic', advanced_features: [] }, 'test');
    expect(await rejectionCodeOf(() => sync({ query: 'kettle', rerank_results: true }))).toBe('402 insufficient_credits');
    expect(await balance()).toBe(1);
    const dry = (await t.engine.search.search(alice, { query: 'kettle', rerank_results: true, dry_run: true })) as SearchDryRun;
    expect(dry.would_succeed).toBe(false);
    const refused = (await sync({ query: 'kettle', rerank_results: true }).then(() => null, (e: WvrError) => e))!;
    expect(refused.suggestions!.join(' ')).toMatch(/rerank_results/);
    expect(refused.suggestions!.join(' ')).not.toMatch(/max_pages|extraction_schema/);
  });

  it('rejects bad bodies with 400', async () => {
    expect(await rejectionCodeOf(() => t.engine.search.search(alice, { query: '' }))).toMatch(/^400 /);
    expect(await rejectionCodeOf(() => t.engine.search.search(alice, { query: 'x', max_results: 21 }))).toMatch(/^400 /);
    expect(await rejectionCodeOf(() => t.engine.search.search(alice, { query: 'x', processing_mode: 'webhook' }))).toBe('400 webhook_url_required');
    expect(await rejectionCodeOf(() => t.engine.search.quick(alice, { query: 'x', include_domains: 'a.test' }))).toMatch(/^400 /);
  });
});

describe('quick search', () => {
  it('keeps to include_domains and drops exclude_domains', async () => {
    const only = await t.engine.search.quick(alice, { query: 'kettle', include_domains: ['news.test'] });
    expect(only.results.map((r) => r.url)).toEqual(['http://news.test/news/kettle-recall']);
    const without = await t.engine.search.quick(alice, { query: 'kettle', exclude_domains: ['news.test', 'shop.test'] });
    expect(without.results.map((r) => r.url).sort()).toEqual([
      'http://docs.test/docs/kettle-api',
      'http://forum.test/threads/kettle-descaling',
      'http://uni.edu/papers/kettle-thermodynamics',
    ]);
    expect(without.results.every((r) => r.relevance_score > 0 && r.relevance_score <= 1)).toBe(true);
  });

  it('matches a domain filter without a port on every port of the host, and one with a port on that port only', async () => {
    await t.engine.search.index.upsert({ url: 'http://127.0.0.1:8080/kettles', title: 'Local kettle', text: 'A kettle on a local site.', ownerUserId: null, fetchedAt: '2026-03-10T12:00:00Z' });
    await t.engine.search.index.upsert({ url: 'http://127.0.0.1:9090/kettles', title: 'Other kettle', text: 'A kettle on another local site.', ownerUserId: null, fetchedAt: '2026-03-10T12:00:00Z' });
    const urls = async (body: Record<string, unknown>) => (await t.engine.search.quick(alice, { query: 'kettle', ...body })).results.map((r) => r.url).sort();
    expect(await urls({ include_domains: ['127.0.0.1'] })).toEqual(['http://127.0.0.1:8080/kettles', 'http://127.0.0.1:9090/kettles']);
    expect(await urls({ include_domains: ['127.0.0.1:8080'] })).toEqual(['http://127.0.0.1:8080/kettles']);
    expect(await urls({ exclude_domains: ['127.0.0.1', 'shop.test', 'news.test', 'forum.test', 'uni.edu', 'docs.test'] })).toEqual([]);
  });
});

describe('full search', () => {
  it('keeps only results of the requested source_type', async () => {
    const expected = {
      commercial: 'http://shop.test/products/kettle',
      news: 'http://news.test/news/kettle-recall',
      community: 'http://forum.test/threads/kettle-descaling',
      academic: 'http://uni.edu/papers/kettle-thermodynamics',
    };
    for (const [type, url] of Object.entries(expected)) {
      const job = await sync({ query: 'kettle', source_type: type });
      expect(job.results.map((r) => [r.url, r.source_type])).toEqual([[url, type]]);
    }
    expect((await sync({ query: 'kettle', source_type: 'mixed' })).results).toHaveLength(5);
  });

  it('writes an extractive summary whose every marker cites a returned result', async () => {
    const job = await sync({ query: 'kettle recall' });
    expect(job.summary).not.toBeNull();
    const markers = [...job.summary!.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(markers.length).toBeGreaterThan(0);
    for (const m of markers) expect(job.summary!.citations.find((c) => c.marker === m)!.url).toBe(job.results[m - 1]!.url);
    expect((await sync({ query: 'kettle', generate_summary: false })).summary).toBeNull();
  });

  it('suggests follow-up queries only when asked', async () => {
    expect((await sync({ query: 'kettle' })).suggested_queries).toEqual([]);
    const job = await sync({ query: 'kettle', generate_suggestions: true });
    expect(job.suggested_queries.length).toBeGreaterThan(0);
    for (const s of job.suggested_queries) expect(s.toLowerCase()).toContain('kettle');
  });

  it('applies a session intent: technical_evaluation lifts documentation by 20% under reranking', async () => {
    const plain = await sync({ query: 'kettle', rerank_results: true });
    const withIntent = await t.engine.search.search(
      alice,
      { query: 'kettle', rerank_results: true, processing_mode: 'sync' },
      { sessionId: '00000000-0000-4000-8000-000000000001', intentType: 'technical_evaluation' },
    ) as SearchJob;
    const docs = (j: SearchJob) => j.results.find((r) => r.url === 'http://docs.test/docs/kettle-api')!;
    expect(withIntent.session_id).toBe('00000000-0000-4000-8000-000000000001');
    expect(withIntent.results[0]!.url).toBe('http://docs.test/docs/kettle-api');
    expect(docs(withIntent).relevance_score).toBeGreaterThan(docs(plain).relevance_score);
  });

  it('drops seen URLs when the session filters them', async () => {
    const job = (await t.engine.search.search(
      alice,
      { query: 'kettle', processing_mode: 'sync' },
      { sessionId: '00000000-0000-4000-8000-000000000002', seenUrls: ['http://shop.test/products/kettle'], filterSeenUrls: true },
    )) as SearchJob;
    expect(job.results.map((r) => r.url)).not.toContain('http://shop.test/products/kettle');
    expect(job.results).toHaveLength(4);
  });
});

describe('search jobs', () => {
  it('runs an async search on the job queue: pending first, completed with timing after', async () => {
    t.clock.set('2026-03-10T12:00:00Z');
    const job = (await t.engine.search.search(alice, { query: 'kettle' })) as SearchJob;
    expect(job.status).toBe('pending');
    expect(job.results).toEqual([]);
    expect(job.credits.consumed).toBe(1);
    t.clock.set('2026-03-10T12:00:02Z');
    await t.engine.jobs.drain();
    const done = await t.engine.search.get(alice, job.id);
    expect(done.status).toBe('completed');
    expect(done.results).toHaveLength(5);
    expect(done.timing).toEqual({
      created_at: '2026-03-10T12:00:00.000Z',
      started_at: '2026-03-10T12:00:02.000Z',
      completed_at: '2026-03-10T12:00:02.000Z',
      duration_ms: 0,
    });
  });

  it('notifies the webhook when a webhook-mode search completes', async () => {
    const job = (await t.engine.search.search(alice, { query: 'kettle', processing_mode: 'webhook', webhook_url: 'http://hooks.test/x' })) as SearchJob;
    await t.engine.jobs.drain();
    const deliveries = (await t.engine.notify.listDeliveries(alice)).data;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ kind: 'search.completed', target: 'http://hooks.test/x', status: 'pending' });
    expect((await t.engine.search.get(alice, job.id)).status).toBe('completed');
  });

  it('lists by status with paging, deletes, and 404s for other users', async () => {
    await sync({ query: 'kettle one' });
    await sync({ query: 'kettle two' });
    await t.engine.search.search(alice, { query: 'kettle three' });
    expect((await t.engine.search.list(alice, { status: 'completed' })).total).toBe(2);
    expect((await t.engine.search.list(alice, { status: 'pending' })).data.map((j) => j.query)).toEqual(['kettle three']);
    const page = await t.engine.search.list(alice, { limit: 1, offset: 1 });
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.data).toHaveLength(1);
    expect((await t.engine.search.list(bob)).total).toBe(0);
    const id = page.data[0]!.id;
    expect(await rejectionCodeOf(() => t.engine.search.get(bob, id))).toBe('404 search_job_not_found');
    expect(await rejectionCodeOf(() => t.engine.search.remove(bob, id))).toBe('404 search_job_not_found');
    await t.engine.search.remove(alice, id);
    expect(await rejectionCodeOf(() => t.engine.search.get(alice, id))).toBe('404 search_job_not_found');
    expect((await t.engine.search.list(alice)).total).toBe(2);
  });

  it('shares a job publicly: others may read it, and the flag shows', async () => {
    const job = await sync({ query: 'kettle' });
    expect(job.public_share).toBe(false);
    expect(await rejectionCodeOf(() => t.engine.search.share(bob, job.id, { public_share: true }))).toBe('404 search_job_not_found');
    expect(await t.engine.search.share(alice, job.id, { public_share: true })).toEqual({ id: job.id, public_share: true });
    expect((await t.engine.search.get(bob, job.id)).public_share).toBe(true);
    expect(await rejectionCodeOf(() => t.engine.search.share(alice, job.id, {}))).toMatch(/^400 /);
  });

  it('reports providers, features and the caller’s statistics', async () => {
    await sync({ query: 'kettle' });
    const o = await t.engine.search.overview(alice);
    expect(o.providers).toEqual([expect.objectContaining({ name: 'local', kind: 'index', default: true })]);
    expect(o.statistics).toEqual({ searches_total: 1, searches_by_status: { completed: 1 }, indexed_pages_own: 0, indexed_pages_public: 5 });
  });
});

describe('tenant isolation', () => {
  beforeEach(async () => {
    await t.engine.search.index.upsert({
      url: 'http://private.test/board-minutes',
      title: 'Board minutes: kettle acquisition',
      text: 'Confidential kettle acquisition terms.',
      ownerUserId: alice.userId,
      crawlId: 'crawl-alice',
      fetchedAt: '2026-03-10T12:00:00Z',
    });
  });
  const urls = (r: { results: { url: string }[] }) => r.results.map((x) => x.url);

  it('never shows another user’s private crawl pages in quick or full search', async () => {
    expect(urls(await t.engine.search.quick(alice, { query: 'kettle acquisition' }))).toContain('http://private.test/board-minutes');
    expect(urls(await t.engine.search.quick(bob, { query: 'kettle acquisition' }))).not.toContain('http://private.test/board-minutes');
    expect(urls(await sync({ query: 'confidential acquisition' }, bob))).toEqual([]);
    expect(urls(await t.engine.search.quick(bob, { query: 'kettle', include_domains: ['private.test'] }))).toEqual([]);
  });

  it('shows a crawl shared with the reader’s organization, and only to its members', async () => {
    const org = await t.engine.accounts.createOrganization({ name: 'Acme', ownerUserId: alice.userId });
    await t.engine.accounts.addMember(org.id, bob.userId);
    const carol = await principalOf(t.engine, 'carol@x.test');
    await t.engine.sharing.share(alice, { type: 'crawl', id: 'crawl-alice', ownerUserId: alice.userId }, { shared_with_org: true, organization_id: org.id });
    expect(urls(await t.engine.search.quick(bob, { query: 'confidential' }))).toEqual(['http://private.test/board-minutes']);
    expect(urls(await t.engine.search.quick(carol, { query: 'confidential' }))).toEqual([]);
  });
});

describe('uncharged run', () => {
  it('answers with every option applied, neither charging nor recording a job', async () => {
    const before = await balance();
    const run = await t.engine.search.run(alice, { query: 'kettle', source_type: 'news', rerank_results: true, generate_suggestions: true });
    expect(run.provider).toBe('local');
    expect(run.results.map((r) => r.url)).toEqual(['http://news.test/news/kettle-recall']);
    expect(run.suggested_queries.length).toBeGreaterThan(0);
    expect(run.summary!.citations[0]!.url).toBe('http://news.test/news/kettle-recall');
    expect(await balance()).toBe(before);
    expect((await t.engine.search.list(alice)).total).toBe(0);
  });

  it('returns what the charged search of the same body returns', async () => {
    const body = { query: 'kettle', rerank_results: true, exclude_domains: ['shop.test'] };
    const run = await t.engine.search.run(alice, body);
    const job = await sync(body);
    expect(job.results).toEqual(run.results);
    expect(job.summary).toEqual(run.summary);
    expect(run.results.map((r) => r.url)).not.toContain('http://shop.test/products/kettle');
  });

  it('rejects delivery fields and bad options with 400', async () => {
    expect(await rejectionCodeOf(() => t.engine.search.run(alice, { query: 'kettle', processing_mode: 'sync' }))).toBe('400 unknown_field');
    expect(await rejectionCodeOf(() => t.engine.search.run(alice, { query: 'kettle', source_type: 'gossip' }))).toBe('400 source_type_invalid');
  });
});

describe('domain filters in full search', () => {
  it('keeps only include_domains and drops exclude_domains', async () => {
    const hosts = (job: SearchJob) => job.results.map((r) => new URL(r.url).hostname).sort();
    expect(hosts(await sync({ query: 'kettle', include_domains: ['news.test', 'uni.edu'] }))).toEqual(['news.test', 'uni.edu']);
    expect(hosts(await sync({ query: 'kettle', exclude_domains: ['shop.test', 'forum.test'] }))).toEqual(['docs.test', 'news.test', 'uni.edu']);
  });
});
