import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { slug, writeCrawlJson, writeDocuments } from './crawl-output.js';
import type { CrawlDetail } from '../views/crawl-progress.js';

type Doc = CrawlDetail['documents'][number];
const root = mkdtempSync(join(tmpdir(), 'wvr-crawl-output-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const doc = (url: string, title: string, markdown: string): Doc => ({
  url,
  final_url: url,
  status_code: 200,
  content_type: 'text/html',
  depth: 0,
  title,
  description: null,
  language: 'en',
  published_date: '2026-01-02',
  text: markdown,
  markdown,
  links: [],
  metadata: {},
  classification: null,
  summary: null,
  from_cache: false,
  credits: 1,
  importance_score: 0.25,
  inlink_count: 0,
  outlink_count: 0,
  hub_score: 0,
  authority_score: 0,
  anchor_texts: [],
  fetched_at: '2026-01-03T00:00:00.000Z',
});

const docs = [doc('http://127.0.0.1:8080/', 'Home', '# Home\n\nWelcome'), doc('http://127.0.0.1:8080/a/b?page=2', 'Say "hi"', 'Body')];

describe('writeCrawlJson', () => {
  // A finished crawl as the API reads it with documents=top: its own documents are not the ones written.
  const detail = { id: 'c1', status: 'completed', documents: [docs[0]!], documents_total: 2, summary: 'two\nlines' } as unknown as CrawlDetail;
  async function* pages(items: Doc[]) {
    for (const item of items) yield item;
  }
  const written = async (items: Doc[]) => {
    let text = '';
    await writeCrawlJson(async (chunk) => void (text += chunk), detail, pages(items));
    return text;
  };

  it('writes exactly what JSON.stringify would, with the streamed documents in place', async () => {
    expect(await written(docs)).toBe(`${JSON.stringify({ ...detail, documents: docs }, null, 2)}\n`);
    expect(await written([])).toBe(`${JSON.stringify({ ...detail, documents: [] }, null, 2)}\n`);
  });
});

describe('writeDocuments', () => {
  it('writes one numbered JSON file per document', () => {
    const dir = join(root, 'json');
    const paths = writeDocuments(dir, docs, 'json');
    expect(readdirSync(dir).sort()).toEqual(['1-127-0-0-1.json', '2-127-0-0-1-a-b-page-2.json']);
    expect(JSON.parse(readFileSync(paths[1]!, 'utf8'))).toEqual(docs[1]);
  });

  it('writes all documents as one JSON-lines file', () => {
    const [path] = writeDocuments(join(root, 'jsonl'), docs, 'jsonl');
    expect(readFileSync(path!, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Doc)).toEqual(docs);
  });

  it('writes markdown with the page provenance first, quoting titles safely', () => {
    const paths = writeDocuments(join(root, 'md'), docs, 'markdown');
    expect(readFileSync(paths[0]!, 'utf8')).toBe(
      '---\nurl: "http://127.0.0.1:8080/"\ntitle: "Home"\npublished_date: "2026-01-02"\nfetched_at: "2026-01-03T00:00:00.000Z"\nimportance_score: 0.25\n---\n\n# Home\n\nWelcome\n',
    );
    expect(readFileSync(paths[1]!, 'utf8')).toContain('title: "Say \\"hi\\""');
  });

  it('makes file-safe slugs of at most 80 characters', () => {
    expect(slug('https://Example.com/A_b/c.html?x=1#frag')).toBe('example-com-a-b-c-html-x-1');
    expect(slug(`https://e.com/${'x'.repeat(200)}`)).toHaveLength(80);
    expect(slug('not a url')).toBe('page');
  });
});
