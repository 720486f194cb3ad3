import { and, asc, desc, eq, getTableColumns, type Column, type SQL, type Table } from 'drizzle-orm';
import type { DocumentOrder } from './ports/crawl.js';

/** The columns both dialects' crawl_documents and crawl_document_scores tables share a name with. */
interface DocumentKey {
  crawlId: Column;
  url: Column;
}
interface DocumentNames extends DocumentKey {
  seq: Column;
  finalUrl: Column;
  title: Column;
  statusCode: Column;
  depth: Column;
}
interface Scores extends DocumentKey {
  importance: Column;
  hubScore: Column;
  authorityScore: Column;
  inlinks: Column;
  outlinks: Column;
  anchors: Column;
}

/**
 * A document as the API reads it, on either dialect: its row's columns and its graph scores, which live in a table
 * of their own (see sqlite/tables/crawl.ts), with the condition that joins the two; the few of them a progress read
 * shows (`best`); and the two orders documents are read in: crawl order, and importance first with ties in crawl
 * order, so pages of a ranking never overlap.
 */
export function documentWithScores<D extends Table & DocumentNames, S extends Table & Scores>(
  documents: D,
  scores: S,
): {
  columns: D['_']['columns'] & Pick<S, Exclude<keyof Scores, keyof DocumentKey>>;
  best: Pick<D, Exclude<keyof DocumentNames, 'crawlId' | 'seq'>> & Pick<S, 'importance'>;
  join: SQL;
  orders: Record<DocumentOrder, SQL[]>;
} {
  return {
    columns: {
      ...getTableColumns(documents),
      importance: scores.importance,
      hubScore: scores.hubScore,
      authorityScore: scores.authorityScore,
      inlinks: scores.inlinks,
      outlinks: scores.outlinks,
      anchors: scores.anchors,
    },
    // On SQLite all of them sit before the row's text, markdown and links: a read of these touches none of those.
    best: {
      url: documents.url,
      finalUrl: documents.finalUrl,
      title: documents.title,
      statusCode: documents.statusCode,
      depth: documents.depth,
      importance: scores.importance,
    },
    join: and(eq(scores.crawlId, documents.crawlId), eq(scores.url, documents.url))!,
    orders: { crawl: [asc(documents.seq)], importance: [desc(scores.importance), asc(documents.seq)] },
  };
}
