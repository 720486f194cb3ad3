/**
 * bench/map: one map of a 50,000-URL site (a sitemap index of 50 sitemaps, every fifth gzipped,
 * every entry with its lastmod) through the engine's `map.site` operation, beside the ceiling in
 * the same process: a raw loop that fetches the same sitemap files 8 at once, gunzips them and
 * counts their `<loc>` elements, normalising and checking nothing.
 *
 *   npx tsx bench/map/run.ts [urls=50000] [rounds=3]
 *
 * The site is the local web's bulk sitemap site on 127.0.0.1, served from this process.
 */
import { gunzipSync } from 'node:zlib';
import { loadavg } from 'node:os';
import { createEngine } from '@wvr/engine';
import { startLocalWeb } from '@wvr/testkit';
import { machine, writeResult } from '../lib/results.js';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const urls = Number(args.urls ?? 50_000);
const rounds = Number(args.rounds ?? 3);

const web = await startLocalWeb({ sizes: { products: 1, articles: 1, docsDepth: 1 }, sitemaps: { bulkUrls: urls } });
const site = `${web.sitemaps}/`;

/** The ceiling: every sitemap file fetched and its entries counted, nothing else. */
async function raw(): Promise<number> {
  const text = async (url: string) => {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    return (url.endsWith('.gz') ? gunzipSync(body) : body).toString('utf8');
  };
  const robots = await text(`${web.sitemaps}/robots.txt`);
  const index = await text(/Sitemap:\s*(\S+)/.exec(robots)![1]!);
  const parts = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  let found = 0;
  for (let i = 0; i < parts.length; i += 8) {
    const bodies = await Promise.all(parts.slice(i, i + 8).map(text));
    for (const body of bodies) found += body.split('<loc>').length - 1;
  }
  return found;
}

const engine = createEngine({ dbPath: ':memory:', allowPrivateNetwork: true, secret: 'bench' });

async function wvr(): Promise<number> {
  const result = await engine.ops.map.site({ url: site, limit: 100_000 });
  return result.urls.length;
}

const rows: { contender: string; round: number; urls: number; seconds: number; urlsPerSecond: number; cpuMs: number }[] = [];
for (let round = 1; round <= rounds; round++) {
  for (const [contender, run] of [['raw', raw], ['wvr', wvr]] as const) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const found = await run();
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    rows.push({ contender, round, urls: found, seconds: +seconds.toFixed(3), urlsPerSecond: Math.round(found / seconds), cpuMs: Math.round((used.user + used.system) / 1000) });
    console.log(JSON.stringify(rows.at(-1)));
  }
}

const best = (contender: string) => rows.filter((r) => r.contender === contender).sort((a, b) => a.seconds - b.seconds)[0]!;
const [r, w] = [best('raw'), best('wvr')];
console.log(`\n| contender | URLs | best of ${rounds} (s) | URLs/s | CPU (ms) |\n|---|---:|---:|---:|---:|`);
for (const row of [r, w]) console.log(`| ${row.contender} | ${row.urls} | ${row.seconds} | ${row.urlsPerSecond} | ${row.cpuMs} |`);
console.log(`\nwvr takes ${(w.seconds / r.seconds).toFixed(2)}× the raw loop's time; load average ${loadavg()[0]!.toFixed(2)}`);
console.log(writeResult('map', { machine: machine(), urls, rounds, rows, loadAverage1m: loadavg()[0] }));

await engine.close();
await web.close();
