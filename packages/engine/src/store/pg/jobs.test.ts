import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, systemClock } from '../../core/clock.js';
import { cryptoRandom, seededRandom } from '../../core/ids.js';
import { PgExecutor } from './executor.js';
import { StoreJobQueue } from '../../jobs/store-queue.js';
import { pgJobsStore, usePostgres } from './testing.js';

const WORKER = fileURLToPath(new URL('./worker.fixture.ts', import.meta.url));

const store = usePostgres('jobs', { max: 8 });
const children: ChildProcess[] = [];

beforeAll(async () => {
  // No unique key on purpose: a job whose effect landed twice shows up as two rows.
  await store.pool.query('CREATE TABLE job_effects (job_id text NOT NULL, worker text NOT NULL)');
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}, 60_000);

/** A worker process; `wedged` settles with the first job it holds that hangs (with `stallAfter`), listened for from its start. */
async function startWorker(leaseMs: number, pollMs: number, stallAfter?: number): Promise<{ child: ChildProcess; owner: string; wedged: Promise<string> }> {
  const args = ['jobs', store.url, String(leaseMs), String(pollMs), ...(stallAfter === undefined ? [] : [String(stallAfter)])];
  const child = fork(WORKER, args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  const heard = (key: 'ready' | 'wedged') => new Promise<string>((resolve) => child.on('message', (message: Record<string, string>) => message[key] && resolve(message[key])));
  const wedged = heard('wedged');
  return { child, owner: await heard('ready'), wedged };
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.send('stop');
  await exited;
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not reached within ${ms} ms`);
    await sleep(100);
  }
}

const count = async (sql: string, params: unknown[] = []) => Number((await store.pool.query<{ n: string }>(sql, params)).rows[0]!.n);

describe('the job queue on PostgreSQL, across processes', () => {
  it('runs 4,000 jobs on 4 worker processes, one killed by SIGKILL mid-run: every job done exactly once', async () => {
    // The jobs are queued before the workers start, so the victim is killed with work still waiting
    // (workers as fast as a loaded machine's enqueue could otherwise empty the queue as it fills).
    const producer = new StoreJobQueue({ store: pgJobsStore(new PgExecutor(store.pool)), clock: systemClock, random: cryptoRandom });
    const total = 4_000;
    for (let start = 0; start < total; start += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => producer.enqueue('work', { n: start + i })));
    }
    // The victim wedges after 100 jobs: the jobs it takes from then on hang, and it is killed once it says it holds one
    // (a healthy worker between two claims holds nothing, and killing it then would show no takeover). Its leases are
    // long, so that a renewal late on a loaded machine does not hand its jobs to another worker before the kill. CI
    // once found it holding none when it was killed as soon as the jobs table showed it holding some: those could be
    // the last jobs it ran before wedging, or hung ones whose 1.5 s leases (the others' still) had run out.
    const workers = await Promise.all(
      [{ leaseMs: 6_000, stallAfter: 100 }, { leaseMs: 1_500 }, { leaseMs: 1_500 }, { leaseMs: 1_500 }].map(({ leaseMs, stallAfter }) => startWorker(leaseMs, 250, stallAfter)),
    );
    const victim = workers[0]!;
    await victim.wedged;
    victim.child.kill('SIGKILL');
    await once(victim.child, 'exit');
    const heldByVictim = await count(`SELECT count(*) AS n FROM jobs WHERE owner = $1 AND status = 'running'`, [victim.owner]);

    await waitFor(async () => (await count(`SELECT count(*) AS n FROM jobs WHERE status = 'succeeded'`)) === total, 200_000);
    await Promise.all(workers.slice(1).map((w) => stopWorker(w.child)));

    expect(await count('SELECT count(*) AS n FROM job_effects')).toBe(total);
    expect(await count('SELECT count(DISTINCT job_id) AS n FROM job_effects')).toBe(total);
    expect(await count(`SELECT count(*) AS n FROM jobs WHERE status <> 'succeeded'`)).toBe(0);
    // The killed worker held jobs when it died; their leases ran out and others finished them.
    expect(heldByVictim).toBeGreaterThan(0);
    expect(await count('SELECT count(*) AS n FROM jobs WHERE attempts > 1')).toBeGreaterThanOrEqual(heldByVictim);
    // Every live worker took part.
    for (const w of workers) expect(await count('SELECT count(*) AS n FROM job_effects WHERE worker = $1', [w.owner])).toBeGreaterThan(0);
  }, 300_000);

  it('wakes an idle worker by NOTIFY, long before its next poll', async () => {
    const { child } = await startWorker(60_000, 120_000);
    // Give the worker's first (empty) poll and its LISTEN time to happen.
    await sleep(1_000);
    const producer = new StoreJobQueue({ store: pgJobsStore(new PgExecutor(store.pool)), clock: systemClock, random: cryptoRandom });
    const job = await producer.enqueue('work', { n: 1 });
    await waitFor(async () => (await producer.get(job.id))?.status === 'succeeded', 10_000);
    await stopWorker(child);
  }, 60_000);
});

describe('the job queue on PostgreSQL, in one process', () => {
  let seq = 0;
  const queueOn = (clock = manualClock()) => new StoreJobQueue({ store: pgJobsStore(new PgExecutor(store.pool)), clock, random: seededRandom(++seq) });

  it('claims a job once between two queues racing for it (SKIP LOCKED)', async () => {
    const clock = manualClock();
    const a = queueOn(clock);
    const b = queueOn(clock);
    let runs = 0;
    for (const q of [a, b]) q.register('race', async () => void runs++);
    const jobs = await Promise.all(Array.from({ length: 20 }, (_, i) => a.enqueue('race', { i })));
    await Promise.all([a.drain({ kinds: ['race'] }), b.drain({ kinds: ['race'] })]);
    expect(runs).toBe(20);
    for (const job of jobs) expect((await a.get(job.id))?.status).toBe('succeeded');
  });

  it('gives a stalled worker’s job to another once its lease passes; the stalled one cannot complete it', async () => {
    const clock = manualClock();
    const stalled = queueOn(clock);
    const other = queueOn(clock);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let lostSignal = false;
    stalled.register('slow', async (ctx) => {
      await gate;
      lostSignal = !(await ctx.heartbeat());
      await ctx.complete(async () => 'stalled');
    }, { leaseMs: 1_000 });
    other.register('slow', async (ctx) => ctx.complete(async () => 'other'), { leaseMs: 1_000 });
    const job = await stalled.enqueue('slow', {});
    const first = stalled.runNow(job.id);
    await sleep(50);
    // Renewals run on a real timer but stamp the engine clock: jumping it past the lease makes the job due.
    clock.advance(5_000);
    const [taken] = await other.runDue({ kinds: ['slow'] });
    expect(taken?.status).toBe('succeeded');
    release();
    await first;
    expect(lostSignal).toBe(true);
    const final = await other.get(job.id);
    expect(final?.result).toBe('other');
    expect(final?.attempts).toBe(2);
  });

  it('cancels a running job through its owner’s signal, and a queued one at once', async () => {
    const q = queueOn();
    let aborted = false;
    q.register('long', async (ctx) => {
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted = true;
    });
    const running = await q.enqueue('long', {});
    const done = q.runNow(running.id);
    await sleep(50);
    expect(await q.cancel(running.id)).toBe(true);
    expect((await done)?.status).toBe('cancelled');
    expect(aborted).toBe(true);
    const queued = await q.enqueue('long', {}, { runAt: Date.now() + 3_600_000 });
    expect(await q.cancel(queued.id)).toBe(true);
    expect((await q.get(queued.id))?.status).toBe('cancelled');
    expect(await q.cancel(queued.id)).toBe(false);
  });

  it('retries a failing job with backoff, then fails it and tells onFailed once', async () => {
    const clock = manualClock();
    const q = queueOn(clock);
    const failed: string[] = [];
    q.register('flaky', async () => {
      throw new Error('nope');
    }, { maxAttempts: 2, backoff: () => 1_000, onFailed: (job) => void failed.push(job.id) });
    const job = await q.enqueue('flaky', {});
    expect((await q.runNow(job.id))?.status).toBe('queued');
    expect(await q.runDue({ kinds: ['flaky'] })).toEqual([]);
    clock.advance(1_000);
    const [again] = await q.runDue({ kinds: ['flaky'] });
    expect(again?.status).toBe('failed');
    expect(again?.lastError).toBe('nope');
    expect(failed).toEqual([job.id]);
  });

  it('enqueues inside the caller’s transaction: rolled back, the job never existed', async () => {
    const jobs = pgJobsStore(new PgExecutor(store.pool));
    const q = new StoreJobQueue({ store: jobs, clock: manualClock(), random: seededRandom(++seq) });
    let id = '';
    await expect(
      jobs.atomically(async () => {
        id = (await q.enqueue('outbox', {})).id;
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('changed its mind');
    expect(id).not.toBe('');
    expect(await q.get(id)).toBeUndefined();
  });
});
