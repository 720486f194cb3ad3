import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '@wvr/engine';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { api, invariants, kill, query, report, serve, sleep, type Proc } from './harness.js';

const SIZE_MB = 16;
/** What the filler leaves free: the crawl runs into the wall after some pages. */
const HEADROOM_BYTES = 2 * 1024 * 1024;
const MAX_PAGES = 300;

let web: LocalWeb;
let mountPoint: string;
let mounted = false;
let skipReason = '';
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 2000 } });
  mountPoint = mkdtempSync(join(tmpdir(), 'wvr-disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE_MB}m`, 'tmpfs', mountPoint], { stdio: 'pipe' });
    mounted = true;
  } catch (error) {
    skipReason = `cannot mount a ${SIZE_MB} MB tmpfs here (${(error as Error).message.split('\n')[0]}); the disk-full run needs mount permission (root)`;
  }
});
afterAll(async () => {
  await web.close();
  if (mounted) execFileSync('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

describe('a full disk under a running server', () => {
  it('answers 507 storage_full, never dies, and finishes the crawl once space returns', async (ctx) => {
    if (!mounted) {
      report('disk full', { skipped: skipReason });
      ctx.skip();
    }
    const data = join(mountPoint, 'data');
    mkdirSync(data);
    const setup = createEngine({ dataDir: data, allowPrivateNetwork: true });
    const user = await setup.accounts.ensureUser({ email: 'full@x.test' });
    await setup.credits.grant(user.id, 100_000);
    const token = (await setup.tokens.issue(user.id, { name: 'full', scopes: ['crawl'] })).token;
    await setup.close();

    let server: Proc & { url: string } | undefined;
    try {
      server = await serve(data);
      const { bavail, bsize } = statfsSync(mountPoint);
      const filler = join(mountPoint, 'filler');
      writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - HEADROOM_BYTES)));
      const crawl = await api<{ id: string }>(server.url, token, 'POST', '/v1/crawls', { urls: [`${web.catalogue}/`], max_pages: MAX_PAGES, expansion: 'internal', link_extraction_config: { max_depth: 4 } });
      expect(crawl.status).toBe(201);

      const statuses = new Map<number, number>();
      const pagesNow = () => query<{ n: number }>(data, 'SELECT pages_fetched AS n FROM crawls WHERE id = ?', crawl.body.id)[0]?.n ?? 0;
      let last = -1;
      let stalledSince = Date.now();
      let refused: { status: number; body: Record<string, unknown> } | undefined;
      // Write through the API until the disk is full and the crawl has stopped moving.
      for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(300)) {
        const probe = await api(server.url, token, 'POST', '/v1/crawls', { urls: Array.from({ length: 50 }, (_, i) => `${web.catalogue}/probe-${i}?${'p'.repeat(400)}`), max_pages: 50 });
        statuses.set(probe.status, (statuses.get(probe.status) ?? 0) + 1);
        if (probe.status === 507) refused ??= probe;
        const pages = pagesNow();
        if (pages !== last) [last, stalledSince] = [pages, Date.now()];
        if (refused && Date.now() - stalledSince > 3_000) break;
      }
      const atWall = pagesNow();
      const aliveWhenFull = server.child.exitCode === null && server.child.signalCode === null;
      rmSync(filler);
      const probeIds = query<{ id: string }>(data, "SELECT id FROM crawls WHERE id != ?", crawl.body.id).map((r) => r.id);
      for (const id of probeIds) await api(server.url, token, 'DELETE', `/v1/crawls/${id}`);
      let status = '';
      for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(500)) {
        status = query<{ status: string }>(data, 'SELECT status FROM crawls WHERE id = ?', crawl.body.id)[0]!.status;
        if (status !== 'running' && status !== 'pending') break;
      }
      const facts = invariants(data);
      report('disk full', {
        tmpfs_mb: SIZE_MB,
        pages_at_full_disk: atWall,
        api_statuses_while_full: Object.fromEntries(statuses),
        server_alive: aliveWhenFull && server.child.exitCode === null,
        crawl: status,
        pages: pagesNow(),
        duplicates: facts.duplicates,
      });
      expect(aliveWhenFull).toBe(true);
      expect(refused?.body).toMatchObject({ error: 'storage_full', code: 'storage_full' });
      expect([...statuses.keys()].filter((s) => s >= 500 && s !== 507)).toEqual([]);
      expect(atWall).toBeLessThan(MAX_PAGES);
      expect(status).toBe('completed');
      expect(pagesNow()).toBe(MAX_PAGES);
      expect(facts).toMatchObject({ duplicates: 0, chargedNotStored: 0 });
    } finally {
      if (server) await kill(server, 'SIGTERM');
    }
  }, 240_000);
});
