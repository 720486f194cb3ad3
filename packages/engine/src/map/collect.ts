import { normalizeUrl } from '../html/url.js';
import { patternFilter, siteOf, type PatternFilter } from '../crawl/url-rules.js';
import { queryTerms, urlTokens } from '../search/text.js';
import { stem, words as allWords } from '../text/tokens.js';
import type { MapResult } from './schemas.js';

export interface Candidate {
  url: string;
  lastmod: string | null;
  source: 'sitemap' | 'links';
  /** Search terms matched (0 without a search). */
  score: number;
}

export type MapStats = Omit<MapResult['stats'], 'elapsed_ms'>;

export interface CollectOptions {
  start: string;
  includeSubdomains: boolean;
  urlPatterns?: readonly string[];
  excludePatterns?: readonly string[];
  search?: string;
}

/**
 * Decides which entries belong in a map, and counts why the others do not. Every URL goes
 * through the crawl's normalisation (html/url.ts) and glob patterns (crawl/url-rules.ts), so a
 * map seeds a crawl with exactly the URLs that crawl would have queued.
 */
export class UrlCollector {
  readonly stats: MapStats = {
    sitemaps_read: 0,
    sitemap_urls: 0,
    discovery_pages: 0,
    discovered_urls: 0,
    duplicates: 0,
    invalid: 0,
    off_site: 0,
    disallowed: 0,
    filtered: 0,
  };
  private readonly site: string;
  private readonly patterns: PatternFilter;
  private readonly searchStems: string[] | null;

  constructor(private readonly options: CollectOptions) {
    this.site = siteOf(options.start);
    this.patterns = patternFilter(options.urlPatterns, options.excludePatterns);
    this.searchStems = options.search ? [...new Set(queryTerms(options.search).map(stem))] : null;
  }

  /** Whether a URL is on the mapped site (sitemap children are held to this too). */
  onSite(url: string): boolean {
    const site = siteOf(url);
    return site === this.site || (this.options.includeSubdomains && site.endsWith(`.${this.site}`));
  }

  /** One raw entry (a <loc>, an href already resolved); the candidate, or null with the reason counted. */
  accept(raw: string, base: string, lastmod: string | null, source: Candidate['source'], words = ''): Candidate | null {
    const url = normalizeUrl(raw, base);
    if (!url) {
      this.stats.invalid++;
      return null;
    }
    if (!this.onSite(url)) {
      this.stats.off_site++;
      return null;
    }
    if (!this.patterns.allows(url)) {
      this.stats.filtered++;
      return null;
    }
    const score = this.score(url, words);
    if (score === 0) {
      this.stats.filtered++;
      return null;
    }
    return { url, lastmod: lastmod && isDate(lastmod) ? lastmod : null, source, score };
  }

  /** Search terms the URL's host and path words (and, for links, the anchor text) contain; 1 without a search. */
  private score(url: string, words: string): number {
    if (!this.searchStems) return 1;
    // Every word, stopwords too: a search made only of stopwords keeps them (queryTerms), and `/about` must match "about".
    const have = new Set(allWords(`${urlTokens(url)} ${words}`).map(stem));
    return this.searchStems.filter((s) => have.has(s)).length;
  }
}

/** W3C datetime as sitemaps write it (`2026-01-31`, `2026-01-31T10:00:00+01:00`); anything else is dropped, not passed on. */
const isDate = (value: string): boolean => /^\d{4}(-\d{2}(-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?)?)?$/.test(value) && !Number.isNaN(Date.parse(value.slice(0, 10)));
