import { afterEach, describe, expect, it } from 'vitest';
import { openTestEngine, fundedPrincipalOf, rejectionCodeOf, type TestEngine } from '../testing/engine.js';

let t: TestEngine;
afterEach(() => t.dispose());

describe('a body naming a session_id, bound by runOperation', () => {
  it('answers the plain operation’s 400s first, then the session’s 404 and 409, for a run and for an estimate', async () => {
    t = openTestEngine();
    const owner = await fundedPrincipalOf(t.engine, 'owner@x.test', 100);
    const other = await fundedPrincipalOf(t.engine, 'other@x.test', 100);
    const session = await t.engine.sessions.create(owner, { name: 'Bound' });
    const seed = { urls: ['https://a.test/'], session_id: session.id };
    // filter_seen_urls belongs to POST /v1/sessions/{id}/crawl, not to a plain crawl, session or not.
    expect(await rejectionCodeOf(() => t.engine.run('createCrawl', { ...seed, filter_seen_urls: false } as never, { as: owner }))).toBe('400 unknown_field');
    expect(await rejectionCodeOf(() => t.engine.run('createCrawl', { ...seed, session_id: 'abc' }, { as: other }))).toBe('400 session_id_invalid_format');
    expect(await rejectionCodeOf(() => t.engine.run('estimateCrawl', seed, { as: other }))).toBe('404 session_not_found');
    expect((await t.engine.run('estimateCrawl', seed, { as: owner })).would_succeed).toBe(true);
    await t.engine.sessions.complete(owner, session.id);
    expect(await rejectionCodeOf(() => t.engine.run('estimateCrawl', seed, { as: owner }))).toBe('409 session_completed');
  });

  it('is never taken from the body by a service called directly: the job belongs to no session', async () => {
    t = openTestEngine();
    const owner = await fundedPrincipalOf(t.engine, 'owner@x.test', 100);
    const session = await t.engine.sessions.create(owner, { name: 'Unbound' });
    await t.engine.search.index.upsert({ url: 'http://kettles.test/1', title: 'Kettle', text: 'A steel kettle.', ownerUserId: null, fetchedAt: t.clock.now() });
    const job = await t.engine.search.search(owner, { query: 'kettle', session_id: session.id });
    expect('dry_run' in job ? null : job.session_id).toBeNull();
    expect((await t.engine.sessions.timeline(owner, session.id)).total).toBe(0);
  });
});
