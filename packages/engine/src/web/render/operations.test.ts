import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import type { CrawlDetail } from '../../crawl/responses.js';
import { openTestEngine, fundedPrincipalOf, type TestEngine } from '../../testing/engine.js';
import type { Principal } from '../../accounts/schemas.js';

/** render through the operations: a crawl that follows client-side links, a preview, and change detection. */
let web: LocalWeb;
let t: TestEngine;
let p: Principal;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 10, articles: 3, docsDepth: 1 } });
  t = openTestEngine({ allowPrivateNetwork: true, render: { pageTimeoutMs: 90_000 } });
  p = await fundedPrincipalOf(t.engine, 'render@x.test', 500);
});
afterAll(async () => {
  await t?.dispose();
  await web?.close();
});

describe('render in operations', () => {
  it('a crawl with render always follows the links only scripts create and is priced at the advanced tier', async () => {
    web.setVersion(1);
    const before = await t.engine.credits.balance(p.userId);
    const truth = web.appsTruth().pages.filter((page) => page.path.startsWith('/router/'));
    const crawl = (await t.engine.crawls.create(p, {
      urls: [`${web.apps}/router/`],
      max_pages: truth.length,
      expansion: 'internal',
      processing_mode: 'sync',
      render: 'always',
    })) as CrawlDetail;
    expect(crawl.status).toBe('completed');
    expect(new Set(crawl.documents.map((d) => d.url))).toEqual(new Set(truth.map((page) => web.apps + page.path)));
    for (const doc of crawl.documents) {
      const page = truth.find((x) => web.apps + x.path === doc.url)!;
      for (const text of page.texts) expect(doc.text, doc.url).toContain(text);
    }
    expect(crawl.credits).toMatchObject({ consumed: 2 * truth.length, pricing_tier: 'advanced', advanced_features: ['render'] });
    expect(await t.engine.credits.balance(p.userId)).toBe(before - 2 * truth.length);
  }, 180_000);

  it('a crawl with render never stores the shell and finds no link: the static baseline', async () => {
    const crawl = (await t.engine.crawls.create(p, { urls: [`${web.apps}/router/`], max_pages: 5, expansion: 'internal', processing_mode: 'sync', render: 'never' })) as CrawlDetail;
    expect(crawl.documents).toHaveLength(1);
    expect(crawl.documents[0]!.links).toHaveLength(0);
  });

  it('a preview under auto renders an application shell and says so; the static landing page stays static', async () => {
    const schema = { name: 'The name of the item shown as the main heading' };
    const item = web.appsTruth().items[0]!;
    const rendered = await t.engine.extraction.preview(p, { url: `${web.apps}/data/item/${item.id}`, extraction_schema: schema });
    expect(rendered.rendering).toMatchObject({ mode: 'auto', rendered: true });
    expect(rendered.text_excerpt).toContain(item.summary.slice(0, 40));
    expect(rendered.credits).toMatchObject({ consumed: 2, pricing_tier: 'advanced', advanced_features: ['render'] });
    const landing = await t.engine.extraction.preview(p, { url: `${web.apps}/`, extraction_schema: schema });
    expect(landing.rendering).toBeUndefined();
    expect(landing.credits).toMatchObject({ consumed: 1, pricing_tier: 'basic' });
  }, 60_000);

  it('a crawl workflow over a rendered page detects a change of its rendered text; static fetching sees none', async () => {
    web.setVersion(1);
    const url = `${web.apps}/data/item/3`;
    const watch = async (render: 'auto' | 'never') => {
      const { workflow } = await t.engine.workflows.create(p, { name: `item watch ${render}`, workflow_type: 'crawl', operation_config: { urls: [url], max_pages: 1, render }, interval: '1 day' });
      return workflow!.id;
    };
    const rendered = await watch('auto');
    const plain = await watch('never');
    expect((await t.engine.workflows.execute(p, rendered)).execution).toMatchObject({ status: 'completed', result_changes: { net_new_count: 1 }, credits: { consumed: 3 } });
    await t.engine.workflows.execute(p, plain);
    web.setVersion(2);
    const second = (await t.engine.workflows.execute(p, rendered)).execution!;
    expect(second.result_changes).toMatchObject({ changed_urls: [url] });
    expect(second.result_changes!.page_diffs![0]!.diff).toMatch(/^\+.*Now sold in a second colour/m);
    const staticRun = (await t.engine.workflows.execute(p, plain)).execution!;
    expect(staticRun.result_changes).toMatchObject({ changed_urls: [] });
    web.setVersion(1);
  }, 120_000);
});
