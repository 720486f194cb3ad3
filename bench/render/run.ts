/**
 * bench/render: rendered pages per second and peak memory of the rendering tier with 1, 2 and 4
 * browser contexts, over the local web's applications (client-side routing, JSON data, infinite
 * scroll), next to the static fetch of the same pages in the same run.
 *
 *   npx tsx bench/render/run.ts [rounds=1]
 *
 * Memory is the resident size of the whole process tree (node and every Chromium process under
 * it), read from /proc every 500 ms: the browser's memory lives in its own processes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createEngine, type FetchRequest } from '@wvr/engine';
import { startLocalWeb } from '@wvr/testkit';
import { machine, writeResult } from '../lib/results.js';

const rounds = Number(process.argv[2] ?? 1);

function treeRssMb(root: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 50; p = parents.get(p) ?? 0, hops++) if (p === root) return true;
    return false;
  };
  let kb = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Gone.
    }
  }
  return Math.round(kb / 102.4) / 10;
}

const web = await startLocalWeb({ sizes: { products: 10, articles: 3, docsDepth: 1 } });
const urls = web.appsTruth().pages.map((p) => web.apps + p.path);

async function run(label: string, contexts: number, render: FetchRequest['render']) {
  const engine = createEngine({ dbPath: ':memory:', allowPrivateNetwork: true, secret: 'bench', render: { maxContexts: contexts, memoryBudgetMb: 8192 }, fetchLimits: { perHostConcurrency: 8 } });
  let peak = treeRssMb(process.pid);
  // Reading /proc costs milliseconds on a busy machine: sampled twice a second so the sampling does not slow the pages.
  const timer = setInterval(() => (peak = Math.max(peak, treeRssMb(process.pid))), 500);
  // Warm-up: the browser launch is paid once per engine, not per page.
  if (render !== 'never') await engine.web.fetch({ url: urls[0]!, render });
  const started = performance.now();
  let pages = 0;
  let rendered = 0;
  for (let round = 0; round < rounds; round++) {
    const results = await Promise.all(urls.map((url) => engine.web.fetch({ url, render })));
    pages += results.length;
    rendered += results.filter((r) => r.rendering?.rendered).length;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, treeRssMb(process.pid));
  const stats = engine.web.renderStats();
  await engine.close();
  const row = { label, contexts, slots: stats.slots, pages, rendered, seconds: Math.round(seconds * 100) / 100, pagesPerSecond: Math.round((pages / seconds) * 100) / 100, peakTreeRssMb: peak, loadAverage1m: Math.round(loadavg()[0]! * 100) / 100, requestsForwarded: stats.requests_forwarded };
  console.log(JSON.stringify(row));
  return row;
}

const results = [await run('static (render never)', 0, 'never')];
for (const contexts of [1, 2, 4]) results.push(await run(`rendered, ${contexts} context(s)`, contexts, 'always'));
await web.close();
const file = writeResult('render', { machine: machine(), pagesPerRound: urls.length, rounds, results });
console.log(`\n| run | contexts | pages | pages/s | peak RSS (node + Chromium) | load 1m |\n|---|---|---|---|---|---|`);
for (const r of results) console.log(`| ${r.label} | ${r.slots || '-'} | ${r.pages} | ${r.pagesPerSecond} | ${r.peakTreeRssMb} MB | ${r.loadAverage1m} |`);
console.log(`\n${file}`);
