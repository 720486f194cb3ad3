import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '@wvr/engine';
import { startLocalWeb } from '@wvr/testkit';
import { percentile } from '../lib/results.js';

const CLI = fileURLToPath(new URL('../../packages/cli/src/bin.ts', import.meta.url));

export interface LoadOptions {
  /** Concurrent API clients. */
  concurrency: number;
  /** Seconds of each phase: idle, then during a crawl. */
  seconds: number;
  /** max_pages of the crawl that runs in the second phase (at most 1000). */
  pages: number;
}

export interface PhaseFigures {
  requests: number;
  /** Answers other than 200 (a 429 would mean the rate limit, not the server, was measured). */
  errors: number;
  p50: number;
  p99: number;
  max: number;
  /** Load average (1 min) when the phase ended. */
  load: number;
}

export interface LoadFigures {
  idle: PhaseFigures;
  crawling: PhaseFigures & { pagesCrawled: number };
  /** p99 during the crawl over p99 idle: the issue's target is at most 2. */
  p99Ratio: number;
}

/**
 * A bounded load run: `wvr serve` (API and worker in one process, as users run it) on a fresh data
 * folder; `concurrency` clients call GET /v1/credits (a short IMMEDIATE write transaction, so it
 * feels both event-loop stalls and write-lock waits) for `seconds` while the server is idle, then for
 * `seconds` while it crawls the local catalogue. Latency is measured by the client, end to end.
 */
export async function apiLoad(options: LoadOptions): Promise<LoadFigures> {
  const web = await startLocalWeb({ sizes: { products: Math.max(2000, options.pages * 2) } });
  const data = mkdtempSync(join(tmpdir(), 'wvr-bench-api-'));
  let server: ChildProcess | undefined;
  try {
    // One pro account per client: the plan's hourly rate limit stays out of the measurement.
    const setup = createEngine({ dataDir: data, allowPrivateNetwork: true });
    const tokens: string[] = [];
    for (let i = 0; i < options.concurrency; i++) {
      const user = await setup.accounts.ensureUser({ email: `bench-${i}@x.test`, plan: 'pro' });
      await setup.credits.grant(user.id, 1_000_000);
      tokens.push((await setup.tokens.issue(user.id, { name: 'bench', scopes: ['crawl'] })).token);
    }
    const token = tokens[0]!;
    await setup.close();
    server = spawn(process.execPath, ['--import', 'tsx', CLI, '--data', data, '--json', 'serve', '--port', '0'], {
      env: { ...process.env, WVR_ALLOW_PRIVATE_NETWORK: '1', WVR_API_URL: '', WVR_API_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const base = await new Promise<string>((resolve, reject) => {
      let out = '';
      server!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.includes('"url"'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      server!.once('exit', (code) => reject(new Error(`wvr serve exited with ${code}`)));
    });
    const headers = { authorization: `Bearer ${token}` };
    const phase = async (seconds: number): Promise<PhaseFigures> => {
      const times: number[] = [];
      let errors = 0;
      const until = Date.now() + seconds * 1000;
      await Promise.all(
        tokens.map(async (own) => {
          while (Date.now() < until) {
            const started = performance.now();
            const res = await fetch(`${base}/v1/credits`, { headers: { authorization: `Bearer ${own}` } }).catch(() => undefined);
            await res?.arrayBuffer();
            times.push(performance.now() - started);
            if (!res || res.status !== 200) errors++;
          }
        }),
      );
      times.sort((a, b) => a - b);
      const ms = (v: number) => Math.round(v * 10) / 10;
      return { requests: times.length, errors, p50: ms(percentile(times, 50)), p99: ms(percentile(times, 99)), max: ms(times[times.length - 1] ?? NaN), load: Math.round(loadavg()[0]! * 100) / 100 };
    };
    // Warm-up: the first requests pay for lazy compilation, in both phases' favour equally after this.
    await phase(Math.min(2, options.seconds));
    const idle = await phase(options.seconds);
    const created = await fetch(`${base}/v1/crawls`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [`${web.catalogue}/`], max_pages: options.pages, expansion: 'internal', link_extraction_config: { max_depth: 4 } }),
    });
    const crawl = (await created.json()) as { id: string };
    const during = await phase(options.seconds);
    const progress = (await (await fetch(`${base}/v1/crawls/${crawl.id}?documents=none`, { headers })).json()) as { stats?: { pages_crawled?: number } };
    return { idle, crawling: { ...during, pagesCrawled: progress.stats?.pages_crawled ?? 0 }, p99Ratio: Math.round((during.p99 / idle.p99) * 100) / 100 };
  } finally {
    server?.kill('SIGTERM');
    if (server && server.exitCode === null) await new Promise((resolve) => server!.once('exit', resolve));
    await web.close();
    rmSync(data, { recursive: true, force: true });
  }
}
