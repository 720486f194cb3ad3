import type { ParsedPage } from '../html/index.js';
import type { IndexedPageRecord } from '../store/ports/search.js';
import { pageRecord } from './local-index.js';
import { IndexPageInput, MAX_INDEXED_DESCRIPTION, MAX_INDEXED_TITLE } from './schemas.js';
import { clip } from './text.js';

/** Where a page read off the web was found, and whose copy of it the index keeps. */
export interface IndexedAs {
  url: string;
  ownerUserId: string | null;
  crawlId?: string;
  /** Anchor texts of links elsewhere that point at the page. */
  anchorTexts?: string[];
  fetchedAt: number;
}

/**
 * What the index keeps of a page read off the web, as its record (LocalIndex.put), or null when the index cannot take
 * its URL (longer than MAX_URL_LENGTH, or carrying credentials). The index refuses a title or description past its
 * limits, as it must refuse a caller's; a real page can carry one (a keyword-stuffed title runs to thousands of words),
 * and handing it on whole failed the crawl that read it. Its beginning is kept, as a search result would show it.
 */
export function indexEntry(page: ParsedPage, as: IndexedAs): IndexedPageRecord | null {
  const url = IndexPageInput.shape.url.safeParse(as.url);
  if (!url.success) return null;
  return pageRecord({
    url: url.data,
    ownerUserId: as.ownerUserId,
    crawlId: as.crawlId ?? null,
    anchorTexts: as.anchorTexts ?? [],
    fetchedAt: as.fetchedAt,
    title: clip(page.title ?? '', MAX_INDEXED_TITLE),
    description: clip(page.description ?? '', MAX_INDEXED_DESCRIPTION),
    text: page.text,
    headings: page.headings.map((h) => h.text),
    schemaTypes: page.jsonLd.flatMap((item) => [item['@type']].flat()).filter((t): t is string => typeof t === 'string'),
    publishedDate: page.publishedDate,
    language: page.language,
  });
}
