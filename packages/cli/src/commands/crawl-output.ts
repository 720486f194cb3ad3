import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrawlDetail } from '../views/crawl-progress.js';

export const OUTPUT_FORMATS = ['json', 'jsonl', 'markdown'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
type CrawlDocument = CrawlDetail['documents'][number];

/** A document's JSON as `JSON.stringify([[doc]], null, 2)` writes it: indented two levels, between these. */
const NESTED_OPEN = '[\n  [\n    ';
const NESTED_CLOSE = '\n  ]\n]';

/**
 * Writes `JSON.stringify(detail, null, 2)` with `documents` taken from `documents` as they come,
 * page by page, so a crawl of 1,000 heavy pages is never one string or one array in memory.
 * `detail.documents` itself is ignored (read it with documents=none or top).
 */
export async function writeCrawlJson(write: (chunk: string) => Promise<void>, detail: CrawlDetail, documents: AsyncIterable<CrawlDocument>): Promise<void> {
  const text = JSON.stringify({ ...detail, documents: [] }, null, 2);
  const slot = '\n  "documents": []';
  const at = text.indexOf(slot);
  await write(`${text.slice(0, at)}\n  "documents": [`);
  let count = 0;
  for await (const doc of documents) {
    // Nested two levels deep, as stringify indents it inside two arrays (cut off again): one copy of a
    // document that can carry hundreds of KB, where re-indenting its own output made a second.
    const nested = JSON.stringify([[doc]], null, 2);
    await write(`${count++ === 0 ? '' : ','}\n    ${nested.slice(NESTED_OPEN.length, -NESTED_CLOSE.length)}`);
  }
  await write(`${count === 0 ? ']' : '\n  ]'}${text.slice(at + slot.length)}\n`);
}

/**
 * Writes a crawl's documents into dir: jsonl as one documents.jsonl; json and markdown as one file
 * per document, numbered in crawl order so names stay unique and sort as fetched. Returns the paths.
 */
export function writeDocuments(dir: string, documents: CrawlDocument[], format: OutputFormat): string[] {
  mkdirSync(dir, { recursive: true });
  if (format === 'jsonl') {
    const path = join(dir, 'documents.jsonl');
    writeFileSync(path, documents.map((d) => `${JSON.stringify(d)}\n`).join(''));
    return [path];
  }
  const width = String(documents.length).length;
  return documents.map((doc, i) => {
    const stem = `${String(i + 1).padStart(width, '0')}-${slug(doc.final_url || doc.url)}`;
    const path = join(dir, `${stem}.${format === 'json' ? 'json' : 'md'}`);
    writeFileSync(path, format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : markdownFile(doc));
    return path;
  });
}

/** Markdown with the page's provenance first, so a file read alone still says where it came from. */
function markdownFile(doc: CrawlDocument): string {
  const front = [
    '---',
    `url: ${JSON.stringify(doc.final_url || doc.url)}`,
    `title: ${JSON.stringify(doc.title ?? '')}`,
    ...(doc.published_date ? [`published_date: ${JSON.stringify(doc.published_date)}`] : []),
    `fetched_at: ${JSON.stringify(doc.fetched_at)}`,
    `importance_score: ${doc.importance_score}`,
    '---',
  ];
  return `${front.join('\n')}\n\n${doc.markdown.trimEnd()}\n`;
}

export function slug(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'page';
  }
  const raw = `${parsed.hostname}${parsed.pathname}${parsed.search}`;
  const cleaned = raw.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return cleaned.slice(0, 80).replace(/-+$/, '') || 'page';
}
