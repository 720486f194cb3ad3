import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { createEngine } from '../../engine.js';
import type { CrawlDetail } from '../../crawl/responses.js';

let web: LocalWeb;
let dir: string;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 2000 } });
  dir = mkdtempSync(join(tmpdir(), 'wvr-shared-'));
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const WORKER = fileURLToPath(new URL('../../crawl/resume.child.ts', import.meta.url));
const MAX_PAGES = 120;

describe('several processes on one data folder', () => {
  it('a crawl run by a worker process completes while this process writes to the same file without pause', async () => {
    const dbPath = join(dir, 'wvr.db');
    const engine = createEngine({ dbPath, allowPrivateNetwork: true, secret: 'test-secret' });
    const user = await engine.accounts.ensureUser({ email: 'shared@x.test' });
    await engine.credits.grant(user.id, 10_000);
    const principal = engine.accounts.localPrincipal(user);
    const crawl = (await engine.crawls.create(principal, { urls: [`${web.catalogue}/`], max_pages: MAX_PAGES, expansion: 'internal', link_extraction_config: { max_depth: 4 } })) as CrawlDetail;

    const worker = spawn(process.execPath, ['--import', 'tsx', WORKER, dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((resolve) => worker.on('exit', () => resolve()));
    let writes = 0;
    try {
      // What GET /v1/credits does (the monthly grant check is a write), back to back, as an API under load would.
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
        for (let i = 0; i < 5; i++, writes++) await engine.credits.balance(user.id);
        const now = await engine.crawls.get(principal, crawl.id);
        if (now.status !== 'pending' && now.status !== 'running') break;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    } finally {
      worker.kill('SIGKILL');
      await exited;
    }
    const done = await engine.crawls.get(principal, crawl.id);
    expect(writes).toBeGreaterThan(100);
    expect(done.error ?? null).toBeNull();
    expect(done).toMatchObject({ status: 'completed', stats: { pages_crawled: MAX_PAGES } });
    await engine.close();
  }, 90_000);
});
