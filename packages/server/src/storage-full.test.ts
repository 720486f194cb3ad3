import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine, type SqliteStore } from '@wvr/engine';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import type { FastifyInstance } from 'fastify';
import { createServer } from './app.js';

let web: LocalWeb;
let dir: string;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { articles: 40 } });
  dir = mkdtempSync(join(tmpdir(), 'wvr-full-'));
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * SQLite's max_page_count caps the file where it stands: every write that needs a new page fails with
 * the same SQLITE_FULL a full disk gives, without needing a small filesystem (the reliability suite
 * runs the real thing on a tmpfs where mounting is permitted). Lifting the cap is space coming back.
 */
/** This engine's own connection: max_page_count holds for the connection that sets it. */
const sqliteOf = (engine: Engine) => (engine.context.store as SqliteStore).sqlite;

function fill(engine: Engine): void {
  const sqlite = sqliteOf(engine);
  sqlite.exec('CREATE TABLE IF NOT EXISTS test_filler (blob BLOB)');
  const pages = sqlite.pragma('page_count', { simple: true }) as number;
  sqlite.pragma(`max_page_count = ${pages}`);
  // The free pages the file already has are used up too, as on a disk with nothing left.
  const insert = sqlite.prepare('INSERT INTO test_filler (blob) VALUES (zeroblob(?))');
  for (const size of [65_536, 4_096, 512, 64]) {
    try {
      for (;;) insert.run(size);
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_FULL') throw error;
    }
  }
}
function free(engine: Engine): void {
  sqliteOf(engine).exec('DROP TABLE IF EXISTS test_filler');
  sqliteOf(engine).pragma('max_page_count = 1073741823');
}

describe('a full disk', () => {
  let engine: Engine;
  let app: FastifyInstance;
  afterAll(async () => {
    await app?.close();
    await engine?.close();
  });

  it('answers writes with 507 storage_full, keeps the worker alive, and resumes the crawl when space returns', async () => {
    engine = createEngine({ dbPath: join(dir, 'wvr.db'), allowPrivateNetwork: true, secret: 'test' });
    app = await createServer({ engine });
    const user = await engine.accounts.ensureUser({ email: 'full@x.test' });
    await engine.credits.grant(user.id, 1_000);
    const token = (await engine.tokens.issue(user.id, { name: 'test', scopes: ['crawl', 'search'] })).token;
    const auth = { authorization: `Bearer ${token}` };
    const created = await app.inject({ method: 'POST', url: '/v1/crawls', headers: auth, payload: { urls: [`${web.news}/`], max_pages: 20, expansion: 'internal' } });
    expect(created.statusCode).toBe(201);
    const crawlId = created.json().id as string;

    fill(engine);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      engine.start({ jobPollMs: 20, concurrency: 2 });
      // A hundred long seeds: more than the room left in the pages the file has.
      const seeds = Array.from({ length: 100 }, (_, i) => `${web.news}/seed-${i}?${'q'.repeat(300)}`);
      const refused = await app.inject({ method: 'POST', url: '/v1/crawls', headers: auth, payload: { urls: seeds, max_pages: 200 } });
      expect(refused.statusCode).toBe(507);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.json()).toMatchObject({ error: 'storage_full', code: 'storage_full' });
      expect(refused.json().message).toMatch(/disk space/);
      // Reads still answer.
      expect((await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}`, headers: auth })).statusCode).toBe(200);
      // The worker keeps trying and backing off; the process is alive and the crawl is not failed.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const stuck = (await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}`, headers: auth })).json();
      expect(stuck.status).not.toBe('failed');
      expect(stuck.stats.pages_crawled).toBeLessThan(20);
    } finally {
      free(engine);
      process.off('warning', onWarning);
    }
    const done = await vi.waitFor(async () => {
      const crawl = await engine.crawls.get(engine.accounts.localPrincipal(user), crawlId);
      if (crawl.status !== 'completed' && crawl.status !== 'failed') throw new Error(`still ${crawl.status}`);
      return crawl;
    }, { timeout: 60_000, interval: 100 });
    expect(done).toMatchObject({ status: 'completed', stats: { pages_crawled: 20 } });
    expect(new Set(done.documents.map((d) => d.url)).size).toBe(20);
    const again = await app.inject({ method: 'POST', url: '/v1/crawls', headers: auth, payload: { urls: [`${web.news}/`], max_pages: 2, dry_run: false } });
    expect(again.statusCode).toBe(201);
  }, 90_000);
});
