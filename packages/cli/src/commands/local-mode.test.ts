import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import type { components } from '@wvr/sdk';
import { runCli, serveCli } from '../testing.js';

type CrawlDetail = components['schemas']['CrawlDetail'];
type Credits = components['schemas']['CreditsSummary'];

let web: LocalWeb;
const folders: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'wvr-local-mode-'));
  folders.push(dir);
  return dir;
};
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 400, articles: 30 } });
});
afterAll(async () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  await web.close();
});

const json = <T>(stdout: string) => JSON.parse(stdout) as T;

/** A loopback port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the local account is not metered', { timeout: 600_000 }, () => {
  it('crawls 150 pages on a fresh data folder with no credits command first, and records the use in the ledger', async () => {
    const data = fresh();
    const crawl = await runCli(['--data', data, 'crawl', `${web.catalogue}/`, '--max-pages', '150', '--max-depth', '3', '--expansion', 'internal', '--json']);
    expect(crawl.stderr).not.toMatch(/error/);
    expect(crawl.code).toBe(0);
    const detail = json<CrawlDetail>(crawl.stdout);
    expect(detail.status).toBe('completed');
    expect(detail.stats.pages_crawled).toBe(150);

    const credits = json<Credits>((await runCli(['--data', data, 'credits', '--json'])).stdout);
    expect(credits.plan).toBe('local');
    // The free grant would have been 100; the local account used 150 and the ledger says so.
    expect(credits.balance).toBe(-detail.stats.credits_used);
    expect(credits.recent.map((e) => e.kind)).toContain('reserve');
    expect((await runCli(['--data', data, 'credits'])).stdout).toMatch(/Plan: local .*not limited by its balance/);
  });

  it('still answers 402 to a server account over its balance, with suggestions in flags', async () => {
    const data = fresh();
    const token = json<{ token: string }>((await runCli(['--data', data, 'tokens', 'create', '--user', 'buyer@x.test', '--json'])).stdout).token;
    const { server, url } = await serveCli(data);
    try {
      const refused = await runCli(['--remote', url, '--token', token, 'crawl', `${web.catalogue}/`, '--max-pages', '150', '--wait']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('(insufficient_credits)');
      expect(refused.stderr).toContain('--dry-run');
      expect(refused.stderr).not.toMatch(/\/v1\//);
    } finally {
      server.kill('SIGTERM');
    }
  });
});

describe('a crawl says how far it goes and why it ended', { timeout: 300_000 }, () => {
  it('follows links when more than one page is asked for, and says so', async () => {
    const data = fresh();
    const crawl = await runCli(['--data', data, 'crawl', `${web.catalogue}/`, '--max-pages', '6', '--json']);
    expect(crawl.code).toBe(0);
    expect(crawl.stderr).toContain('--expansion internal, implied by --max-pages');
    const detail = json<CrawlDetail>(crawl.stdout);
    expect(detail.stats.pages_crawled).toBe(6);
    expect(detail.configuration.expansion).toBe('internal');
  });

  it('names the depth limit and the flag that raises it when a crawl ends under its budget', async () => {
    const data = fresh();
    const crawl = await runCli(['--data', data, 'crawl', `${web.news}/`, '--max-pages', '600', '--max-depth', '1', '--expansion', 'internal']);
    expect(crawl.code).toBe(0);
    expect(crawl.stderr).toMatch(/Ended at \d+ of 600 pages: pages at the depth limit \(1\) link further; raise --max-depth/);
    // Progress lines and notes go to stderr; stdout holds only the result.
    expect(crawl.stdout).not.toMatch(/pages\/s/);
  });

  it('reports an unreachable --remote as connection_failed naming the URL', async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const human = await runCli(['--remote', down, '--token', 'wvr_x', 'credits']);
    expect(human.code).toBe(1);
    expect(human.stderr).toContain(`error: Could not connect to the wvr server at ${down} (ECONNREFUSED). (connection_failed)`);
    const machine = await runCli(['--remote', down, '--token', 'wvr_x', 'credits', '--json']);
    expect(json<{ error: string; code: string }>(machine.stderr)).toMatchObject({ error: 'connection_failed', code: 'connection_failed' });
  });
});
