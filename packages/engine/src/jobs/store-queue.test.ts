import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import { RescheduleJob } from './queue.js';

const opened: TestEngine[] = [];
const extra: Engine[] = [];
function open() {
  const t = openTestEngine();
  opened.push(t);
  return t;
}
function second(t: TestEngine) {
  const e = createEngine({ ...t.store, clock: t.clock, secret: 'test-secret' });
  extra.push(e);
  return e;
}
afterEach(async () => {
  for (const e of extra.splice(0)) await e.close();
  for (const t of opened.splice(0)) await t.dispose();
});

describe('StoreJobQueue', () => {
  it('runs a job only once the engine clock reaches its run-at time', async () => {
    const { engine, clock } = open();
    const seen: string[] = [];
    engine.jobs.register<{ n: string }>('echo', async ({ job }) => {
      seen.push(job.payload.n);
      return { ok: true };
    });
    const job = await engine.jobs.enqueue('echo', { n: 'a' }, { runAt: clock.now().getTime() + 60_000 });
    expect(await engine.jobs.runDue()).toHaveLength(0);
    clock.advance(60_000);
    const [ran] = await engine.jobs.runDue();
    expect(seen).toEqual(['a']);
    expect(ran!.status).toBe('succeeded');
    expect((await engine.jobs.get(job.id))!.result).toEqual({ ok: true });
  });

  it('never runs a job twice when two engines on one file claim at once', async () => {
    const t = open();
    const other = second(t);
    let runs = 0;
    const handler = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 5));
    };
    t.engine.jobs.register('once', handler);
    other.jobs.register('once', handler);
    for (let i = 0; i < 20; i++) await t.engine.jobs.enqueue('once', { i });
    await Promise.all([t.engine.jobs.drain(), other.jobs.drain(), t.engine.jobs.drain(), other.jobs.drain()]);
    expect(runs).toBe(20);
  });

  it('complete() lands a job’s effect once: a worker whose lease passed cannot complete after another took over', async () => {
    const t = open();
    const other = second(t);
    let release!: () => void;
    const stalledUntil = new Promise<void>((resolve) => (release = resolve));
    let stalledOutcome = '';
    // The effect is a store write (a job enqueued inside complete's transaction), so it lands only with the success.
    const effect = (engine: Engine, by: string) => () => engine.jobs.enqueue('effect', {}, { id: `effect-${by}` }).then(() => by);
    t.engine.jobs.register('slow', async (ctx) => {
      await stalledUntil;
      stalledOutcome = await ctx.complete(effect(t.engine, 'stalled')).catch((e: Error) => e.message);
    }, { leaseMs: 1_000 });
    other.jobs.register('slow', async (ctx) => ctx.complete(effect(other, 'other')), { leaseMs: 1_000 });
    const job = await t.engine.jobs.enqueue('slow', {});
    const first = t.engine.jobs.runNow(job.id);
    // Claimed before the clock moves: a fixed pause let a slow claim (PostgreSQL under CI's load) land after the move,
    // with a lease that had not passed, and the other worker found nothing due.
    await vi.waitFor(async () => expect((await t.engine.jobs.get(job.id))!.status).toBe('running'));
    t.clock.advance(5_000);
    const [taken] = await other.jobs.runDue({ kinds: ['slow'] });
    expect(taken).toMatchObject({ status: 'succeeded', result: 'other', attempts: 2 });
    release();
    await first;
    expect(stalledOutcome).toBe('job lost');
    expect(await t.engine.jobs.get('effect-other')).toBeDefined();
    expect(await t.engine.jobs.get('effect-stalled')).toBeUndefined();
  });

  it('retries a failing job after its backoff and marks it failed after max attempts', async () => {
    const { engine, clock } = open();
    let calls = 0;
    engine.jobs.register('flaky', async () => {
      calls++;
      throw new Error(`boom ${calls}`);
    }, { maxAttempts: 2, backoff: () => 10_000 });
    const job = await engine.jobs.enqueue('flaky', {});
    await engine.jobs.runDue();
    expect(await engine.jobs.get(job.id)).toMatchObject({ status: 'queued', lastError: 'boom 1', attempts: 1 });
    expect(await engine.jobs.runDue()).toHaveLength(0);
    clock.advance(10_000);
    await engine.jobs.runDue();
    expect(await engine.jobs.get(job.id)).toMatchObject({ status: 'failed', lastError: 'boom 2', attempts: 2 });
    expect(calls).toBe(2);
  });

  it('reschedules without counting a failure when the handler asks to', async () => {
    const { engine, clock } = open();
    let calls = 0;
    engine.jobs.register('later', async () => {
      calls++;
      if (calls === 1) throw new RescheduleJob(clock.now().getTime() + 5_000);
    });
    const job = await engine.jobs.enqueue('later', {});
    await engine.jobs.runDue();
    expect(await engine.jobs.get(job.id)).toMatchObject({ status: 'queued', attempts: 0 });
    clock.advance(5_000);
    await engine.jobs.runDue();
    expect((await engine.jobs.get(job.id))!.status).toBe('succeeded');
  });

  it('aborts a running handler on cancel and ends the job cancelled', async () => {
    const { engine } = open();
    let started!: () => void;
    const isRunning = new Promise<void>((r) => (started = r));
    engine.jobs.register('long', async ({ signal }) => {
      started();
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    const job = await engine.jobs.enqueue('long', {});
    const run = engine.jobs.runDue();
    await isRunning;
    expect(await engine.jobs.cancel(job.id)).toBe(true);
    await run;
    expect((await engine.jobs.get(job.id))!.status).toBe('cancelled');
  });

  it('lets another engine reclaim a job whose lease ran out, and ignores the stale worker', async () => {
    const t = open();
    const other = second(t);
    let release!: () => void;
    const stuck = new Promise<void>((r) => (release = r));
    let staleHeartbeat: boolean | undefined;
    t.engine.jobs.register('crawlish', async ({ heartbeat }) => {
      await stuck;
      staleHeartbeat = await heartbeat();
      return 'stale';
    }, { leaseMs: 30_000 });
    other.jobs.register('crawlish', async () => 'fresh', { leaseMs: 30_000 });
    const job = await t.engine.jobs.enqueue('crawlish', {});
    const staleRun = t.engine.jobs.runDue();
    await vi.waitFor(async () => expect((await t.engine.jobs.get(job.id))!.status).toBe('running'));
    expect(await other.jobs.runDue()).toHaveLength(0);
    t.clock.advance(30_000);
    const [fresh] = await other.jobs.runDue();
    expect(fresh).toMatchObject({ status: 'succeeded', result: 'fresh', attempts: 2 });
    release();
    await staleRun;
    expect(staleHeartbeat).toBe(false);
    expect((await t.engine.jobs.get(job.id))!.result).toBe('fresh');
  });

  it('tells a stalled worker, under the job row lock, that it no longer holds a job another engine took over', async () => {
    const t = open();
    const other = second(t);
    let release!: () => void;
    const stuck = new Promise<void>((r) => (release = r));
    const seen: { before?: boolean; after?: boolean; aborted?: boolean } = {};
    t.engine.jobs.register('crawlish', async ({ holds, signal }) => {
      seen.before = await holds();
      await stuck;
      // A crawl asks this inside each page group's transaction: false means it stores and charges nothing more.
      seen.after = await holds();
      seen.aborted = signal.aborted;
      return 'stale';
    }, { leaseMs: 30_000 });
    other.jobs.register('crawlish', async () => 'fresh', { leaseMs: 30_000 });
    const job = await t.engine.jobs.enqueue('crawlish', {});
    const staleRun = t.engine.jobs.runDue();
    await vi.waitFor(() => expect(seen.before).toBe(true));
    t.clock.advance(30_000);
    expect(await other.jobs.runDue()).toMatchObject([{ status: 'succeeded', result: 'fresh' }]);
    release();
    await staleRun;
    expect(seen).toEqual({ before: true, after: false, aborted: true });
    expect((await t.engine.jobs.get(job.id))!.result).toBe('fresh');
  });

  it('hands a running job back to the queue when the engine stops', async () => {
    const t = open();
    t.engine.jobs.register('long', async ({ signal }) => {
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    const job = await t.engine.jobs.enqueue('long', {});
    void t.engine.jobs.runDue();
    await vi.waitFor(async () => expect((await t.engine.jobs.get(job.id))!.status).toBe('running'));
    await t.engine.jobs.stop();
    expect(await t.engine.jobs.get(job.id)).toMatchObject({ status: 'queued', attempts: 0 });
    const other = second(t);
    other.jobs.register('long', async () => 'done');
    const [done] = await other.jobs.runDue();
    expect(done).toMatchObject({ status: 'succeeded', result: 'done' });
  });

  it('runs enqueued jobs in the background once started', async () => {
    const { engine } = open();
    engine.jobs.register('bg', async ({ job }) => job.payload);
    engine.jobs.start({ pollMs: 20 });
    const job = await engine.jobs.enqueue('bg', 'hello');
    await vi.waitFor(async () => expect((await engine.jobs.get(job.id))!.status).toBe('succeeded'));
    expect((await engine.jobs.get(job.id))!.result).toBe('hello');
  });

  it('runs a rescheduled job at its new time', async () => {
    const { engine, clock } = open();
    engine.jobs.register('later', async () => 'ran');
    const job = await engine.jobs.enqueue('later', {}, { runAt: clock.now().getTime() + 3_600_000 });
    expect(await engine.jobs.reschedule(job.id, clock.now())).toBe(true);
    const [ran] = await engine.jobs.runDue();
    expect(ran).toMatchObject({ id: job.id, result: 'ran' });
    expect(await engine.jobs.reschedule(job.id, clock.now())).toBe(false);
  });

  it('runs one named job now for synchronous callers', async () => {
    const { engine } = open();
    engine.jobs.register('sync', async () => 42);
    await engine.jobs.enqueue('sync', {});
    const job = await engine.jobs.enqueue('sync', {});
    const ran = await engine.jobs.runNow(job.id);
    expect(ran).toMatchObject({ id: job.id, status: 'succeeded', result: 42 });
  });

  it('calls onFailed once, with the failed job, when the last attempt throws', async () => {
    const { engine } = open();
    const givenUp: { id: string; status: string; lastError: string | null }[] = [];
    engine.jobs.register('doomed', async () => {
      throw new Error('always');
    }, { maxAttempts: 1, onFailed: (job) => givenUp.push(job) });
    const job = await engine.jobs.enqueue('doomed', {});
    await engine.jobs.runDue();
    expect(givenUp).toMatchObject([{ id: job.id, status: 'failed', lastError: 'always' }]);
    await engine.jobs.drain();
    expect(givenUp).toHaveLength(1);
  });

  it('calls onFailed when it fails at claim time a job whose worker died on its last attempt, without running it', async () => {
    const t = open();
    const other = second(t);
    let release!: () => void;
    const stuck = new Promise<void>((r) => (release = r));
    t.engine.jobs.register('fragile', async () => stuck, { maxAttempts: 1, leaseMs: 30_000 });
    const givenUp: string[] = [];
    let ran = 0;
    other.jobs.register('fragile', async () => ran++, { maxAttempts: 1, leaseMs: 30_000, onFailed: (job) => givenUp.push(`${job.id} ${job.status}`) });
    const job = await t.engine.jobs.enqueue('fragile', {});
    const staleRun = t.engine.jobs.runDue();
    await vi.waitFor(async () => expect((await t.engine.jobs.get(job.id))!.status).toBe('running'));
    t.clock.advance(30_000);
    expect(await other.jobs.runDue()).toHaveLength(0);
    expect(givenUp).toEqual([`${job.id} failed`]);
    expect(ran).toBe(0);
    release();
    await staleRun;
  });

  it('does not call onFailed for a job that will be retried or that succeeds', async () => {
    const { engine, clock } = open();
    let calls = 0;
    const givenUp: string[] = [];
    engine.jobs.register('second-time-lucky', async () => {
      if (++calls === 1) throw new Error('first');
      return 'ok';
    }, { maxAttempts: 2, backoff: () => 1000, onFailed: (job) => givenUp.push(job.id) });
    const job = await engine.jobs.enqueue('second-time-lucky', {});
    await engine.jobs.runDue();
    clock.advance(1000);
    await engine.jobs.runDue();
    expect((await engine.jobs.get(job.id))!.status).toBe('succeeded');
    expect(givenUp).toEqual([]);
  });
});
