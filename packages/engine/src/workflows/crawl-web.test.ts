import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { openTestEngine, type TestEngine } from '../testing/engine.js';

/** Crawl workflows end to end: engine.crawls fetching the local web as it changes. */
let web: LocalWeb;
let t: TestEngine;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { articles: 30 } });
  t = openTestEngine({ allowPrivateNetwork: true });
});
afterAll(async () => {
  await t.dispose();
  await web.close();
});

describe('crawl workflows on the local web', () => {
  it('fingerprints pages and diffs the ones whose text changed between versions', async () => {
    const edited = web.truth.changes(1, 2).edited.find((u) => u.startsWith(web.news))!;
    expect(edited).toBeDefined();
    const p = t.engine.accounts.localPrincipal(await t.engine.accounts.ensureUser({ email: 'crawler@x.test' }));
    const { workflow } = await t.engine.workflows.create(p, {
      name: 'article watch',
      workflow_type: 'crawl',
      operation_config: { urls: [edited], max_pages: 1 },
      interval: '1 day',
    });
    expect(workflow!.estimated_credits_per_execution).toBe(2);
    web.setVersion(1);
    const first = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(first).toMatchObject({ status: 'completed', result_count: 1, result_changes: { net_new_count: 1, changed_urls: [] }, credits: { consumed: 2 } });
    web.setVersion(2);
    const second = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(second.result_changes).toMatchObject({ net_new_count: 0, retained_count: 1, changed_urls: [edited] });
    const diff = second.result_changes!.page_diffs![0]!;
    expect(diff.fingerprint).not.toBe(diff.previous_fingerprint);
    expect(diff.diff).toMatch(/^-[^-]/m);
    expect(diff.diff).toMatch(/^\+[^+]/m);
    expect(second.results![0]).not.toHaveProperty('text');
    expect(second.results![0]!.fingerprint).toBe(diff.fingerprint);
    const third = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(third.result_changes).toMatchObject({ changed_urls: [], retained_count: 1 });
    expect(await t.engine.credits.balance(p.userId)).toBe(94);
  });

  it('estimates what crawl runs consume: the seeds without expansion, max_pages with it', async () => {
    const p = t.engine.accounts.localPrincipal(await t.engine.accounts.ensureUser({ email: 'estimates@x.test' }));
    web.setVersion(1);
    const article = web.truth.changes(1, 2).edited.filter((u) => u.startsWith(web.news));
    const cases = [
      { operation_config: { urls: [web.news], max_pages: 3 }, estimate: 2 },
      { operation_config: { urls: [web.news, article[0]!], max_pages: 3, expansion: 'none' }, estimate: 3 },
      { operation_config: { urls: [web.news], max_pages: 3, expansion: 'internal' }, estimate: 4 },
    ];
    const seen = [];
    for (const [i, c] of cases.entries()) {
      const { workflow } = await t.engine.workflows.create(p, { name: `estimate ${i}`, workflow_type: 'crawl', operation_config: c.operation_config, interval: '1 day' });
      const run = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
      expect(run.status).toBe('completed');
      seen.push([workflow!.estimated_credits_per_execution, run.credits.consumed]);
    }
    expect(seen).toEqual(cases.map((c) => [c.estimate, c.estimate]));
  });
});
