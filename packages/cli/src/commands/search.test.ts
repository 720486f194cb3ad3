import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import type { QuickSearchResponse, SearchJob } from '@wvr/engine';
import { runCli } from '../testing.js';

let data: string;
let web: LocalWeb;
let env: Record<string, string>;
beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'wvr-search-'));
  web = await startLocalWeb({ sizes: { products: 60, articles: 20, docsDepth: 2 } });
  env = { WVR_SEARXNG_URL: web.search, WVR_SEARCH_PROVIDER: 'searxng' };
});
afterAll(async () => {
  rmSync(data, { recursive: true, force: true });
  await web.close();
});

describe('wvr search', () => {
  it('runs a quick search with a domain filter, as JSON and as a table', async () => {
    const newsHost = new URL(web.news).host;
    const asJson = await runCli(['--data', data, 'search', 'report', '--quick', '--max', '3', '--include-domains', newsHost, '--json'], env);
    expect(asJson.code).toBe(0);
    const out = JSON.parse(asJson.stdout) as QuickSearchResponse;
    expect(out.results.length).toBeGreaterThan(0);
    expect(out.results.every((r) => new URL(r.url).host === newsHost)).toBe(true);
    expect(out.credits.consumed).toBe(1);

    const asText = await runCli(['--data', data, 'search', 'report', '--quick', '--max', '2'], env);
    expect(asText.code).toBe(0);
    expect(asText.stdout).toMatch(/^#\s+SCORE\s+TITLE\s+URL/m);
    expect(asText.stdout).toContain('results from searxng · 1 credit(s), 2 used on the local plan');
  });

  it('runs a full search with reranking and suggestions for 2 credits, and quotes a dry run', async () => {
    const dry = await runCli(['--data', data, 'search', 'report', '--rerank', '--dry-run'], env);
    expect(dry.stdout).toContain('Would cost 2 credit(s), advanced (rerank_results); 2 used on the local plan.');
    const full = await runCli(['--data', data, 'search', 'report', '--rerank', '--suggest', '--max', '5', '--json'], env);
    expect(full.code).toBe(0);
    const job = JSON.parse(full.stdout) as SearchJob;
    expect(job.status).toBe('completed');
    expect(job.results).toHaveLength(5);
    expect(job.credits).toMatchObject({ consumed: 2, balance_after: -4, advanced_features: ['rerank_results', 'generate_suggestions'] });
  });

  it('runs a full search in a session with --session: it lands on the session timeline', async () => {
    const session = JSON.parse((await runCli(['--data', data, 'sessions', 'create', 'Reports', '--json'], env)).stdout) as { id: string };
    const found = await runCli(['--data', data, 'search', 'report', '--max', '3', '--session', session.id, '--json'], env);
    expect(found.code).toBe(0);
    const timeline = JSON.parse((await runCli(['--data', data, 'sessions', 'timeline', session.id, '--json'], env)).stdout) as {
      data: { kind: string; status: string }[];
    };
    expect(timeline.data).toMatchObject([{ kind: 'search', status: 'completed' }]);
    const quick = await runCli(['--data', data, 'search', 'report', '--quick', '--session', session.id], env);
    expect(quick.code).toBe(2);
    expect(quick.stderr).toContain('session_needs_full_search');
  });
});
