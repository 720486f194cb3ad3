/**
 * wvr as a user runs it: `wvr --json crawl SEED --max-pages N --max-depth D --expansion internal --concurrency C`
 * on the local engine (a temp data folder), as its own process. That process's peak RSS is the
 * kernel's high-water mark, written at exit by a preloaded module; its stdout (the finished crawl
 * as JSON) is read back here for the page counts. It sends as many requests to the site at a time as the
 * other contenders (`--concurrency`, as a user crawling a site of their own passes it); the rest are the CLI's
 * defaults.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runContender, tempFolder } from './protocol.js';

const PEAK = `process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.WVR_BENCH_PEAK, JSON.stringify({ rss: u.maxRSS * 1024, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, minorFaults: u.minorPageFault, writtenMb: (() => { try { return Number(/wchar: (\\d+)/.exec(require('node:fs').readFileSync('/proc/self/io', 'utf8'))[1]) / 1e6; } catch { return null; } })() })); });\n`;

await runContender('wvr CLI (wvr --json crawl)', async ({ seeds, pages, maxDepth, concurrency, cli }) => {
  if (!cli) throw new Error('the wvr-cli contender needs the built CLI');
  const dir = tempFolder('wvr-bench-cli-');
  const preload = join(dir, 'peak.cjs');
  writeFileSync(preload, PEAK);
  const peakFile = join(dir, 'peak');
  const user = ['--data', join(dir, 'data'), '--user', 'bench@x.test'];
  // A new local account holds 100 credits: grant the crawl's worth first, as a user would.
  execFileSync(process.execPath, [cli, ...user, 'credits', 'grant', '--amount', String(pages * 2)], { stdio: 'ignore' });
  const args = ['--require', preload, cli, '--json', ...user, 'crawl', seeds[0]!, '--max-pages', String(pages), '--max-depth', String(maxDepth ?? 3), '--expansion', 'internal', '--concurrency', String(concurrency)];
  // The clock starts with the crawl's process: a user waits for its start-up, not for the grant above.
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, WVR_BENCH_PEAK: peakFile }, stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const elapsedMs = performance.now() - started;
  const out = Buffer.concat(chunks);
  if (code !== 0) throw new Error(`wvr crawl exited with ${code}: ${out.toString().slice(0, 500)}`);
  const crawl = JSON.parse(out.toString()) as { status: string; stats: { pages_crawled: number; pages_failed: number; pages_skipped: number } };
  const peak = JSON.parse(readFileSync(peakFile, 'utf8')) as { rss: number; cpuMs: number; minorFaults: number; writtenMb: number | null };
  const cliPeakRssMb = Math.round((peak.rss / 1024 / 1024) * 10) / 10;
  return {
    pages: crawl.stats.pages_crawled,
    failed: crawl.stats.pages_failed,
    peakRssMb: cliPeakRssMb,
    cpuMs: peak.cpuMs,
    minorFaults: peak.minorFaults,
    writtenMb: peak.writtenMb,
    elapsedMs,
    notes: { status: crawl.status, skipped: crawl.stats.pages_skipped, stdoutBytes: out.length },
  };
});
