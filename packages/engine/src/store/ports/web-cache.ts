import type { PageKind } from '../../web/vocabulary.js';

/** A cached answer to one normalised URL. */
export interface CachedPage {
  requestedUrl: string;
  /** Where the redirects ended. */
  url: string;
  redirects: string[];
  /** Engine-clock ms when the answer arrived. */
  fetchedAt: number;
  status: number;
  headers: Record<string, string>;
  contentType: string;
  kind: PageKind;
  charset: string | null;
  canonicalUrl: string | null;
  body: string | null;
  bytes: number;
}

/** The global page cache, shared by every user and tier: one entry per URL, replaced on each put. */
export interface WebCachePort {
  get(requestedUrl: string): Promise<CachedPage | undefined>;
  put(page: CachedPage): Promise<void>;
}
