import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../accounts/schemas.js';
import { DAY, HOUR } from '../core/clock.js';
import { rejectionCodeOf, openTestEngine, sqlOf, sharingCast, type TestEngine } from '../testing/engine.js';

let t: TestEngine;
let owner: Principal;
let colleague: Principal;
let outsider: Principal;
let orgId: string;

beforeEach(async () => {
  t = openTestEngine();
  ({ owner, colleague, outsider, orgId } = await sharingCast(t.engine));
});
afterEach(() => t.dispose());

const create = (body: Record<string, unknown> = {}, who: Principal = owner) => t.engine.sessions.create(who, { name: 'Research', ...body });

describe('session CRUD', () => {
  it('creates a session with default config and the given intent and domain context', async () => {
    const s = await create({ metadata: { intent: { type: 'technical_evaluation' }, domain_context: 'technical', tags: ['gpu'], team: 'infra' } });
    expect(s).toMatchObject({
      name: 'Research',
      status: 'active',
      session_config: { auto_deduplicate: true, accumulate_context: true, use_session_context: true, max_operations: null },
      metadata: { intent: { type: 'technical_evaluation' }, domain_context: 'technical', tags: ['gpu'], team: 'infra' },
      operation_count: 0,
      public_share: false,
      shared_with_org: false,
      created_at: '2026-03-10T12:00:00.000Z',
    });
    const detail = await t.engine.sessions.get(owner, s.id);
    expect(detail.access_level).toBe('owner');
    expect(detail.context_summary).toMatchObject({ intent_type: 'technical_evaluation', query_additions: ['benchmarks', 'specs'], domain_context: 'technical' });
    expect(detail.user_organizations).toEqual([{ id: orgId, name: 'Acme' }]);
  });

  it('rejects a bad body with 400 and a field code', async () => {
    expect(await rejectionCodeOf(() => t.engine.sessions.create(owner, { name: '' }))).toBe('400 name_too_short');
    expect(await rejectionCodeOf(() => create({ session_config: { max_operations: 101 } }))).toBe('400 max_operations_out_of_range');
    expect(await rejectionCodeOf(() => create({ metadata: { intent: { type: 'gossip' } } }))).toBe('400 type_invalid');
  });

  it('patches name, description, intent_context and config, keeping config fields left out', async () => {
    const s = await create({ session_config: { auto_deduplicate: false } });
    const patched = await t.engine.sessions.patch(owner, s.id, { name: 'Renamed', description: 'd', intent_context: 'watch GPU prices', config: { max_operations: 5 } });
    expect(patched).toMatchObject({ name: 'Renamed', description: 'd', intent_context: 'watch GPU prices' });
    expect(patched.session_config).toEqual({ auto_deduplicate: false, accumulate_context: true, use_session_context: true, max_operations: 5 });
    expect(await rejectionCodeOf(() => t.engine.sessions.patch(owner, s.id, {}))).toBe('400 patch_body_empty');
  });

  it('patches session_config under the name create and responses use', async () => {
    const s = await create({ session_config: { auto_deduplicate: false } });
    const patched = await t.engine.sessions.patch(owner, s.id, { session_config: { max_operations: 7, accumulate_context: false } });
    expect(patched.session_config).toEqual({ auto_deduplicate: false, accumulate_context: false, use_session_context: true, max_operations: 7 });
  });

  it('lists by status, tag and days_back, with total, limit and offset', async () => {
    const a = await create({ name: 'a', metadata: { tags: ['gpu', 'cloud'] } });
    t.clock.advance(HOUR);
    const b = await create({ name: 'b', metadata: { tags: ['cloud'] } });
    t.clock.advance(HOUR);
    await create({ name: 'c' });
    await t.engine.sessions.complete(owner, b.id);
    expect((await t.engine.sessions.list(owner, {})).total).toBe(3);
    expect((await t.engine.sessions.list(owner, { tag: 'cloud' })).data.map((s) => s.name).sort()).toEqual(['a', 'b']);
    expect((await t.engine.sessions.list(owner, { tag: 'gpu' })).data.map((s) => s.id)).toEqual([a.id]);
    expect((await t.engine.sessions.list(owner, { status: 'completed' })).data.map((s) => s.id)).toEqual([b.id]);
    const page = await t.engine.sessions.list(owner, { limit: '2', offset: '1' });
    expect([page.data.length, page.total, page.limit, page.offset]).toEqual([2, 3, 2, 1]);
    expect((await t.engine.sessions.list(outsider, {})).total).toBe(0);
    expect(await rejectionCodeOf(() => t.engine.sessions.list(owner, { status: 'open' }))).toBe('400 status_invalid');
  });

  it('lists only sessions active within days_back (default 7)', async () => {
    const old = await create({ name: 'old' });
    await t.engine.sessions.complete(owner, old.id);
    t.clock.advance(3 * DAY);
    await create({ name: 'recent' });
    t.clock.advance(2 * DAY);
    expect((await t.engine.sessions.list(owner, { days_back: '4' })).data.map((s) => s.name)).toEqual(['recent']);
    expect((await t.engine.sessions.list(owner, {})).data.map((s) => s.name)).toEqual(['recent', 'old']);
  });

  it('with include_shared returns sessions shared with my orgs separately, and my organizations', async () => {
    const shared = await create({ name: 'shared' });
    await create({ name: 'private' });
    await t.engine.sessions.share(owner, shared.id, { shared_with_org: true, organization_id: orgId });
    await create({ name: 'mine' }, colleague);
    const list = await t.engine.sessions.list(colleague, { include_shared: 'true' });
    expect(list.data.map((s) => s.name)).toEqual(['mine']);
    expect(list.shared_sessions?.map((s) => s.name)).toEqual(['shared']);
    expect(list.user_organizations).toEqual([{ id: orgId, name: 'Acme' }]);
    expect((await t.engine.sessions.list(colleague, {})).shared_sessions).toBeUndefined();
  });

  it('deletes a session with all its operations', async () => {
    const s = await create();
    const op = await t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'gpu' });
    await t.engine.sessions.finishOperation(op.operationId, { status: 'completed', documents: [{ url: 'https://a.test/1' }] });
    await t.engine.sessions.delete(owner, s.id);
    expect(await rejectionCodeOf(() => t.engine.sessions.get(owner, s.id))).toBe('404 session_not_found');
    // Every row of the session's, not only those a port would find by its id.
    expect(await sqlOf(t.engine).all('select (select count(*) from session_operations) + (select count(*) from session_seen_urls) as n')).toEqual([{ n: 0 }]);
  });
});

describe('session quota', () => {
  it('allows 100 open sessions, refuses the 101st with 409 session_limit_reached, and archived ones free a slot', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push((await create({ name: `s${i}` })).id);
    expect(await rejectionCodeOf(() => create({ name: 'one too many' }))).toBe('409 session_limit_reached');
    expect((await create({ name: 'other user' }, colleague)).status).toBe('active');
    await t.engine.sessions.complete(owner, ids[0]!);
    expect(await rejectionCodeOf(() => create({ name: 'still full' }))).toBe('409 session_limit_reached');
    await t.engine.sessions.archive(owner, ids[0]!);
    expect((await create({ name: 'fits now' })).status).toBe('active');
  });
});

describe('session transitions', () => {
  it('active -> completed -> archived', async () => {
    const s = await create();
    const completed = await t.engine.sessions.complete(owner, s.id);
    expect([completed.status, completed.completed_at]).toEqual(['completed', '2026-03-10T12:00:00.000Z']);
    const archived = await t.engine.sessions.archive(owner, s.id);
    expect([archived.status, archived.archived_reason]).toEqual(['archived', 'manual']);
  });

  it('refuses to archive an active session (409 session_not_completed)', async () => {
    expect(await rejectionCodeOf(async () => t.engine.sessions.archive(owner, (await create()).id))).toBe('409 session_not_completed');
  });

  it('refuses completing twice, and completing or archiving an archived session', async () => {
    const s = await create();
    await t.engine.sessions.complete(owner, s.id);
    expect(await rejectionCodeOf(() => t.engine.sessions.complete(owner, s.id))).toBe('409 session_already_completed');
    await t.engine.sessions.archive(owner, s.id);
    expect(await rejectionCodeOf(() => t.engine.sessions.archive(owner, s.id))).toBe('409 session_already_archived');
    expect(await rejectionCodeOf(() => t.engine.sessions.complete(owner, s.id))).toBe('409 session_archived');
    expect(await rejectionCodeOf(() => t.engine.sessions.patch(owner, s.id, { name: 'x' }))).toBe('409 session_archived');
  });

  it('refuses new operations once completed (409 session_completed) or archived (409 session_archived)', async () => {
    const s = await create();
    await t.engine.sessions.complete(owner, s.id);
    expect(await rejectionCodeOf(() => t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'x' }))).toBe('409 session_completed');
    await t.engine.sessions.archive(owner, s.id);
    expect(await rejectionCodeOf(() => t.engine.sessions.beginOperation(owner, s.id, 'crawl'))).toBe('409 session_archived');
  });

  it('still records an operation that began before the session was completed', async () => {
    const s = await create();
    const op = await t.engine.sessions.beginOperation(owner, s.id, 'crawl', { urls: ['https://a.test/'] });
    await t.engine.sessions.complete(owner, s.id);
    expect((await t.engine.sessions.finishOperation(op.operationId, { status: 'completed', documents: [{ url: 'https://a.test/' }] })).status).toBe('completed');
    expect(await rejectionCodeOf(() => t.engine.sessions.finishOperation(op.operationId, { status: 'failed' }))).toBe('409 operation_already_finished');
  });

  it('auto-archives a session 7 days after its last activity, on the next sweep or read', async () => {
    const idle = await create({ name: 'idle' });
    const busy = await create({ name: 'busy' });
    const done = await create({ name: 'done' });
    await t.engine.sessions.complete(owner, done.id);
    t.clock.advance(3 * DAY);
    await t.engine.sessions.beginOperation(owner, busy.id, 'search', { query: 'q' });
    t.clock.advance(4 * DAY - 1);
    expect(await t.engine.sessions.sweep()).toBe(0);
    t.clock.advance(1);
    expect(await t.engine.sessions.sweep()).toBe(2);
    const archived = await t.engine.sessions.get(owner, idle.id);
    expect([archived.status, archived.archived_reason, archived.archived_at]).toEqual(['archived', 'inactivity', '2026-03-17T12:00:00.000Z']);
    expect((await t.engine.sessions.get(owner, done.id)).status).toBe('archived');
    expect((await t.engine.sessions.get(owner, busy.id)).status).toBe('active');
    t.clock.advance(3 * DAY);
    // no explicit sweep: the read itself archives the session
    expect(await t.engine.sessions.get(owner, busy.id)).toMatchObject({ status: 'archived', archived_reason: 'inactivity' });
    expect(await rejectionCodeOf(() => t.engine.sessions.beginOperation(owner, busy.id, 'search'))).toBe('409 session_archived');
  });

  it('archives idle sessions in the background of a started engine, without any session read', async () => {
    const idle = await create({ name: 'idle' });
    const stored = () => t.engine.context.store.sessions.get(idle.id);
    t.engine.start({ sessionSweepIntervalMs: 5 });
    t.clock.advance(7 * DAY);
    await vi.waitFor(async () => expect(await stored()).toMatchObject({ status: 'archived', archivedReason: 'inactivity' }));
  });
});

describe('operations in a session', () => {
  it('counts operations against max_operations and refuses the next one with 409 session_max_operations_reached', async () => {
    const s = await create({ session_config: { max_operations: 2 } });
    await t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'one' });
    await t.engine.sessions.beginOperation(owner, s.id, 'ask', { query: 'two?' });
    expect(await rejectionCodeOf(() => t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'three' }))).toBe('409 session_max_operations_reached');
    await t.engine.sessions.patch(owner, s.id, { config: { max_operations: 3 } });
    expect((await t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'three' })).seq).toBe(3);
  });

  it('answers 404 for a foreign session and 403 session_read_only for an org viewer', async () => {
    const s = await create();
    expect(await rejectionCodeOf(() => t.engine.sessions.beginOperation(outsider, s.id, 'search'))).toBe('404 session_not_found');
    await t.engine.sessions.share(owner, s.id, { shared_with_org: true, organization_id: orgId });
    expect(await rejectionCodeOf(() => t.engine.sessions.beginOperation(colleague, s.id, 'search'))).toBe('403 session_read_only');
    expect(await rejectionCodeOf(() => t.engine.sessions.complete(colleague, s.id))).toBe('403 session_read_only');
    expect(await rejectionCodeOf(() => t.engine.sessions.delete(outsider, s.id))).toBe('404 session_not_found');
  });

  it('hands seen URLs of earlier operations to later ones across three operations', async () => {
    const s = await create();
    const first = await t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'gpu prices' });
    expect(first.seenUrls.size).toBe(0);
    await t.engine.sessions.finishOperation(first.operationId, {
      status: 'completed',
      documents: [{ url: 'https://a.test/1' }, { url: 'https://b.test/2' }],
    });
    const second = await t.engine.sessions.beginOperation(owner, s.id, 'crawl', { urls: ['https://a.test/'] });
    expect([...second.seenUrls].sort()).toEqual(['https://a.test/1', 'https://b.test/2']);
    await t.engine.sessions.finishOperation(second.operationId, { status: 'completed', documents: [{ url: 'https://a.test/3' }], filteredCount: 1 });
    const third = await t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'gpu benchmarks' });
    expect([...third.seenUrls].sort()).toEqual(['https://a.test/1', 'https://a.test/3', 'https://b.test/2']);
    expect((await t.engine.sessions.get(owner, s.id)).context_summary.urls_seen).toBe(3);
  });

  it('accumulates recent queries, domains, document types, entities and keywords with the NLP tagger', async () => {
    const s = await create({ metadata: { intent: { type: 'competitive_analysis' } } });
    const op = await t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'Nvidia versus AMD GPU pricing' });
    await t.engine.sessions.finishOperation(op.operationId, {
      status: 'completed',
      documents: [
        { url: 'https://news.test/a', title: 'Nvidia cuts prices in Berlin', text: 'Jensen Huang said the graphics cards would get cheaper.', document_type: 'news', content_type: 'text/html; charset=utf-8' },
        { url: 'https://news.test/b', title: 'Analysts compare graphics cards', text: 'The benchmarks favour larger memory.', document_type: 'news', content_type: 'text/html' },
        { url: 'https://www.blog.test/c', title: 'New benchmarks for memory', document_type: 'blog' },
      ],
      credits: 1,
    });
    const summary = (await t.engine.sessions.get(owner, s.id)).context_summary;
    expect(summary.recent_queries).toEqual(['Nvidia versus AMD GPU pricing']);
    expect(summary.domain_frequency).toEqual([
      { value: 'news.test', count: 2 },
      { value: 'blog.test', count: 1 },
    ]);
    expect(summary.document_types[0]).toEqual({ value: 'news', count: 2 });
    expect(summary.content_types).toEqual([{ value: 'text/html', count: 2 }]);
    const entities = summary.entities.map((e) => e.value);
    expect(entities).toEqual(expect.arrayContaining(['Berlin', 'Jensen Huang']));
    const keywords = summary.keywords.map((k) => k.value);
    expect(keywords).toEqual(expect.arrayContaining(['price', 'analyst', 'benchmark', 'memory']));
    expect(summary.keywords.find((k) => k.value === 'benchmark')?.count).toBe(2);
    expect(keywords).not.toContain('benchmarks');
    expect(summary.query_additions).toEqual(['vs', 'comparison']);
  });

  it('does not count a URL seen earlier twice in the context when auto_deduplicate is on', async () => {
    const s = await create();
    for (const query of ['one', 'two']) {
      const op = await t.engine.sessions.beginOperation(owner, s.id, 'search', { query });
      await t.engine.sessions.finishOperation(op.operationId, { status: 'completed', documents: [{ url: 'https://a.test/1' }, { url: 'https://a.test/1' }] });
    }
    expect((await t.engine.sessions.get(owner, s.id)).context_summary.domain_frequency).toEqual([{ value: 'a.test', count: 1 }]);
  });

  it('accumulates nothing with accumulate_context off, and gives no context with use_session_context off', async () => {
    const s = await create({ session_config: { accumulate_context: false, use_session_context: false } });
    const op = await t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'solar panels' });
    expect(op.context).toBeNull();
    await t.engine.sessions.finishOperation(op.operationId, { status: 'completed', documents: [{ url: 'https://a.test/1', title: 'Solar panels' }] });
    const summary = (await t.engine.sessions.get(owner, s.id)).context_summary;
    expect([summary.recent_queries, summary.keywords, summary.urls_seen]).toEqual([[], [], 1]);
  });

  it('records a timeline in time order with status, results summary and credits', async () => {
    const s = await create();
    const a = await t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'first' });
    t.clock.advance(1000);
    await t.engine.sessions.finishOperation(a.operationId, { status: 'completed', documents: [{ url: 'https://a.test/1' }], credits: 2, resultSummary: '1 result', resourceId: t.engine.context.random.uuid() });
    const b = await t.engine.sessions.beginOperation(owner, s.id, 'crawl', { urls: ['https://a.test/'] });
    await t.engine.sessions.finishOperation(b.operationId, { status: 'failed', error: 'seed unreachable' });
    const timeline = await t.engine.sessions.timeline(owner, s.id);
    expect(timeline.total).toBe(2);
    expect(timeline.data.map((o) => [o.seq, o.kind, o.status, o.credits, o.results_summary, o.error])).toEqual([
      [1, 'search', 'completed', 2, '1 result', null],
      [2, 'crawl', 'failed', 0, null, 'seed unreachable'],
    ]);
    expect(timeline.data[0]!.finished_at).toBe('2026-03-10T12:00:01.000Z');
    expect(timeline.data[1]!.urls).toEqual(['https://a.test/']);
  });
});

describe('session sharing and visibility', () => {
  it('an org member sees org_viewer, an outsider gets 404', async () => {
    const s = await create();
    expect(await rejectionCodeOf(() => t.engine.sessions.get(colleague, s.id))).toBe('404 session_not_found');
    const shared = await t.engine.sessions.share(owner, s.id, { shared_with_org: true, organization_id: orgId });
    expect(shared).toEqual({ id: s.id, public_share: false, shared_with_org: true, organization_id: orgId });
    expect((await t.engine.sessions.get(colleague, s.id)).access_level).toBe('org_viewer');
    expect((await t.engine.sessions.timeline(colleague, s.id)).session_id).toBe(s.id);
    expect(await rejectionCodeOf(() => t.engine.sessions.get(outsider, s.id))).toBe('404 session_not_found');
    expect(await rejectionCodeOf(() => t.engine.sessions.timeline(outsider, s.id))).toBe('404 session_not_found');
  });

  it('cascades org sharing to the search jobs and crawls the session ran', async () => {
    const s = await create();
    const crawlId = t.engine.context.random.uuid();
    const jobId = t.engine.context.random.uuid();
    const crawl = await t.engine.sessions.beginOperation(owner, s.id, 'crawl', { urls: ['https://a.test/'] });
    await t.engine.sessions.attachResource(crawl.operationId, crawlId);
    const search = await t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'q' });
    await t.engine.sessions.finishOperation(search.operationId, { status: 'completed', resourceId: jobId });
    const crawlRef = { type: 'crawl' as const, id: crawlId, ownerUserId: owner.userId };
    const jobRef = { type: 'search_job' as const, id: jobId, ownerUserId: owner.userId };
    expect(await t.engine.sharing.accessLevel(colleague, crawlRef)).toBeNull();
    await t.engine.sessions.share(owner, s.id, { shared_with_org: true, organization_id: orgId });
    expect(await t.engine.sharing.accessLevel(colleague, crawlRef)).toBe('org_viewer');
    expect(await t.engine.sharing.accessLevel(colleague, jobRef)).toBe('org_viewer');
    await t.engine.sessions.share(owner, s.id, { shared_with_org: false });
    expect(await t.engine.sharing.accessLevel(colleague, jobRef)).toBeNull();
  });

  it('refuses sharing with an org the owner is not in (403) and sharing by anyone but the owner', async () => {
    const s = await create({}, outsider);
    expect(await rejectionCodeOf(() => t.engine.sessions.share(outsider, s.id, { shared_with_org: true, organization_id: orgId }))).toBe('403 organization_membership_required');
    expect(await rejectionCodeOf(() => t.engine.sessions.share(owner, s.id, { public_share: true }))).toBe('404 session_not_found');
    expect(await rejectionCodeOf(() => t.engine.sessions.share(outsider, s.id, { shared_with_org: true }))).toBe('400 organization_id_required');
  });

  it('public reads answer only for publicly shared sessions and expose no private field', async () => {
    const s = await create({ session_config: { max_operations: 9 } });
    const op = await t.engine.sessions.beginOperation(owner, s.id, 'search', { query: 'open data' });
    await t.engine.sessions.finishOperation(op.operationId, { status: 'completed', documents: [{ url: 'https://a.test/1' }], resourceId: t.engine.context.random.uuid() });
    expect(await rejectionCodeOf(() => t.engine.sessions.publicGet(s.id))).toBe('404 session_not_found');
    expect(await rejectionCodeOf(() => t.engine.sessions.publicTimeline(s.id))).toBe('404 session_not_found');
    await t.engine.sessions.share(owner, s.id, { shared_with_org: true, organization_id: orgId });
    expect(await rejectionCodeOf(() => t.engine.sessions.publicGet(s.id))).toBe('404 session_not_found');
    await t.engine.sessions.share(owner, s.id, { public_share: true });
    const shown = await t.engine.sessions.publicGet(s.id);
    expect(shown).toMatchObject({ id: s.id, access_level: 'public', operation_count: 1 });
    const text = JSON.stringify([shown, await t.engine.sessions.publicTimeline(s.id)]);
    for (const secret of [owner.email, owner.userId, orgId, 'resource_id', 'session_config', 'organization_id', 'user_organizations']) {
      expect(text).not.toContain(secret);
    }
    expect((await t.engine.sessions.publicTimeline(s.id)).data.map((o) => o.query)).toEqual(['open data']);
  });
});
