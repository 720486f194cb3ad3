/**
 * bench/scheduler: N active search workflows on a 1-minute interval against the local web's
 * SearXNG-compatible search endpoint; the engine's scheduler runs them for a fixed window.
 * Reports scheduling lateness (execution start minus its slot) p50 / p99 / max and
 * executions per second, for the first round (every workflow is due at once when created)
 * and for the rounds after it (the steady state).
 *
 *   pnpm --filter @wvr/bench bench:scheduler [-- workflows=10000 window=150 tick=1000 profile=1]
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalWeb } from '@wvr/testkit';
import { buildEntry } from '../lib/build.js';
import { runWorker } from '../lib/child.js';
import { machine, percentile, resultsDir, writeResult } from '../lib/results.js';
import type { SchedulerConfig, SchedulerWorkerResult } from './worker.js';
import type { SearchCeilingConfig } from './search-ceiling.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const workflows = Number(args.workflows ?? 10_000);
const windowMs = Number(args.window ?? 150) * 1000;
const tickMs = Number(args.tick ?? 1_000);
const profile = args.profile === '1';
const here = dirname(fileURLToPath(import.meta.url));

const web = await startLocalWeb({ seed: 1 });
// Two keywords of a category per query: every query has matches, and they vary.
const queries = web.truth.categories.flatMap((c) => c.keywords.map((k, i) => `${k} ${c.keywords[(i + 3) % c.keywords.length]}`));
const config: SchedulerConfig = { searchOrigin: web.search, workflows, windowMs, tickMs, queries };
console.log(`${workflows} workflows every minute against ${web.search}, window ${windowMs / 1000} s, scheduler tick ${tickMs} ms`);

const file = await buildEntry(join(here, 'worker.ts'));
const execArgv = profile ? ['--cpu-prof', `--cpu-prof-dir=${join(resultsDir, 'profiles')}`, `--cpu-prof-name=scheduler-${Date.now()}.cpuprofile`] : [];
const worker = await runWorker<SchedulerConfig, SchedulerWorkerResult>(file, config, execArgv);
const searchRequests = web.requests.filter((r) => r.path.startsWith('/search')).length;
// The endpoint's own capacity, so the scheduler's rate can be read against it.
const searchCeiling = await runWorker<SearchCeilingConfig, Record<string, number>>(await buildEntry(join(here, 'search-ceiling.ts')), {
  searchOrigin: web.search,
  queries,
  requests: 2_000,
  concurrencies: [1, 8],
});
await web.close();

const stats = (rows: SchedulerWorkerResult['executions'], spanMs: number) => {
  const lateness = rows.map((e) => e.startedAt - e.slot).sort((a, b) => a - b);
  return {
    executions: rows.length,
    failed: rows.filter((e) => e.status !== 'completed').length,
    latenessMs: { p50: percentile(lateness, 50), p99: percentile(lateness, 99), max: lateness.at(-1) ?? null },
    executionsPerSecond: Math.round((rows.length / (spanMs / 1000)) * 10) / 10,
  };
};
const all = worker.executions;
// Slots before the window opened are the creation backlog: every workflow is due at once when created.
const firstRound = all.filter((e) => e.slot < worker.windowStartedAt);
const later = all.filter((e) => e.slot >= worker.windowStartedAt);
const durations = all.map((e) => e.finishedAt - e.startedAt).sort((a, b) => a - b);
const summary = {
  all: stats(all, worker.windowMs),
  firstRound: stats(firstRound, worker.windowMs),
  steadyState: stats(later, worker.windowMs),
  executionMs: { p50: percentile(durations, 50), p99: percentile(durations, 99) },
  neededExecutionsPerSecond: Math.round((workflows / 60) * 10) / 10,
  createWorkflowsMs: worker.createMs,
  stopReturnedWithinMs: worker.stopReturnedWithinMs,
  searchRequests,
  searchEndpointRequestsPerSecond: searchCeiling,
  peakRssMb: worker.memory.peakRssMb,
};
console.log(JSON.stringify(summary, null, 2));
const out = writeResult('scheduler', { benchmark: 'scheduler', machine: machine(), workflows, windowMs: worker.windowMs, tickMs, summary, memory: worker.memory });
console.log(`written ${out}`);
