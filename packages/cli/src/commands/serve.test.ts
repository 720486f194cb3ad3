import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createEngine, type Engine } from '@wvr/engine';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { spawnCli } from '../testing.js';

let data: string;
let web: LocalWeb;
beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'wvr-worker-'));
  web = await startLocalWeb();
});
afterAll(async () => {
  await web.close();
  rmSync(data, { recursive: true, force: true });
});

async function until<T>(what: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('wvr worker', () => {
  it('runs a crawl queued by another process on the same data folder, and stops on SIGTERM', async () => {
    const engine: Engine = createEngine({ dataDir: data, allowPrivateNetwork: true });
    const principal = engine.accounts.localPrincipal(await engine.accounts.ensureUser({ email: 'queue@x.test' }));
    const crawl = await engine.crawls.create(principal, { urls: [`${web.docs}/docs`], max_pages: 3, expansion: 'internal' });
    if (!('id' in crawl)) throw new Error('expected a crawl job, not a dry run');
    expect(crawl).toMatchObject({ status: 'pending' });

    const worker = spawnCli(['--data', data, 'worker'], { WVR_ALLOW_PRIVATE_NETWORK: '1' });
    try {
      const done = await until(async () => {
        const now = await engine.crawls.get(principal, crawl.id);
        return now.status === 'completed' || now.status === 'failed' ? now : undefined;
      });
      expect(done).toMatchObject({ status: 'completed', stats: { credits_used: 3 } });
      expect(done.documents).toHaveLength(3);
    } finally {
      worker.kill('SIGTERM');
      const [code] = await once(worker, 'exit');
      expect(code).toBe(0);
      await engine.close();
    }
  });
});
