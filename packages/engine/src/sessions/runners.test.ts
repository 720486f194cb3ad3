import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import type { Principal } from '../accounts/schemas.js';
import type { CrawlDetail } from '../crawl/responses.js';
import type { SearchJob } from '../search/schemas.js';
import { openTestEngine, principalOf, fundedPrincipalOf, rejectionCodeOf, type TestEngine } from '../testing/engine.js';

let web: LocalWeb;
let t: TestEngine;
let owner: Principal;

beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 40, articles: 10, docsDepth: 2 } });
});
afterAll(() => web.close());
afterEach(() => t.dispose());

async function open() {
  // Searches read the local index (named, since a SearXNG URL alone would select SearXNG); asks may use both.
  t = openTestEngine({ allowPrivateNetwork: true, searxngUrl: web.search, searchProvider: 'local' });
  owner = await fundedPrincipalOf(t.engine, 'owner@x.test', 1000);
  for (let i = 1; i <= 6; i++) {
    await t.engine.search.index.upsert({
      url: `http://kettles.test/reviews/${i}`,
      title: `Kettle review ${i}`,
      text: `Kettle review number ${i}: the steel kettle boils water quickly and the Breville brand makes it.`,
      ownerUserId: null,
      fetchedAt: t.clock.now(),
    });
  }
  return t.engine;
}

const urlsOf = (job: SearchJob) => job.results.map((r) => r.url);
describe('operations run through a session', () => {
  it('filters seen URLs across three searches in one session, charging each what a plain search costs', async () => {
    const engine = await open();
    const session = await engine.sessions.create(owner, { name: 'Kettles' });
    const balance = () => engine.credits.balance(owner.userId);
    const before = await balance();

    const first = (await engine.sessionRunners.search(owner, session.id, { query: 'kettle review', max_results: 2, processing_mode: 'sync' })) as SearchJob;
    expect(first.results).toHaveLength(2);
    expect(first.session_id).toBe(session.id);
    const second = (await engine.sessionRunners.search(owner, session.id, { query: 'kettle review', max_results: 2, processing_mode: 'sync', filter_seen_urls: true })) as SearchJob;
    expect(second.results).toHaveLength(2);
    expect(urlsOf(second).filter((u) => urlsOf(first).includes(u))).toEqual([]);
    const third = (await engine.sessionRunners.search(owner, session.id, { query: 'kettle review', max_results: 6, processing_mode: 'sync', filter_seen_urls: true })) as SearchJob;
    expect(third.results).toHaveLength(2);
    expect(urlsOf(third).filter((u) => [...urlsOf(first), ...urlsOf(second)].includes(u))).toEqual([]);

    // without filter_seen_urls (the search default) seen pages come back
    const fourth = (await engine.sessionRunners.search(owner, session.id, { query: 'kettle review', max_results: 6, processing_mode: 'sync' })) as SearchJob;
    expect(fourth.results).toHaveLength(6);

    expect(before - (await balance())).toBe(4);
    const timeline = await engine.sessions.timeline(owner, session.id);
    expect(timeline.data.map((o) => [o.kind, o.status, o.result_count, o.credits, o.resource_id])).toEqual([
      ['search', 'completed', 2, 1, first.id],
      ['search', 'completed', 2, 1, second.id],
      ['search', 'completed', 2, 1, third.id],
      ['search', 'completed', 6, 1, fourth.id],
    ]);
    // each item names the URLs that operation returned, after filtering
    expect(timeline.data.map((o) => o.result_urls)).toEqual([urlsOf(first), urlsOf(second), urlsOf(third), urlsOf(fourth)]);
    const detail = await engine.sessions.get(owner, session.id);
    expect(detail.context_summary.urls_seen).toBe(6);
    expect(detail.context_summary.recent_queries).toEqual(['kettle review']);
    expect(detail.context_summary.domain_frequency).toEqual([{ value: 'kettles.test', count: 6 }]);
  });

  it('refuses a session search past max_operations and records nothing more', async () => {
    const engine = await open();
    const session = await engine.sessions.create(owner, { name: 'Short', session_config: { max_operations: 1 } });
    await engine.sessionRunners.search(owner, session.id, { query: 'kettle', processing_mode: 'sync' });
    const before = await engine.credits.balance(owner.userId);
    expect(await rejectionCodeOf(() => engine.sessionRunners.search(owner, session.id, { query: 'kettle', processing_mode: 'sync' }))).toBe('409 session_max_operations_reached');
    // A dry run answers what the call would: the same 409, never would_succeed: true.
    expect(await rejectionCodeOf(() => engine.sessionRunners.search(owner, session.id, { query: 'kettle', dry_run: true }))).toBe('409 session_max_operations_reached');
    expect(await rejectionCodeOf(() => engine.sessionRunners.crawl(owner, session.id, { urls: [`${web.news}/`], dry_run: true }))).toBe('409 session_max_operations_reached');
    expect(await rejectionCodeOf(() => engine.ops.search.search({ query: 'kettle', session_id: session.id, dry_run: true }, { as: owner }))).toBe('409 session_max_operations_reached');
    expect(await engine.credits.balance(owner.userId)).toBe(before);
    expect((await engine.sessions.timeline(owner, session.id)).total).toBe(1);
  });

  it('drops pages an earlier crawl returned from a later crawl (filter_seen_urls defaults to true for crawls)', async () => {
    const engine = await open();
    const session = await engine.sessions.create(owner, { name: 'Catalogue' });
    const body = { urls: [`${web.catalogue}/`], max_pages: 3, processing_mode: 'sync', expansion: 'internal' };
    const first = (await engine.sessionRunners.crawl(owner, session.id, body)) as CrawlDetail;
    expect(first.documents).toHaveLength(3);
    const again = (await engine.sessionRunners.crawl(owner, session.id, body)) as CrawlDetail;
    expect(again.documents.map((d) => d.url).filter((u) => first.documents.some((f) => f.url === u))).toEqual([]);
    const kept = (await engine.sessionRunners.crawl(owner, session.id, { ...body, filter_seen_urls: false })) as CrawlDetail;
    expect(kept.documents.length).toBe(3);
    const [, second] = (await engine.sessions.timeline(owner, session.id)).data;
    expect(second!.filtered_count).toBe(3 - again.documents.length);
    expect(second!.filtered_count).toBeGreaterThan(0);
  });

  it('finishes an async crawl operation on the first read after the crawl ends, and shares the crawl with the org', async () => {
    const engine = await open();
    const colleague = await principalOf(engine, 'colleague@x.test');
    const org = await engine.accounts.createOrganization({ name: 'Acme', ownerUserId: owner.userId });
    await engine.accounts.addMember(org.id, colleague.userId);
    const session = await engine.sessions.create(owner, { name: 'Async' });
    const created = (await engine.sessionRunners.crawl(owner, session.id, { urls: [`${web.catalogue}/`], max_pages: 2, expansion: 'internal' })) as CrawlDetail;
    expect(created.status).toBe('pending');
    expect((await engine.sessions.timeline(owner, session.id)).data[0]).toMatchObject({ status: 'running', resource_id: created.id });
    await engine.sessions.share(owner, session.id, { shared_with_org: true, organization_id: org.id });
    expect((await engine.crawls.get(colleague, created.id)).access_level).toBe('org_viewer');
    await engine.jobs.drain();
    const [op] = (await engine.sessions.get(owner, session.id)).operations;
    expect(op).toMatchObject({ status: 'completed', result_count: 2, credits: 2 });
    const crawled = (await engine.crawls.get(owner, created.id)).documents.map((d) => d.url);
    expect([...op!.result_urls].sort()).toEqual([...crawled].sort());
    expect((await engine.sessions.get(owner, session.id)).context_summary.urls_seen).toBe(2);
  });

  it('records an async session search as running and finishes it on the first read after the job ran', async () => {
    const engine = await open();
    const session = await engine.sessions.create(owner, { name: 'Async search' });
    const job = (await engine.sessionRunners.search(owner, session.id, { query: 'kettle review', max_results: 3 })) as SearchJob;
    expect(job.status).toBe('pending');
    expect((await engine.sessions.timeline(owner, session.id)).data[0]).toMatchObject({ status: 'running', resource_id: job.id });
    await engine.jobs.drain();
    expect((await engine.sessions.timeline(owner, session.id)).data[0]).toMatchObject({ status: 'completed', result_count: 3, credits: 1 });
    const next = await engine.sessionRunners.search(owner, session.id, { query: 'kettle review', processing_mode: 'sync', filter_seen_urls: true });
    expect((next as SearchJob).results).toHaveLength(3);
  });

  it('asks with the session context and records the sources it read', async () => {
    const engine = await open();
    const session = await engine.sessions.create(owner, { name: 'Ask' });
    await engine.sessionRunners.search(owner, session.id, { query: 'kettle review', processing_mode: 'sync' });
    const answer = await engine.sessionRunners.ask(owner, session.id, { question: 'Which brand makes the steel kettle?', depth: 'quick' });
    expect(answer.session_id).toBe(session.id);
    const [, asked] = (await engine.sessions.timeline(owner, session.id)).data;
    expect(asked).toMatchObject({ kind: 'ask', status: 'completed', query: 'Which brand makes the steel kettle?', credits: answer.credits.consumed });
    expect(asked!.result_count).toBe(answer.sources.length);
  });

  it('records an operation whose search fails for lack of credits as failed', async () => {
    const engine = await open();
    const poor = await principalOf(engine, 'poor@x.test');
    await engine.credits.reserve(poor.userId, await engine.credits.balance(poor.userId), 'spend everything');
    const session = await engine.sessions.create(poor, { name: 'Broke' });
    expect(await rejectionCodeOf(() => engine.sessionRunners.search(poor, session.id, { query: 'kettle', processing_mode: 'sync' }))).toBe('402 insufficient_credits');
    expect((await engine.sessions.timeline(poor, session.id)).data[0]).toMatchObject({ status: 'failed', credits: 0 });
  });
});

describe('plain search and crawl requests that name a session_id', () => {
  it("refuse another user's session with 404 and charge nothing", async () => {
    const engine = await open();
    const intruder = await fundedPrincipalOf(engine, 'intruder@x.test', 100);
    const session = await engine.sessions.create(owner, { name: 'Private' });
    const before = await engine.credits.balance(intruder.userId);
    expect(await rejectionCodeOf(() => engine.ops.search.search({ query: 'kettle', processing_mode: 'sync', session_id: session.id }, { as: intruder }))).toBe('404 session_not_found');
    expect(await rejectionCodeOf(() => engine.ops.search.search({ query: 'kettle', session_id: session.id, dry_run: true }, { as: intruder }))).toBe('404 session_not_found');
    expect(await rejectionCodeOf(() => engine.ops.crawls.create({ urls: [`${web.catalogue}/`], max_pages: 2, session_id: session.id }, { as: intruder }))).toBe('404 session_not_found');
    expect(await engine.credits.balance(intruder.userId)).toBe(before);
    expect(await engine.credits.balance(intruder.userId)).toBe(await engine.credits.ledgerSum(intruder.userId));
    expect((await engine.search.list(intruder)).total).toBe(0);
    expect((await engine.crawls.list(intruder)).total).toBe(0);
    expect((await engine.sessions.timeline(owner, session.id)).total).toBe(0);
  });

  it('run a plain search as a session operation: on the timeline, feeding the context, counted against max_operations', async () => {
    const engine = await open();
    const session = await engine.sessions.create(owner, { name: 'Plain', session_config: { max_operations: 2 } });
    const first = (await engine.ops.search.search({ query: 'kettle review', max_results: 3, processing_mode: 'sync', session_id: session.id }, { as: owner })) as SearchJob;
    // filter_seen_urls defaults to false for searches: the same pages come back
    const second = (await engine.ops.search.search({ query: 'kettle review', max_results: 3, processing_mode: 'sync', session_id: session.id }, { as: owner })) as SearchJob;
    expect(urlsOf(second)).toEqual(urlsOf(first));
    const detail = await engine.sessions.get(owner, session.id);
    expect(detail.operations.map((o) => [o.kind, o.status, o.resource_id])).toEqual([
      ['search', 'completed', first.id],
      ['search', 'completed', second.id],
    ]);
    expect(detail.context_summary.recent_queries).toEqual(['kettle review']);
    expect(detail.context_summary.urls_seen).toBe(3);
    const before = await engine.credits.balance(owner.userId);
    expect(await rejectionCodeOf(() => engine.ops.search.search({ query: 'kettle', processing_mode: 'sync', session_id: session.id }, { as: owner }))).toBe('409 session_max_operations_reached');
    expect(await engine.credits.balance(owner.userId)).toBe(before);
  });

  it('run a plain crawl as a session operation whose seen pages are filtered by default, and refuse a completed session with 409', async () => {
    const engine = await open();
    const session = await engine.sessions.create(owner, { name: 'Crawls' });
    const body = { urls: [`${web.catalogue}/`], max_pages: 3, processing_mode: 'sync' as const, expansion: 'internal' as const, session_id: session.id };
    const first = (await engine.ops.crawls.create(body, { as: owner })) as CrawlDetail;
    expect(first.session_id).toBe(session.id);
    expect(first.documents).toHaveLength(3);
    const again = (await engine.ops.crawls.create(body, { as: owner })) as CrawlDetail;
    expect(again.documents.map((d) => d.url).filter((u) => first.documents.some((f) => f.url === u))).toEqual([]);
    const timeline = (await engine.sessions.timeline(owner, session.id)).data;
    expect(timeline.map((o) => [o.kind, o.status, o.resource_id])).toEqual([
      ['crawl', 'completed', first.id],
      ['crawl', 'completed', again.id],
    ]);
    expect(timeline[1]!.filtered_count).toBeGreaterThan(0);
    await engine.sessions.complete(owner, session.id);
    const before = await engine.credits.balance(owner.userId);
    expect(await rejectionCodeOf(() => engine.ops.crawls.create(body, { as: owner }))).toBe('409 session_completed');
    expect(await engine.credits.balance(owner.userId)).toBe(before);
  });
});
