import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { createEngine } from '../engine.js';
import type { CrawlDetail } from './responses.js';
import { openDatabase } from '../store/sqlite/open.js';
import { createSqliteStore } from '../store/sqlite/index.js';
import { REGION_WEIGHTS } from './graph.js';
import { GraphScores, LinkGraph } from './graph-scores.js';

let web: LocalWeb;
let dir: string;
beforeAll(async () => {
  web = await startLocalWeb({ sizes: { products: 2000 } });
  dir = mkdtempSync(join(tmpdir(), 'wvr-resume-'));
});
afterAll(async () => {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
});

const CHILD = fileURLToPath(new URL('./resume.child.ts', import.meta.url));
const MAX_PAGES = 120;

function pagesCrawled(dbPath: string, id: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select pages_fetched as n from crawls where id = ?').get(id) as { n: number }).n;
  } finally {
    db.close();
  }
}

/**
 * The resumed run scored the documents from a graph it loaded from the edge table and then grew in
 * memory; HITS over the edge table as stored must give the same scores, region weights included.
 */
async function expectScoresFromStoredGraph(dbPath: string, crawlId: string, done: CrawlDetail): Promise<void> {
  const { sqlite, db } = openDatabase(dbPath);
  try {
    const frontier = createSqliteStore(sqlite, db).crawl.frontier(crawlId, false);
    const edges = await frontier.edgeIds(REGION_WEIGHTS);
    expect(new Set(edges.weight)).toEqual(new Set([1, 0.5, 0.1]));
    const graph = GraphScores.of(new LinkGraph(edges));
    for (const doc of done.documents) {
      const node = (await frontier.get(doc.url))!.id;
      expect(doc.hub_score).toBeCloseTo(graph.hubOf(node), 3);
      expect(doc.authority_score).toBeCloseTo(graph.authorityOf(node), 3);
      expect(doc.outlink_count).toBe(graph.outlinksOf(node));
    }
  } finally {
    sqlite.close();
  }
}

describe('crawl resume', () => {
  it('finishes a crawl whose engine was killed with SIGKILL, charging every page exactly once', async () => {
    const dbPath = join(dir, 'wvr.db');
    const first = createEngine({ dbPath, allowPrivateNetwork: true, secret: 'test-secret' });
    const user = await first.accounts.ensureUser({ email: 'resume@x.test' });
    await first.credits.grant(user.id, 1000);
    const principal = first.accounts.localPrincipal(user);
    const before = await first.credits.balance(user.id);
    const crawl = (await first.crawls.create(principal, { urls: [`${web.catalogue}/`], max_pages: MAX_PAGES, expansion: 'internal', link_extraction_config: { max_depth: 3 } })) as CrawlDetail;
    await first.close();

    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    try {
      await vi.waitFor(() => expect(pagesCrawled(dbPath, crawl.id)).toBeGreaterThanOrEqual(10), { timeout: 30_000, interval: 20 });
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');
    const atKill = pagesCrawled(dbPath, crawl.id);
    expect(atKill).toBeLessThan(MAX_PAGES);

    const second = createEngine({ dbPath, allowPrivateNetwork: true, secret: 'test-secret' });
    try {
      expect((await second.crawls.get(principal, crawl.id)).status).toBe('running');
      await second.jobs.drain();
      const done = await second.crawls.get(principal, crawl.id);
      console.log(`killed at ${atKill} pages; resumed and finished with ${done.documents.length} pages, ${done.stats.credits_used} credits`);
      expect(done.status).toBe('completed');
      expect(done.documents).toHaveLength(MAX_PAGES);
      expect(new Set(done.documents.map((d) => d.url)).size).toBe(MAX_PAGES);
      expect(done.documents.every((d) => d.credits === 1)).toBe(true);
      expect(done.stats.credits_used).toBe(MAX_PAGES);
      expect(await second.credits.balance(user.id)).toBe(before - MAX_PAGES);
      expect(await second.credits.ledgerSum(user.id)).toBe(before - MAX_PAGES);
      await expectScoresFromStoredGraph(dbPath, crawl.id, done);
    } finally {
      await second.close();
    }
  });
});
