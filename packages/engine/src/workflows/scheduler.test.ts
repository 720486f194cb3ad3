import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { MINUTE } from '../core/clock.js';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import type { Principal } from '../accounts/schemas.js';

/** Aggregate-only pipelines need no outside service, so these tests exercise the scheduler alone. */
const pipeline = { mode: 'multi_step', steps: [{ id: 'combine', type: 'aggregate', config: {} }] } as const;

let t: TestEngine;
let others: Engine[] = [];
afterEach(async () => {
  for (const e of others) await e.close();
  others = [];
  await t.dispose();
});

async function owner(engine: Engine): Promise<Principal> {
  const user = await engine.accounts.ensureUser({ email: 'owner@x.test' });
  return engine.accounts.localPrincipal(user);
}

describe('workflow scheduler', () => {
  it('runs a scheduled_for workflow once, then completes it', async () => {
    t = openTestEngine();
    const p = await owner(t.engine);
    const { workflow } = await t.engine.workflows.create(p, { name: 'once', ...pipeline, scheduled_for: '2026-03-10T13:00:00Z' });
    expect(await t.engine.workflows.scheduler.tick()).toEqual([]);
    t.clock.advance(60 * MINUTE);
    const runs = await t.engine.workflows.scheduler.tick();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.slot).toBe('2026-03-10T13:00:00.000Z');
    t.clock.advance(24 * 60 * MINUTE);
    expect(await t.engine.workflows.scheduler.tick()).toEqual([]);
    const detail = await t.engine.workflows.get(p, workflow!.id);
    expect(detail.status).toBe('completed');
    expect(detail.execution_count).toBe(1);
    expect(detail.next_run_at).toBeNull();
  });

  it('runs anchored interval slots at the anchor minute', async () => {
    t = openTestEngine();
    const p = await owner(t.engine);
    await t.engine.workflows.create(p, { name: 'anchored', ...pipeline, interval_minutes: 60, anchor_minute: 45 });
    t.clock.set('2026-03-10T12:44:59Z');
    expect(await t.engine.workflows.scheduler.tick()).toEqual([]);
    t.clock.set('2026-03-10T12:45:00Z');
    expect((await t.engine.workflows.scheduler.tick()).map((r) => r.slot)).toEqual(['2026-03-10T12:45:00.000Z']);
    t.clock.set('2026-03-10T13:45:00Z');
    expect((await t.engine.workflows.scheduler.tick()).map((r) => r.slot)).toEqual(['2026-03-10T13:45:00.000Z']);
  });

  it('catches up after downtime with one run, not one per missed slot', async () => {
    t = openTestEngine();
    const p = await owner(t.engine);
    const { workflow } = await t.engine.workflows.create(p, { name: 'every 5', ...pipeline, interval_minutes: 5 });
    expect(await t.engine.workflows.scheduler.tick()).toHaveLength(1);
    t.clock.advance(3 * 60 * MINUTE + 2 * MINUTE);
    expect(await t.engine.workflows.scheduler.tick()).toHaveLength(1);
    expect((await t.engine.workflows.get(p, workflow!.id)).next_run_at).toBe('2026-03-10T15:05:00.000Z');
  });

  it('runs each slot once when two engines share one database file', async () => {
    t = openTestEngine();
    const second = createEngine({ ...t.store, clock: t.clock, secret: 'test-secret' });
    others.push(second);
    const p = await owner(t.engine);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await t.engine.workflows.create(p, { name: `w${i}`, ...pipeline, interval_minutes: 10 })).workflow!.id);
    const slots: string[] = [];
    for (let round = 0; round < 4; round++) {
      const [a, b] = await Promise.all([t.engine.workflows.scheduler.tick(), second.workflows.scheduler.tick()]);
      slots.push(...[...a, ...b].map((r) => `${r.workflow_id}@${r.slot}`));
      t.clock.advance(10 * MINUTE);
    }
    expect(slots).toHaveLength(20);
    expect(new Set(slots).size).toBe(20);
    for (const id of ids) expect((await t.engine.workflows.executions(p, id, { limit: 100 })).total).toBe(4);
  });

  // 120 s: 200 workflows made one by one and a second process started under tsx take past 30 s on PostgreSQL on a busy machine.
  it('runs each slot once when a second engine process ticks at the same moment', async () => {
    t = openTestEngine();
    const p = await owner(t.engine);
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push((await t.engine.workflows.create(p, { name: `w${i}`, ...pipeline, interval_minutes: 10 })).workflow!.id);
    const script = fileURLToPath(new URL('./scheduler-process.fixture.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, t.store.databaseUrl ?? t.dbPath, t.clock.now().toISOString()], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('ready');
    child.stdin.write('go\n');
    const mine = (await t.engine.workflows.scheduler.tick()).map((r) => `${r.workflow_id}@${r.slot}`);
    const theirs = JSON.parse((await lines.next()).value as string) as string[];
    expect([...mine, ...theirs].sort()).toEqual(ids.map((id) => `${id}@2026-03-10T12:00:00.000Z`).sort());
    for (const id of ids) expect((await t.engine.workflows.executions(p, id)).total).toBe(1);
  }, 120_000);

  it('does not run paused workflows, and resumes them from the next slot', async () => {
    t = openTestEngine();
    const p = await owner(t.engine);
    const { workflow } = await t.engine.workflows.create(p, { name: 'pausable', ...pipeline, interval_minutes: 10 });
    await t.engine.workflows.update(p, workflow!.id, { status: 'paused' });
    t.clock.advance(30 * MINUTE);
    expect(await t.engine.workflows.scheduler.tick()).toEqual([]);
    await t.engine.workflows.update(p, workflow!.id, { status: 'active' });
    expect(await t.engine.workflows.scheduler.tick()).toHaveLength(1);
  });
});

/**
 * A SearXNG-compatible /search on 127.0.0.1 whose answers the test controls: held until released,
 * so the test sees how many executions are in flight, and an optional hook run on each request.
 */
async function searchServer(onRequest: () => void = () => {}) {
  const held: ServerResponse[] = [];
  const waiters: { n: number; done: () => void }[] = [];
  let holding = true;
  let inFlight = 0;
  let maxInFlight = 0;
  const answer = (res: ServerResponse) => {
    const results = Array.from({ length: 10 }, (_, i) => ({ url: `http://kettles.test/${i}`, title: `Kettle ${i}`, content: 'a kettle' }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    inFlight--;
  };
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    onRequest();
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    if (!holding) return answer(res);
    held.push(res);
    for (const w of waiters.filter((w) => held.length >= w.n)) w.done();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get maxInFlight() {
      return maxInFlight;
    },
    held: () => held.length,
    /** Resolves once n requests are waiting for an answer. */
    holding: (n: number) => new Promise<void>((done) => (held.length >= n ? done() : waiters.push({ n, done }))),
    /** Answers what is held and everything after it at once. */
    release() {
      holding = false;
      held.splice(0).forEach(answer);
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe('workflow scheduler under load', () => {
  let search: Awaited<ReturnType<typeof searchServer>> | undefined;
  afterEach(async () => {
    search?.release();
    await search?.close();
    search = undefined;
  });

  async function patrols(n: number, onRequest?: () => void): Promise<{ p: Principal; ids: string[] }> {
    search = await searchServer(onRequest);
    t = openTestEngine({ searchProvider: 'searxng', searxngUrl: search.url, allowPrivateNetwork: true });
    const p = await owner(t.engine);
    await t.engine.credits.grant(p.userId, 10_000);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const { workflow } = await t.engine.workflows.create(p, { name: `patrol ${i}`, workflow_type: 'search', operation_config: { query: 'kettle', max_results: 5 }, interval_minutes: 1 });
      ids.push(workflow!.id);
    }
    return { p, ids };
  }

  const stillDue = async (p: Principal, ids: string[]) => {
    const due = [];
    for (const id of ids) if ((await t.engine.workflows.get(p, id)).next_run_at === '2026-03-10T12:00:00.000Z') due.push(id);
    return due;
  };

  it('ends a tick with the slots due when it began, though every execution takes past the next slot', { timeout: 10_000 }, async () => {
    // Each search takes a minute of engine time: before, the tick kept claiming the new slots and never returned.
    const { p, ids } = await patrols(3, () => t.clock.advance(MINUTE));
    search!.release();
    const runs = await t.engine.workflows.scheduler.tick();
    expect(runs.map((r) => r.slot)).toEqual(['2026-03-10T12:00:00.000Z', '2026-03-10T12:00:00.000Z', '2026-03-10T12:00:00.000Z']);
    expect(runs.every((r) => r.execution_id !== null)).toBe(true);
    for (const id of ids) expect((await t.engine.workflows.executions(p, id)).total).toBe(1);
    // The slots that fell due meanwhile are the next tick's.
    expect(await t.engine.workflows.scheduler.tick()).toHaveLength(3);
  });

  it('runs at most `concurrency` executions at once and claims no slot it cannot start', { timeout: 10_000 }, async () => {
    const { p, ids } = await patrols(5);
    const tick = t.engine.workflows.scheduler.tick({ concurrency: 3 });
    await search!.holding(3);
    expect(await stillDue(p, ids)).toHaveLength(2);
    search!.release();
    const runs = await tick;
    expect(new Set(runs.map((r) => r.workflow_id))).toEqual(new Set(ids));
    expect(runs.every((r) => r.execution_id !== null && r.error === undefined)).toBe(true);
    expect(search!.maxInFlight).toBe(3);
    for (const id of ids) expect((await t.engine.workflows.executions(p, id)).data.map((e) => e.status)).toEqual(['completed']);
  });

  it('stop() lets a running tick finish the executions it started, and leaves the other slots due', { timeout: 10_000 }, async () => {
    const { p, ids } = await patrols(6);
    const tick = t.engine.workflows.scheduler.tick({ concurrency: 2 });
    await search!.holding(2);
    const stopped = t.engine.workflows.scheduler.stop();
    search!.release();
    await stopped;
    const runs = await tick;
    expect(runs).toHaveLength(2);
    expect(await stillDue(p, ids)).toHaveLength(4);
    let executed = 0;
    for (const id of ids) executed += (await t.engine.workflows.executions(p, id)).total;
    expect(executed).toBe(2);
    // Stopping ends the tick, not the scheduler: the next tick runs the rest.
    expect(await t.engine.workflows.scheduler.tick()).toHaveLength(4);
    expect(await stillDue(p, ids)).toEqual([]);
  });

  it('engine.close() returns while the started scheduler loop is behind', { timeout: 10_000 }, async () => {
    const { ids } = await patrols(6);
    t.engine.start({ schedulerIntervalMs: 5, schedulerConcurrency: 2, jobPollMs: 60_000, deliveryIntervalMs: 60_000 });
    await search!.holding(2);
    const closed = t.engine.close();
    search!.release();
    await closed;
    expect(search!.maxInFlight).toBe(2);
    const reopened = createEngine({ ...t.store, clock: t.clock, secret: 'test-secret' });
    others.push(reopened);
    const again = reopened.accounts.localPrincipal(await reopened.accounts.ensureUser({ email: 'owner@x.test' }));
    const due = [];
    for (const id of ids) if ((await reopened.workflows.get(again, id)).next_run_at === '2026-03-10T12:00:00.000Z') due.push(id);
    expect(due).toHaveLength(4);
  });
});
