import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, startSite, type LocalWeb, type RequestLogEntry, type Site } from '@wvr/testkit';
import { openTestEngine, type TestEngine } from '../../testing/engine.js';

/**
 * The renderer's requests meet the plain fetcher's address policy. The apps site is on 127.0.0.1
 * (exempted, as an operator would exempt an intranet host); a "metadata" server on 127.0.0.2 is
 * another private address the rendered page's script tries to reach.
 */
describe('the address policy on every request a rendered page makes', () => {
  let web: LocalWeb;
  let secret: Site;
  const secretLog: RequestLogEntry[] = [];
  beforeAll(async () => {
    web = await startLocalWeb({ sizes: { products: 5, articles: 2, docsDepth: 1 } });
    secret = await startSite('127.0.0.2', () => ({ body: 'instance credentials', headers: { 'access-control-allow-origin': '*' } }), secretLog);
  });
  afterAll(async () => {
    await secret?.close();
    await web?.close();
  });

  const probe = () => `${web.apps}/probe?target=${encodeURIComponent(`${secret.origin}/latest/meta-data/`)}`;

  it('refuses a sub-request to another private address while the page itself is allowed', async () => {
    const lab = openTestEngine({ allowPrivateNetwork: false, fetchLimits: { allowedPrivateAddresses: ['127.0.0.1'] } });
    try {
      const page = await lab.engine.web.fetch({ url: probe(), render: 'always' });
      expect(page.error).toBeUndefined();
      expect(page.rendering).toMatchObject({ rendered: true });
      expect(page.body).toContain('probe refused');
      expect(secretLog).toHaveLength(0);
      expect(lab.engine.web.renderStats().requests_refused).toBeGreaterThanOrEqual(1);
    } finally {
      await lab.dispose();
    }
  }, 60_000);

  it('lets the same sub-request through when that address is allowed too (the test can fail)', async () => {
    const lab = openTestEngine({ allowPrivateNetwork: false, fetchLimits: { allowedPrivateAddresses: ['127.0.0.1', '127.0.0.2'] } });
    try {
      const page = await lab.engine.web.fetch({ url: probe(), render: 'always' });
      expect(page.body).toContain('probe answered');
      expect(secretLog.map((e) => e.path)).toContain('/latest/meta-data/');
      expect(lab.engine.web.renderStats().requests_refused).toBe(0);
    } finally {
      await lab.dispose();
    }
  }, 60_000);

  it('asks robots.txt about the page URL before any browser starts', async () => {
    const lab = openTestEngine({ allowPrivateNetwork: true });
    try {
      const disallowed = await lab.engine.web.fetch({ url: `${web.lab}/private/secret`, render: 'always' });
      expect(disallowed.error?.code).toBe('robots_disallowed');
      expect(lab.engine.web.renderStats().browser_launches).toBe(0);
    } finally {
      await lab.dispose();
    }
  });
});

describe('without a browser', () => {
  let web: LocalWeb;
  let lab: TestEngine;
  beforeAll(async () => {
    web = await startLocalWeb({ sizes: { products: 5, articles: 2, docsDepth: 1 } });
    lab = openTestEngine({ allowPrivateNetwork: true, render: { chromiumPath: null } });
  });
  afterAll(async () => {
    await lab?.dispose();
    await web?.close();
  });

  it('auto keeps the static HTML with a note', async () => {
    const page = await lab.engine.web.fetch({ url: `${web.apps}/data/`, render: 'auto' });
    expect(page.error).toBeUndefined();
    expect(page.body).toContain('id="app"');
    expect(page.rendering).toMatchObject({ mode: 'auto', rendered: false, note: expect.stringContaining('render_unavailable') });
  });

  it('always is refused before anything is fetched: 400 render_unavailable', () => {
    expect(() => lab.engine.web.assertRenderAvailable('always')).toThrowError(expect.objectContaining({ status: 400, code: 'render_unavailable' }));
    expect(() => lab.engine.web.assertRenderAvailable('auto')).not.toThrow();
  });
});
