import type { FetchedPage } from '../../web/types.js';

/** A cached answer to one normalised URL; `fetchedAt` is engine-clock ms. */
export type CachedPage = Pick<FetchedPage, 'url' | 'redirects' | 'fetchedAt' | 'status' | 'headers' | 'contentType' | 'kind' | 'charset' | 'body' | 'bytes'> & {
  requestedUrl: string;
  canonicalUrl: string | null;
};

/** The global page cache, shared by every user and tier: one entry per URL, replaced on each put. */
export interface WebCachePort {
  get(requestedUrl: string): Promise<CachedPage | undefined>;
  put(page: CachedPage): Promise<void>;
}
