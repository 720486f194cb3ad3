import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { search, startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import type { Principal } from '../accounts/schemas.js';

/** Search workflows end to end: engine.search's SearXNG provider against the local web. */
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
  p = t.engine.accounts.localPrincipal(await t.engine.accounts.ensureUser({ email: 'watcher@x.test' }));
});
afterEach(() => t.dispose());

const QUERY = 'surprising';
/** The local web's own answer for QUERY at a version: the oracle the counts are checked against. */
function truthAt(version: number): string[] {
  web.setVersion(version);
  return search(web.truth, { catalogue: web.catalogue, news: web.news, docs: web.docs }, QUERY).results.map((r) => r.url);
}

describe('search workflows on the local web', () => {
  it('reports exact net_new, dropped and retained counts over three versions', async () => {
    const [v1, v2, v3] = [truthAt(1), truthAt(2), truthAt(3)];
    const { workflow } = await t.engine.workflows.create(p, { name: 'surprises', workflow_type: 'search', operation_config: { query: QUERY, max_results: 10 }, interval: '1 hour' });
    const runs = [];
    for (const version of [1, 2, 3]) {
      web.setVersion(version);
      runs.push((await t.engine.workflows.execute(p, workflow!.id)).execution!);
    }
    const counts = runs.map((e) => [e.result_changes!.net_new_count, e.result_changes!.dropped_count, e.result_changes!.retained_count]);
    const expected = [
      [v1.length, 0, 0],
      [v2.filter((u) => !v1.includes(u)).length, v1.filter((u) => !v2.includes(u)).length, v2.filter((u) => v1.includes(u)).length],
      [v3.filter((u) => !v2.includes(u)).length, v2.filter((u) => !v3.includes(u)).length, v3.filter((u) => v2.includes(u)).length],
    ];
    expect(counts).toEqual(expected);
    expect(counts).toEqual([[10, 0, 0], [1, 1, 9], [2, 2, 8]]);
    expect(runs[1]!.result_changes!.change_rate).toBe(18.18);
    expect(runs[1]!.result_changes!.net_new_urls.map((u) => u.url)).toEqual(v2.filter((u) => !v1.includes(u)));
    expect(runs[1]!.result_changes!.net_new_urls[0]).toMatchObject({ title: expect.any(String), snippet: expect.any(String) });
    expect(runs.map((e) => e.result_changes!.previous_execution_id)).toEqual([null, runs[0]!.id, runs[1]!.id]);
    expect(runs.map((e) => e.credits.consumed)).toEqual([1, 1, 1]);
    expect(await t.engine.credits.balance(p.userId)).toBe(97);
    const history = await t.engine.workflows.executions(p, workflow!.id, { limit: 2 });
    expect(history).toMatchObject({ total: 3, limit: 2 });
    expect(history.data.map((e) => e.seq)).toEqual([3, 2]);
    expect((await t.engine.workflows.get(p, workflow!.id)).recent_executions).toHaveLength(3);
  });

  it('completes on contains_url when the page appears, ending patrols', async () => {
    const [v1, v2] = [truthAt(1), truthAt(2)];
    const arriving = v2.find((u) => !v1.includes(u))!;
    const { workflow } = await t.engine.workflows.create(p, {
      name: 'wait for it',
      workflow_type: 'search',
      operation_config: { query: QUERY },
      interval_minutes: 30,
      stop_condition: { type: 'contains_url', url: new URL(arriving).pathname },
    });
    web.setVersion(1);
    const [first] = await t.engine.workflows.scheduler.tick();
    expect((await t.engine.workflows.get(p, workflow!.id)).recent_executions[0]).toMatchObject({ id: first!.execution_id, trigger: 'schedule', condition_met: false });
    web.setVersion(2);
    t.clock.advance(30 * 60_000);
    await t.engine.workflows.scheduler.tick();
    const done = await t.engine.workflows.get(p, workflow!.id);
    expect(done).toMatchObject({ status: 'completed', next_run_at: null, execution_count: 2 });
    expect(done.recent_executions[0]).toMatchObject({ condition_met: true, stop_evaluation: { evidence_url: arriving } });
    t.clock.advance(60 * 60_000);
    expect(await t.engine.workflows.scheduler.tick()).toEqual([]);
  });

  it('does not complete a change_rate stop on the baseline run, only when a later run changes', async () => {
    web.setVersion(1);
    const { workflow } = await t.engine.workflows.create(p, {
      name: 'any change',
      workflow_type: 'search',
      operation_config: { query: QUERY },
      interval: '1 hour',
      stop_condition: { type: 'field_value', field: 'change_rate', operator: '>', value: 0 },
    });
    const [first] = await t.engine.workflows.scheduler.tick();
    expect(first).toBeDefined();
    const baseline = await t.engine.workflows.get(p, workflow!.id);
    expect(baseline.status).toBe('active');
    expect(baseline.recent_executions[0]).toMatchObject({ condition_met: false, stop_evaluation: { reason: expect.stringContaining('baseline') } });
    web.setVersion(2);
    const changed = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(changed.condition_met).toBe(true);
    expect((await t.engine.workflows.get(p, workflow!.id)).status).toBe('completed');
  });

  it('runs one execution of a workflow at a time: a manual execute raced against the scheduled one waits and compares with it', async () => {
    // A search endpoint in front of the local web that holds back its first answer (the scheduled
    // run's, read at version 1) until released, so the manual run can be sent while it is in flight.
    let held: (() => void) | undefined;
    let firstSeen!: () => void;
    const seen = new Promise<void>((resolve) => (firstSeen = resolve));
    const release = new Promise<void>((resolve) => (held = resolve));
    let requests = 0;
    const gate = createServer(async (req, res) => {
      const answer = await fetch(new URL(req.url!, web.search)).then((r) => r.text());
      if (++requests === 1) {
        firstSeen();
        await release;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    try {
      await t.dispose();
      t = openTestEngine({ searxngUrl: `http://127.0.0.1:${(gate.address() as AddressInfo).port}`, searchProvider: 'searxng', allowPrivateNetwork: true });
      p = t.engine.accounts.localPrincipal(await t.engine.accounts.ensureUser({ email: 'watcher@x.test' }));
      web.setVersion(1);
      const { workflow } = await t.engine.workflows.create(p, { name: 'raced', workflow_type: 'search', operation_config: { query: QUERY, max_results: 10 }, interval: '1 hour' });
      const tick = t.engine.workflows.scheduler.tick(); // the first run, due at creation
      await seen;
      web.setVersion(2);
      const manual = t.engine.workflows.execute(p, workflow!.id);
      // Overlapping runs would let the manual one finish first; one at a time, it cannot until the scheduled one ends.
      await Promise.race([manual, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      held!();
      const [ticked, second] = await Promise.all([tick, manual]);
      const scheduled = (await t.engine.workflows.executions(p, workflow!.id)).data.find((e) => e.id === ticked[0]!.execution_id)!;
      expect([scheduled.seq, second.execution!.seq]).toEqual([1, 2]);
      expect(scheduled.result_changes).toMatchObject({ previous_execution_id: null, net_new_count: 10 });
      // In order: version 2 compared with version 1, what the local web itself says changed.
      const [v1, v2] = [truthAt(1), truthAt(2)];
      expect(second.execution!.result_changes).toMatchObject({
        previous_execution_id: scheduled.id,
        net_new_count: v2.filter((u) => !v1.includes(u)).length,
        dropped_count: v1.filter((u) => !v2.includes(u)).length,
      });
    } finally {
      held?.();
      await new Promise((resolve) => gate.close(resolve));
    }
  });

  it('suppresses the signal when every change is irrelevant to the intent', async () => {
    const { workflow } = await t.engine.workflows.create(p, {
      name: 'off topic',
      description: 'quarterly semiconductor wafer fabrication yields',
      workflow_type: 'search',
      operation_config: { query: QUERY },
      interval: '1 day',
      notification_config: { webhook_url: 'http://127.0.0.1:9/hook' },
    });
    const run = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(run.intent_relevance_filter).toMatchObject({ filtered_count: 10, monitoring_intent_used: 'quarterly semiconductor wafer fabrication yields', signal_suppressed: true });
    expect(run.intent_relevance_filter!.filtered_items[0]).toMatchObject({ url: expect.any(String), title: expect.any(String), reason: expect.any(String) });
    expect(run.notification).toEqual({ suppressed: true, events: ['workflow.execution.completed'] });
  });

  it('runs a multi_step pipeline: search, crawl of its {{output_key}}, cascade skip, aggregate', async () => {
    const hits = truthAt(1).slice(0, 3);
    web.setVersion(1);
    const { workflow } = await t.engine.workflows.create(p, {
      name: 'pipeline',
      mode: 'multi_step',
      interval: '1 day',
      steps: [
        { id: 'find', type: 'search', output_key: 'hits', config: { query: QUERY, max_results: 3 } },
        { id: 'read', type: 'crawl', depends_on: ['find'], cascade_condition: 'hits.count > 0', config: { urls: ['{{hits}}'], max_pages: 3 } },
        { id: 'deep', type: 'crawl', depends_on: ['find'], cascade_condition: 'hits.count > 100', config: { urls: ['{{hits}}'], max_pages: 50 } },
        { id: 'join', type: 'aggregate', depends_on: ['read'], config: { aggregation_type: 'deduplicate' } },
      ],
    });
    const run = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(run.steps!.map((s) => [s.id, s.status, s.result_count, s.credits])).toEqual([
      ['find', 'completed', 3, 1],
      ['read', 'completed', 3, 3],
      ['deep', 'skipped', 0, 0],
      ['join', 'completed', 3, 0],
    ]);
    expect(run.results!.map((r) => r.url).sort()).toEqual([...hits].sort());
    expect(run.credits.consumed).toBe(4);
    expect(await t.engine.credits.balance(p.userId)).toBe(96);
  });

  it('decomposes a compound query under query_decomposition: one search per sub-query, merged with provenance', async () => {
    web.setVersion(1);
    const step = (decompose: boolean) => ({ id: 'find', type: 'search', config: { query: 'noise cancelling headphones and espresso machine', max_results: 5, query_decomposition: decompose } });
    const runOf = async (decompose: boolean) => {
      const { workflow } = await t.engine.workflows.create(p, { name: `compound ${decompose}`, mode: 'multi_step', interval: '1 day', steps: [step(decompose)] });
      return (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    };
    const plain = await runOf(false);
    const split = await runOf(true);
    const about = (r: { title: string; description: string }, word: RegExp) => word.test(`${r.title} ${r.description}`);
    expect(plain.results!.some((r) => about(r, /espresso|coffee/i))).toBe(false);
    expect(split.steps![0]).toMatchObject({ status: 'completed', credits: 2, sub_queries: ['noise cancelling headphones', 'espresso machine'] });
    expect(split.results!.some((r) => about(r, /headphone/i) && r.matched_queries!.includes('noise cancelling headphones'))).toBe(true);
    expect(split.results!.some((r) => about(r, /espresso|coffee/i) && r.matched_queries!.includes('espresso machine'))).toBe(true);
    expect(new Set(split.results!.map((r) => r.url)).size).toBe(split.results!.length);
    expect(split.credits.consumed).toBe(2);
  });

  it('keeps an ai_planned execution within max_credits_per_execution', async () => {
    web.setVersion(1);
    const { workflow } = await t.engine.workflows.create(p, {
      name: 'planned',
      mode: 'ai_planned',
      intent: 'Find surprising findings from Researchers, Regulators and Investors about markets',
      max_credits_per_execution: 2,
      interval: '1 day',
    });
    expect(workflow!.steps!.filter((s) => s.type === 'search')).toHaveLength(2);
    const run = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(run.status).toBe('completed');
    expect(run.credits.consumed).toBe(2);
    expect(await t.engine.credits.balance(p.userId)).toBe(100 - run.credits.consumed);
  });

  it('hands change events to the notification outbox, which delivers them to the webhook', async () => {
    const received: { type: string; data: Record<string, unknown> }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(JSON.parse(body) as { type: string; data: Record<string, unknown> });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const { workflow } = await t.engine.workflows.create(p, {
        name: 'notify me',
        workflow_type: 'search',
        operation_config: { query: QUERY },
        interval: '1 day',
        max_executions: 2,
        notification_config: { webhook_url: hook },
      });
      web.setVersion(1);
      const first = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
      web.setVersion(2);
      const second = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
      expect(first.notification.events).toEqual(['workflow.execution.completed', 'workflow.changes.detected']);
      expect(second.notification.events).toEqual(['workflow.execution.completed', 'workflow.changes.detected', 'workflow.completed']);
      await t.engine.notify.deliverDue();
      expect(received.map((e) => e.type).sort()).toEqual([...first.notification.events, ...second.notification.events].sort());
      const changed = received.filter((e) => e.type === 'workflow.changes.detected').map((e) => e.data.execution_id);
      expect(changed.sort()).toEqual([first.id, second.id].sort());
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('records each execution in the workflow’s session and counts URLs the session never returned', async () => {
    const session = await t.engine.sessions.create(p, { name: 'surprise research' });
    await expect(t.engine.workflows.create(p, { name: 'x', workflow_type: 'search', operation_config: { query: QUERY }, interval: '1 day', session_id: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ status: 404 });
    const { workflow } = await t.engine.workflows.create(p, { name: 'in session', workflow_type: 'search', operation_config: { query: QUERY }, interval: '1 day', session_id: session.id });
    const [v1, v2] = [truthAt(1), truthAt(2)];
    web.setVersion(1);
    const first = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    web.setVersion(2);
    const second = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(first.session).toEqual({ id: session.id, recorded: true });
    expect([first.result_changes!.first_seen_count, second.result_changes!.first_seen_count]).toEqual([v1.length, v2.filter((u) => !v1.includes(u)).length]);
    expect((await t.engine.sessions.get(p, session.id)).operations).toHaveLength(2);
    await t.engine.sessions.complete(p, session.id);
    const third = (await t.engine.workflows.execute(p, workflow!.id)).execution!;
    expect(third).toMatchObject({ status: 'completed', session: { id: session.id, recorded: false, problem: 'session_completed' } });
  });
});
