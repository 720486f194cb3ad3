import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { openTestEngine, principalOf, type TestEngine } from '../testing/engine.js';
import type { Principal } from '../accounts/schemas.js';

let web: LocalWeb;
let t: TestEngine;
let p: Principal;
beforeAll(async () => {
  web = await startLocalWeb();
});
afterAll(() => web.close());
beforeEach(async () => {
  web.setVersion(1);
  t = openTestEngine({ searxngUrl: web.search, searchProvider: 'searxng', allowPrivateNetwork: true });
  p = await principalOf(t.engine, 'monitor@x.test');
});
afterEach(() => t.dispose());

/** A search monitor run once per site version, an hour apart. */
async function monitorThroughVersions(name: string, query: string, versions: number[]) {
  const { workflow } = await t.engine.workflows.create(p, { name, workflow_type: 'search', operation_config: { query, max_results: 10 }, interval: '1 hour' });
  const runs = [];
  for (const version of versions) {
    web.setVersion(version);
    runs.push((await t.engine.workflows.execute(p, workflow!.id)).execution!);
    t.clock.advance(3_600_000);
  }
  return { id: workflow!.id, runs };
}

describe('engine.monitors', () => {
  it('tells one monitor’s story oldest first, with the changes of every run', async () => {
    const { id, runs } = await monitorThroughVersions('surprises', 'surprising', [1, 2, 3]);
    const story = await t.engine.monitors.chronicle(p, id);
    expect(story.entries.map((e) => e.execution_id)).toEqual(runs.map((r) => r.id));
    expect(story.entries[0]!.summary).toBe('First run: 10 results became the baseline.');
    expect(story.entries[1]!.new.map((n) => n.url)).toEqual(runs[1]!.result_changes!.net_new_urls.map((u) => u.url));
    expect(story.entries[1]!.summary).toMatch(/^Run 2: 1 new \(“.+”\); 1 no longer found\.$/);
    expect(story.totals).toEqual({ runs: 3, new: 10 + 1 + 2, dropped: 0 + 1 + 2, changed: 0 });
    expect((await t.engine.monitors.chronicle(p, id, { limit: 1 })).entries.map((e) => e.seq)).toEqual([3]);
  });

  it('digests the changes across monitors in a window, the busiest first', async () => {
    const quiet = await monitorThroughVersions('quiet', 'surprising', [1]);
    const busy = await monitorThroughVersions('busy', 'headphones', [1, 2, 3]);
    const digest = await t.engine.monitors.digest(p);
    expect(digest.monitors.map((m) => m.workflow_id)).toEqual([busy.id, quiet.id]);
    const expectedNew = busy.runs.reduce((n, r) => n + r.result_changes!.net_new_count, 0);
    expect(digest.monitors[0]).toMatchObject({ runs: 3, new_count: expectedNew, condition_met: false });
    expect(digest.totals.runs).toBe(4);
    const lastHour = await t.engine.monitors.digest(p, { since: new Date(t.clock.now().getTime() - 3_600_000).toISOString() });
    expect(lastHour.monitors.find((m) => m.workflow_id === busy.id)).toMatchObject({ runs: 1 });
    await expect(t.engine.monitors.digest(p, { since: '2026-03-10T00:00:00Z', until: '2026-03-09T00:00:00Z' })).rejects.toThrow(
      expect.objectContaining({ status: 400, code: 'window_invalid' }),
    );
  });

  it('recommends entities, domains, recent pages and gaps from what a monitor found', async () => {
    const { id } = await monitorThroughVersions('headphones', 'wireless headphones', [1, 2]);
    const advice = await t.engine.monitors.recommendations(p, id);
    expect(advice.based_on_reports).toBe(2);
    expect(advice.based_on_results).toBeGreaterThanOrEqual(10);
    expect(advice.domains[0]).toMatchObject({ domain: new URL(web.catalogue).host, new: false });
    expect(advice.queries.length).toBeGreaterThan(0);
    for (const q of advice.queries) expect(q.query.toLowerCase()).toContain('headphones');
    expect(advice.urls.length).toBeGreaterThan(0);
  });

  it('answers 404 for another user’s monitor', async () => {
    const { id } = await monitorThroughVersions('mine', 'surprising', [1]);
    const other = await principalOf(t.engine, 'other@x.test');
    await expect(t.engine.monitors.chronicle(other, id)).rejects.toThrow(expect.objectContaining({ status: 404 }));
  });
});
