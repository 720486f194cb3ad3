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
    const p = t.engine.accounts.localPrincipal(t.engine.accounts.ensureUser({ email: 'crawler@x.test' }));
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
    expect(t.engine.credits.balance(p.userId)).toBe(94);
  });
});
