import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, startSite, type LocalWeb, type Site } from '@wvr/testkit';
import type { CrawlDetail } from '../../crawl/responses.js';
import { openTestEngine, fundedPrincipalOf, type TestEngine } from '../../testing/engine.js';
import type { Principal } from '../../accounts/schemas.js';

/**
 * render through every operation that reads pages: a crawl that follows client-side links, a
 * preview, a brand read, an ask, workflows (operation_config and crawl steps) and change detection.
 */
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
    // The global cache holds the static answers under the rendered pages: a fetch that does not render is served the shell.
    for (const doc of crawl.documents) {
      const copy = await t.engine.web.fetch({ url: doc.url, useCache: true });
      expect(copy.fromCache, doc.url).toBe(true);
      for (const text of truth.find((x) => web.apps + x.path === doc.url)!.texts) expect(copy.body, doc.url).not.toContain(text);
    }
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

describe('render on the other entry points', () => {
  it('a brand read renders an application shell at the advanced price; render never reads the shell at the basic one', async () => {
    const url = `${web.apps}/data/item/2`;
    const before = await t.engine.credits.balance(p.userId);
    const rendered = await t.engine.brand.designSystem(p, { url });
    expect(rendered.credits).toMatchObject({ consumed: 2, pricing_tier: 'advanced', advanced_features: ['render'] });
    const shell = await t.engine.brand.designSystem(p, { url, render: 'never' });
    expect(shell.credits).toMatchObject({ consumed: 1, pricing_tier: 'basic' });
    const landing = await t.engine.brand.designSystem(p, { url: `${web.apps}/` });
    expect(landing.credits).toMatchObject({ consumed: 1, pricing_tier: 'basic' });
    expect(await t.engine.credits.balance(p.userId)).toBe(before - 4);
  }, 60_000);

  it('an ask reads a source that is an application shell when it renders it, and finds nothing in the shell under never', async () => {
    const item = web.appsTruth().items[4]!;
    const url = `${web.apps}/data/item/${item.id}`;
    // A SearXNG stand-in whose only result is the application page, with no snippet to fall back on.
    const searx: Site = await startSite('127.0.0.1', (u) => ({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: u.searchParams.get('q'), results: [{ url, title: 'Item', content: '', engines: ['stand-in'] }] }),
    }), []);
    const asker = openTestEngine({ allowPrivateNetwork: true, searxngUrl: searx.origin, searchProvider: 'searxng', render: { pageTimeoutMs: 90_000 } });
    try {
      const user = await fundedPrincipalOf(asker.engine, 'asker@x.test', 50);
      const question = `What is ${item.name}?`;
      const rendered = await asker.engine.asks.create(user, { question, depth: 'quick' });
      expect(rendered.sources.map((s) => s.url)).toEqual([url]);
      expect(rendered.sources[0]!.passages.map((x) => x.text).join(' ')).toContain(item.summary.slice(0, 40));
      expect(rendered.credits).toMatchObject({ consumed: 2 });
      expect(asker.engine.web.renderStats().pages_rendered).toBe(1);

      const plain = await asker.engine.asks.create(user, { question, depth: 'quick', render: 'never' }).catch((error: unknown) => error);
      const sources = 'sources' in (plain as object) ? (plain as typeof rendered).sources : [];
      expect(sources.flatMap((s) => s.passages.map((x) => x.text)).join(' ')).not.toContain(item.summary.slice(0, 40));
    } finally {
      await asker.dispose();
      await searx.close();
    }
  }, 120_000);

  it('a multi_step crawl step takes render: priced per rendered page, and its change detection reads the rendered text', async () => {
    web.setVersion(1);
    const url = `${web.apps}/data/item/3`;
    const step = (render: 'always' | 'never') => ({ id: 'watch', type: 'crawl' as const, config: { urls: [url], max_pages: 1, render } });
    const estimate = async (render: 'always' | 'never') =>
      (await t.engine.workflows.create(p, { name: 'estimate', mode: 'multi_step', steps: [step(render)], interval: '1 day', dry_run: true })).estimate.credits_per_execution;
    expect((await estimate('always')) - (await estimate('never'))).toBe(1);

    const { workflow } = await t.engine.workflows.create(p, { name: 'item steps', mode: 'multi_step', steps: [step('always')], interval: '1 day' });
    expect(workflow!.steps![0]).toMatchObject({ config: { render: 'always' } });
    const first = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(first.steps![0]).toMatchObject({ status: 'completed', result_count: 1, credits: 2 });
    web.setVersion(2);
    const second = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(second.result_changes).toMatchObject({ changed_urls: [url] });
    expect(second.result_changes!.page_diffs![0]!.diff).toMatch(/^\+.*Now sold in a second colour/m);
    web.setVersion(1);
  }, 120_000);
});

describe('render: always on an engine without a browser', () => {
  it('is refused with 400 render_unavailable by every entry point, before anything is fetched or charged', async () => {
    const bare = openTestEngine({ allowPrivateNetwork: true, render: { chromiumPath: null } });
    try {
      const user = await fundedPrincipalOf(bare.engine, 'bare@x.test', 50);
      const balance = await bare.engine.credits.balance(user.userId);
      const url = `${web.apps}/data/item/1`;
      const served = web.requests.length;
      const attempts: [string, () => Promise<unknown>][] = [
        ['crawl', () => bare.engine.crawls.create(user, { urls: [url], processing_mode: 'sync', max_pages: 1, render: 'always' })],
        ['crawl estimate', () => bare.engine.crawls.estimate(user, { urls: [url], render: 'always' })],
        ['preview', () => bare.engine.extraction.preview(user, { url, extraction_schema: { name: 'The name of the item shown as the main heading' }, render: 'always' })],
        ['brand', () => bare.engine.brand.designSystem(user, { url, render: 'always' })],
        ['ask', () => bare.engine.asks.create(user, { question: 'What is on the page?', render: 'always' })],
        ['crawl workflow', () => bare.engine.workflows.create(user, { name: 'w', workflow_type: 'crawl', operation_config: { urls: [url], render: 'always' }, interval: '1 day' })],
        ['crawl step', () => bare.engine.workflows.create(user, { name: 'w', mode: 'multi_step', steps: [{ id: 's', type: 'crawl', config: { urls: [url], render: 'always' } }], interval: '1 day' })],
      ];
      for (const [name, attempt] of attempts) {
        await expect(attempt(), name).rejects.toMatchObject({ status: 400, code: 'render_unavailable' });
      }
      expect(web.requests.slice(served).filter((r) => r.origin === web.apps)).toEqual([]);
      expect(await bare.engine.credits.balance(user.userId)).toBe(balance);
      expect(await bare.engine.workflows.list(user, {})).toMatchObject({ data: [] });
      // A PATCH that turns an auto patrol into an always one is refused the same way, and changes nothing.
      const { workflow } = await bare.engine.workflows.create(user, { name: 'w', workflow_type: 'crawl', operation_config: { urls: [url] }, interval: '1 day' });
      await expect(bare.engine.workflows.update(user, workflow!.id, { operation_config: { urls: [url], render: 'always' } })).rejects.toMatchObject({ status: 400, code: 'render_unavailable' });
      expect((await bare.engine.workflows.get(user, workflow!.id)).operation_config).toEqual({ urls: [url] });
    } finally {
      await bare.dispose();
    }
  });
});
