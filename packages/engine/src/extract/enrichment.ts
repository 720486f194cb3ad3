import type { ParsedPage } from '../html/index.js';
import type { FetchedPage } from '../web/types.js';

/** What the extract capability adds to a crawled page; the crawl works without it (it takes any `PageEnricher`). */
export interface PageEnrichment {
  extracted_data?: Record<string, unknown>;
  extraction_metadata?: Record<string, unknown>;
  classification?: { label: string; confidence: number };
  /** generate_summary: the page's own summary. */
  summary?: string;
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
    /** generate_summary: summarise each kept page. */
    summarize?: boolean;
  }): Promise<PageEnrichment>;
  /** generate_summary: the crawl in a few sentences from its documents, most important first. */
  summarizeCrawl?(docs: { url: string; title: string | null; summary: string }[]): Promise<string>;
  /** auto_generate_intent: an intent from the extraction schema's instructions. */
  intentFromSchema?(schema: Record<string, string>): string;
  /** 400 at creation for classifiers the extractor cannot apply. */
  validateClassifiers?(classifiers: readonly { type: string }[] | undefined, crawl: { intent?: string | undefined }): unknown;
}
