import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SITEMAP_SITE_TRUTH, startLocalWeb, type LocalWeb } from '@wvr/testkit';
import type { MapResult } from '@wvr/engine';
import { runCli } from '../testing.js';

/** `wvr map URL` in local mode against the local web's sitemaps site (nested, gzipped and broken sitemaps). */
let data: string;
let web: LocalWeb;
beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'wvr-map-cli-'));
  web = await startLocalWeb({ seed: 3, sizes: { products: 5, articles: 12, docsDepth: 1 } });
});
afterAll(async () => {
  rmSync(data, { recursive: true, force: true });
  await web.close();
});

const wvr = (...args: string[]) => runCli(['--data', data, ...args]);

describe('wvr map', { timeout: 120_000 }, () => {
  it('prints one URL a line with its lastmod after a tab, and the summary on stderr', async () => {
    const result = await wvr('map', `${web.sitemaps}/`, '--include', '/blog/*');
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const expected = [...SITEMAP_SITE_TRUTH.sitemapPaths].filter(([path]) => path.startsWith('/blog/'));
    expect(lines.sort()).toEqual(expected.map(([path, lastmod]) => (lastmod ? `${web.sitemaps}${path}\t${lastmod}` : `${web.sitemaps}${path}`)).sort());
    expect(result.stderr).toMatch(/^10 URLs from \d+ sitemap\(s\), \d+ broken and \d+ page\(s\) read for links/m);
    expect(result.stderr).toContain('1 credit');
  });

  it('answers JSON with --json: search, sitemap only, limit', async () => {
    const result = await wvr('map', `${web.sitemaps}/`, '--search', 'guides', '--sitemap', 'only', '--limit', '3', '--json');
    expect(result.code, result.stderr).toBe(0);
    const map = JSON.parse(result.stdout) as MapResult;
    expect(map.urls).toHaveLength(3);
    expect(map.urls.every((u) => u.url.startsWith(`${web.sitemaps}/guides/`) && u.source === 'sitemap')).toBe(true);
    expect(map.truncated).toBe(true);
    expect(map.stats.discovery_pages).toBe(0);
    expect(map.credits.consumed).toBe(1);
  });

  it('exits non-zero with the API error for a limit out of range', async () => {
    const result = await wvr('map', `${web.sitemaps}/`, '--limit', '100001');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('limit');
  });
});
