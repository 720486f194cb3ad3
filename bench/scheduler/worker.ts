/**
 * The scheduler under load, in its own process (so the local web's search endpoint in the
 * parent does not share its event loop): N active search workflows on a 1-minute interval,
 * the engine's scheduler loop started for a fixed wall-clock window, then every scheduled
 * execution started inside the window read back with its slot and start time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type SqliteStore } from '@wvr/engine';
import { sampleMemory, type MemoryReport } from '../lib/memory.js';
import { receiveConfig, sendResult } from '../lib/child.js';

export interface SchedulerConfig {
  searchOrigin: string;
  workflows: number;
  windowMs: number;
  tickMs: number;
  queries: string[];
}

export interface SchedulerWorkerResult {
  createMs: number;
  windowStartedAt: number;
  windowMs: number;
  /** null when scheduler.stop() had not returned after that long (the tick was still claiming). */
  stopReturnedWithinMs: number | null;
  executions: { slot: number; startedAt: number; finishedAt: number; status: string }[];
  memory: MemoryReport;
}

const config = await receiveConfig<SchedulerConfig>();
const dir = mkdtempSync(join(tmpdir(), 'wvr-bench-scheduler-'));
const engine = createEngine({
  dbPath: join(dir, 'wvr.db'),
  secret: 'bench',
  allowPrivateNetwork: true,
  searchProvider: 'searxng',
  searxngUrl: config.searchOrigin,
});
const user = await engine.accounts.ensureUser({ email: 'bench@x.test' });
await engine.credits.grant(user.id, config.workflows * 20);
const principal = engine.accounts.localPrincipal(user);

const memory = sampleMemory(200, 5_000);
const t0 = performance.now();
for (let i = 0; i < config.workflows; i++) {
  await engine.workflows.create(principal, {
    name: `bench patrol ${i}`,
    workflow_type: 'search',
    operation_config: { query: config.queries[i % config.queries.length]!, max_results: 10 },
    interval_minutes: 1,
    stop_condition: { type: 'always' },
  });
}
const createMs = performance.now() - t0;

const windowStartedAt = Date.now();
engine.workflows.scheduler.start(config.tickMs);
await new Promise((r) => setTimeout(r, config.windowMs));
const windowEndedAt = Date.now();
// stop() waits for the running tick, and a tick claims due slots until none is left: when the
// scheduler is behind, that is never. Give it a few seconds, then read and exit regardless.
const stopWaitMs = 5_000;
const stopped = await Promise.race([
  engine.workflows.scheduler.stop().then(() => true),
  new Promise<false>((r) => setTimeout(() => r(false), stopWaitMs)),
]);

const rows = (engine.context.store as SqliteStore).sqlite
  .prepare(`select slot, started_at as startedAt, finished_at as finishedAt, status from workflow_executions where "trigger" = 'schedule' and started_at < ?`)
  .all(new Date(windowEndedAt).toISOString()) as { slot: string; startedAt: string; finishedAt: string; status: string }[];
const result: SchedulerWorkerResult = {
  createMs: Math.round(createMs),
  windowStartedAt,
  windowMs: windowEndedAt - windowStartedAt,
  stopReturnedWithinMs: stopped ? stopWaitMs : null,
  executions: rows.map((r) => ({ slot: Date.parse(r.slot), startedAt: Date.parse(r.startedAt), finishedAt: Date.parse(r.finishedAt), status: r.status })),
  memory: memory.stop(),
};
if (stopped) await engine.close();
rmSync(dir, { recursive: true, force: true });
await sendResult(result);
