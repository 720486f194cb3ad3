import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '@wvr/engine';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { api, invariants, kill, query, report, serve, sleep, worker, type Proc } from './harness.js';

let web: LocalWeb;
let data: string;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 2000, articles: 60 } });
  data = mkdtempSync(join(tmpdir(), 'wvr-shared-'));
});
afterAll(async () => {
  await web.close();
  rmSync(data, { recursive: true, force: true });
});

const CRAWLS = 6;
const READERS = 10;

describe('server + 2 workers on one data folder', () => {
  it('completes every crawl under concurrent API reads and writes, with no 5xx', async () => {
    const setup = createEngine({ dataDir: data, allowPrivateNetwork: true });
    const user = await setup.accounts.ensureUser({ email: 'shared@x.test', plan: 'pro' });
    await setup.credits.grant(user.id, 100_000);
    const token = (await setup.tokens.issue(user.id, { name: 'shared', scopes: ['search', 'crawl', 'workflow', 'sessions'] })).token;
    await setup.close();

    const procs: Proc[] = [];
    const server = await serve(data, ['--no-worker']);
    procs.push(server);
    try {
      procs.push(await worker(data), await worker(data));
      const seeds = [`${web.catalogue}/`, `${web.docs}/docs`, `${web.news}/`];
      const ids: string[] = [];
      for (let i = 0; i < CRAWLS; i++) {
        const created = await api<{ id: string }>(server.url, token, 'POST', '/v1/crawls', { urls: [seeds[i % seeds.length]], max_pages: 60, expansion: 'internal', link_extraction_config: { max_depth: 4 } });
        expect(created.status).toBe(201);
        ids.push(created.body.id);
      }
      const statuses = new Map<number, number>();
      let requests = 0;
      let done = false;
      // Readers (GET /v1/credits writes the monthly grant check) and a writer (token create) on the API.
      const load = Array.from({ length: READERS }, async (_, i) => {
        while (!done) {
          const r = i === 0
            ? await api(server.url, token, 'POST', '/v1/crawls/estimate', { urls: [`${web.news}/`], max_pages: 5 })
            : await api(server.url, token, 'GET', '/v1/credits');
          requests++;
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }
      });
      const started = Date.now();
      for (const deadline = Date.now() + 150_000; Date.now() < deadline; await sleep(500)) {
        const open = query<{ n: number }>(data, "SELECT count(*) AS n FROM crawls WHERE status IN ('pending', 'running')")[0]!.n;
        if (open === 0) break;
      }
      done = true;
      await Promise.all(load);
      const facts = invariants(data);
      const failed = query<{ error: string }>(data, "SELECT error FROM crawls WHERE status != 'completed'").map((r) => r.error);
      const fiveHundreds = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
      report('server + 2 workers', {
        crawls: CRAWLS,
        completed: facts.crawls.completed ?? 0,
        pages: facts.pages,
        seconds: Math.round((Date.now() - started) / 1000),
        api_requests: requests,
        statuses: Object.fromEntries(statuses),
        duplicates: facts.duplicates,
        open_reservations: facts.openReservations,
        failures: failed.join(' | ') || 'none',
      });
      expect(failed).toEqual([]);
      expect(facts.crawls).toEqual({ completed: CRAWLS });
      expect(fiveHundreds).toBe(0);
      expect(facts).toMatchObject({ duplicates: 0, chargedNotStored: 0, openReservations: 0, ledgerMismatches: 0 });
    } finally {
      for (const p of procs) await kill(p, 'SIGTERM');
    }
  }, 240_000);
});
