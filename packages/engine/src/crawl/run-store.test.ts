import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import { RunStore } from './run-store.js';
import { Frontier } from './frontier.js';
import { crawlDocuments } from '../store/sqlite/tables/crawl.js';

let t: TestEngine;
afterEach(async () => t.dispose());

const doc = {
  url: 'https://a.test/x',
  seq: 3,
  finalUrl: 'https://a.test/x?final',
  statusCode: 200,
  contentType: 'text/html',
  depth: 1,
  title: 'X',
  description: null,
  language: 'en',
  publishedDate: null,
  text: 'text',
  markdown: '# X',
  links: [{ url: 'https://a.test/y', text: 'y' }],
  metadata: { json_ld: [{ '@type': 'Product' }], word_count: 1 },
  extractedData: null,
  classification: { label: 'product', confidence: 0.9 },
  summary: null,
  fromCache: true,
  credits: 1,
  inlinks: 2,
  anchors: ['an x'],
  fetchedAt: '2026-01-01T00:00:00.000Z',
};

describe('RunStore', () => {
  it('writes documents that read back through the schema with their JSON and boolean columns intact', () => {
    t = openTestEngine();
    const store = new RunStore(t.engine.context.sqlite, 'crawl-1');
    store.insertDocument(doc);
    store.insertDocument({ ...doc, title: 'a second write is ignored' });
    const rows = t.engine.context.db.select().from(crawlDocuments).where(eq(crawlDocuments.crawlId, 'crawl-1')).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ...doc, extractedData: null, importance: 0, outlinks: 0 });
  });

  it('pairs each document with its frontier node and rewrites its scores', () => {
    t = openTestEngine();
    const store = new RunStore(t.engine.context.sqlite, 'crawl-1');
    const frontier = new Frontier(t.engine.context.sqlite, 'crawl-1', false);
    const id = frontier.discover({ url: doc.url, depth: 1, bucket: 'detail', relevance: 0, anchor: 'an x', context: '', cash: 0.25 }, () => 0);
    store.insertDocument(doc);
    store.insertDocument({ ...doc, url: 'https://a.test/orphan' });
    const nodes = store.documentNodes().sort((a, b) => a.url.localeCompare(b.url));
    expect(nodes[0]).toMatchObject({ url: 'https://a.test/orphan', node: null, weight: 0, nodeAnchorCount: 0 });
    expect(nodes[1]).toMatchObject({ url: doc.url, node: id, weight: 0.25, nodeInlinks: 1, nodeAnchors: '["an x"]', anchorCount: 1 });
    store.setScores(doc.url, { importance: 0.5, hubScore: 0.1, authorityScore: 1, inlinks: 4, outlinks: 7, anchors: '["a","b"]' });
    const row = t.engine.context.db.select().from(crawlDocuments).where(eq(crawlDocuments.url, doc.url)).get();
    expect(row).toMatchObject({ importance: 0.5, hubScore: 0.1, authorityScore: 1, inlinks: 4, outlinks: 7, anchors: ['a', 'b'] });
  });
});
