import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrawlDetail } from '../views/crawl-progress.js';

export const OUTPUT_FORMATS = ['json', 'jsonl', 'markdown'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
type CrawlDocument = CrawlDetail['documents'][number];

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
