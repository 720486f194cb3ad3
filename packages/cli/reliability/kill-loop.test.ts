import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '@wvr/engine';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { api, invariants, kill, progress, query, receiver, report, serve, sleep, type Receiver } from './harness.js';

let web: LocalWeb;
let hooks: Receiver;
let data: string;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 2000, articles: 60 } });
  hooks = await receiver();
  data = mkdtempSync(join(tmpdir(), 'wvr-kill-loop-'));
});
afterAll(async () => {
  await hooks.close();
  await web.close();
  rmSync(data, { recursive: true, force: true });
});

const RUNS = 5;
/** How long the last server gets to finish what the killed ones left; the figures print either way. */
const SETTLE_MS = 240_000;
const PATROLS = 4;

describe('kill -9 loop', () => {
  it('crawls and scheduled crawl patrols with webhooks survive SIGKILL after SIGKILL', async () => {
    const setup = createEngine({ dataDir: data, allowPrivateNetwork: true });
    const user = await setup.accounts.ensureUser({ email: 'reliability@x.test', plan: 'pro' });
    await setup.credits.grant(user.id, 100_000);
    const principal = setup.accounts.localPrincipal(user);
    const token = (await setup.tokens.issue(user.id, { name: 'reliability', scopes: ['search', 'crawl', 'workflow', 'sessions'] })).token;
    for (const [url, maxPages] of [[`${web.catalogue}/`, 120], [`${web.docs}/docs`, 40]] as const) {
      await setup.crawls.create(principal, { urls: [url], max_pages: maxPages, expansion: 'internal', link_extraction_config: { max_depth: 4 } });
    }
    const start = Date.now();
    const workflows: string[] = [];
    for (let i = 0; i < PATROLS; i++) {
      const { workflow } = await setup.workflows.create(principal, {
        name: `patrol ${i}`,
        workflow_type: 'crawl',
        operation_config: { urls: [web.news], max_pages: 8, expansion: 'internal' },
        scheduled_for: new Date(start + 5_000 + i * 5_000).toISOString(),
        notification_config: { webhook_url: hooks.url },
      });
      workflows.push(workflow!.id);
    }
    await setup.close();

    // A deterministic spread of kill times (1.5 to 4.5 s after the server listens).
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    let kills = 0;
    for (let run = 0; run < RUNS; run++) {
      const server = await serve(data);
      await sleep(1_500 + next() * 3_000);
      await kill(server);
      kills++;
      report(`kill ${kills}`, progress(data));
    }

    const server = await serve(data);
    let settled = false;
    try {
      for (const deadline = Date.now() + SETTLE_MS; Date.now() < deadline && !settled; await sleep(500)) {
        const open = query<{ n: number }>(data, "SELECT count(*) AS n FROM crawls WHERE status IN ('pending', 'running')")[0]!.n;
        const unrecorded = workflows.filter((id) => query(data, "SELECT id FROM workflow_executions WHERE workflow_id = ? AND status != 'running'", id).length === 0).length;
        const pending = query<{ n: number }>(data, "SELECT count(*) AS n FROM notify_deliveries WHERE status = 'pending'")[0]!.n;
        settled = open === 0 && unrecorded === 0 && pending === 0;
      }
      const credits = await api<{ balance: number }>(server.url, token, 'GET', '/v1/credits');
      const ledger = query<{ total: number }>(data, 'SELECT sum(amount) AS total FROM credit_ledger WHERE user_id = ?', user.id)[0]!.total;
      const facts = invariants(data);
      const slots = workflows.map((id) => query(data, "SELECT id FROM workflow_executions WHERE workflow_id = ? AND trigger = 'schedule'", id).length);
      const executions = query<{ status: string; code: string | null }>(data, "SELECT status, json_extract(body, '$.error.code') AS code FROM workflow_executions");
      const deliveries = query<{ event_id: string; status: string }>(data, 'SELECT event_id, status FROM notify_deliveries');
      const undelivered = deliveries.filter((d) => d.status !== 'delivered' || !hooks.received.has(d.event_id)).length;
      const redelivered = [...hooks.received.values()].reduce((n, c) => n + c - 1, 0);
      const figures = {
        runs: RUNS + 1,
        kills,
        pages: facts.pages,
        crawls: facts.crawls,
        duplicates: facts.duplicates,
        charged_not_stored: facts.chargedNotStored,
        open_reservations: facts.openReservations,
        ledger_mismatches: facts.ledgerMismatches,
        balance: credits.body.balance,
        ledger_sum: ledger,
        lost_slots: slots.filter((n) => n === 0).length,
        slots_run_twice: slots.filter((n) => n > 1).length,
        executions: executions.map((e) => e.code ?? e.status).join(','),
        webhooks: deliveries.length,
        undelivered,
        redelivered,
      };
      report('kill -9 loop', figures);
      expect(settled).toBe(true);
      expect(facts.crawls).toEqual({ completed: 2 + PATROLS });
      expect(facts).toMatchObject({ duplicates: 0, chargedNotStored: 0, openReservations: 0, ledgerMismatches: 0, runningExecutions: 0 });
      expect(credits.body.balance).toBe(ledger);
      expect(slots).toEqual(Array(PATROLS).fill(1));
      expect(deliveries.length).toBeGreaterThanOrEqual(PATROLS);
      expect(undelivered).toBe(0);
    } finally {
      await kill(server, 'SIGTERM');
    }
  }, 480_000);
});
