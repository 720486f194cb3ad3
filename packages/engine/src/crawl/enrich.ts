import type { ParsedPage } from '../html/index.js';
import type { FetchedPage } from '../web/types.js';

/** What the extract capability adds to a crawled page; the crawl works without it. */
export interface PageEnrichment {
  extracted_data?: Record<string, unknown>;
  extraction_metadata?: Record<string, unknown>;
  classification?: { label: string; confidence: number };
  /** false when a classifier filtered the page out: it is neither stored nor charged, its links are still followed. */
  keep?: boolean;
  dropped_reason?: string | null;
}

export interface PageEnricher {
  enrich(input: {
    page: FetchedPage;
    parsed: ParsedPage | null;
    extractionSchema?: Record<string, string>;
    classify: boolean;
    classifiers?: { type: string }[];
    intent?: string;
  }): Promise<PageEnrichment>;
  /** auto_generate_intent: an intent from the extraction schema's instructions. */
  intentFromSchema?(schema: Record<string, string>): string;
  /** 400 at creation for classifiers the extractor cannot apply. */
  validateClassifiers?(classifiers: readonly { type: string }[] | undefined, crawl: { intent?: string | undefined }): unknown;
}

/** Free extractive summary: the leading sentence of the most important pages, in order of importance. */
export function summarize(docs: { title: string | null; text: string }[], maxSentences = 5): string {
  const sentences: string[] = [];
  for (const doc of docs) {
    const first = doc.text.split(/(?<=[.!?])\s+/)[0]?.trim();
    const line = first && first.length > 20 ? first : doc.title;
    if (line && !sentences.includes(line)) sentences.push(line);
    if (sentences.length >= maxSentences) break;
  }
  return sentences.join(' ');
}
