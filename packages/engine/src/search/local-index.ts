import type { z } from 'zod';
import { parseInput } from '../core/validate.js';
import type { DomainFilter, IndexedPage, IndexedPageRecord, IndexMatch, PageDetail, SearchIndexPort, Visibility } from '../store/ports/search.js';
import { IndexPageInput } from './schemas.js';
import { bareDomain, clip, domainOf, hasPort, queryTerms, urlTokens } from './text.js';

export type { IndexedPage, Visibility };

/** Text kept per page: enough for ranking and snippets, bounded so one huge page cannot bloat the index. */
const MAX_BODY_CHARS = 200_000;

/** Rows ranked per result wanted: a URL visible through several scopes comes back once per copy. */
const COPIES_READ = 3;

export interface IndexQuery {
  query: string;
  limit: number;
  visibility: Visibility;
  includeDomains?: string[];
  excludeDomains?: string[];
  /** Terms that raise a page's rank without being required (session intent additions). */
  optionalTerms?: string[];
}

/** A page's details as the index port gives them, with its URL and rank. */
export interface IndexHit extends Omit<PageDetail, 'id'> {
  url: string;
  /** The rank, larger is better (-bm25 on SQLite). */
  bm25: number;
}

/**
 * The local full-text index, over the store's search index port (any driver): what a page copy
 * holds and which scope it belongs to, and how a query becomes ranking passes and results.
 */
export class LocalIndex {
  constructor(private readonly store: SearchIndexPort) {}

  /** Adds or replaces the page copy of one scope (a crawl, a user, or the public cache). */
  upsert(input: IndexPageInput): Promise<{ id: number; url: string; scope: string }> {
    return this.upsertMany([input]).then(([page]) => page!);
  }

  /**
   * Adds or replaces a group of page copies in one store call (one write), e.g. a crawl's commit
   * slice. Not async: a page that fails validation throws at the caller at once, as it always has.
   */
  upsertMany(inputs: readonly IndexPageInput[]): Promise<{ id: number; url: string; scope: string }[]> {
    return this.put(inputs.map((input) => pageRecord(parseInput(IndexPageInput, input, 'index page'))));
  }

  /**
   * Adds or replaces page copies the engine read itself (search/index-entry.ts), already in the index's shape. Not
   * validated again: a crawl indexes every page it stores, and checking its own record (every string of it scanned
   * for lone surrogates, then the schema) cost 0.15 ms a page on the crawl's busiest thread.
   */
  put(records: readonly IndexedPageRecord[]): Promise<{ id: number; url: string; scope: string }[]> {
    return this.store.put(records).then((ids) => records.map((r, i) => ({ id: ids[i]!, url: r.url, scope: r.scope })));
  }

  /** Drops every page a crawl indexed (the crawl was deleted); returns how many. */
  removeCrawl(crawlId: string): Promise<number> {
    return this.store.removeCrawl(crawlId);
  }

  /** Pages matching every query term, then (when fewer than asked) pages matching any, best rank first. */
  async search(q: IndexQuery): Promise<IndexHit[]> {
    const terms = queryTerms(q.query);
    if (terms.length === 0) return [];
    const base = {
      terms,
      optionalTerms: (q.optionalTerms ?? []).flatMap(queryTerms),
      limit: q.limit * COPIES_READ,
      visibility: q.visibility,
      includeDomains: (q.includeDomains ?? []).map(domainFilter),
      excludeDomains: (q.excludeDomains ?? []).map(domainFilter),
    };
    const hits = await this.run({ ...base, mode: 'all' }, q.limit);
    if (hits.length < q.limit && terms.length > 1) {
      const seen = new Set(hits.map((h) => h.url));
      for (const h of await this.run({ ...base, mode: 'any' }, q.limit)) {
        if (hits.length >= q.limit) break;
        if (!seen.has(h.url)) hits.push(h), seen.add(h.url);
      }
    }
    return hits;
  }

  /**
   * The full indexed text of one URL, as the caller may see it: their own copy or a shared
   * crawl's before the public cache, the most recently fetched first. Null when none is visible.
   */
  page(url: string, visibility: Visibility): Promise<IndexedPage | null> {
    return this.store.page(url, visibility);
  }

  /** Pages a user owns (their crawls and personal copies) and the size of the public cache. */
  counts(userId: string): Promise<{ own_pages: number; public_pages: number }> {
    return this.store.counts(userId);
  }

  /** One ranking pass: ids first, then fields and snippets for the best copy of each URL kept. */
  private async run(match: IndexMatch, limit: number): Promise<IndexHit[]> {
    // A URL can be visible through several scopes (public cache and an own crawl): keep its best copy.
    const kept = new Map<string, { id: number; url: string; rank: number }>();
    for (const r of await this.store.rank(match)) {
      if (kept.size >= limit) break;
      if (!kept.has(r.url)) kept.set(r.url, r);
    }
    if (kept.size === 0) return [];
    const details = await this.store.details([...kept.values()].map((r) => r.id), match);
    const byId = new Map(details.map((d) => [d.id, d]));
    return [...kept.values()].map((r) => {
      const d = byId.get(r.id)!;
      return {
        url: r.url,
        domain: d.domain,
        title: d.title,
        description: d.description,
        snippet: d.snippet,
        schemaTypes: d.schemaTypes,
        publishedDate: d.publishedDate,
        bm25: r.rank,
      };
    });
  }
}

/** A page as the index stores it: its scope decided, its text capped. */
export function pageRecord(page: z.output<typeof IndexPageInput>): IndexedPageRecord {
  return {
    url: page.url,
    scope: page.crawlId ? `crawl:${page.crawlId}` : page.ownerUserId ? `user:${page.ownerUserId}` : 'public',
    ownerUserId: page.ownerUserId,
    crawlId: page.crawlId,
    domain: domainOf(page.url),
    title: page.title,
    description: page.description,
    headings: page.headings,
    body: clip(page.text, MAX_BODY_CHARS),
    urlTokens: urlTokens(page.url),
    anchorTexts: page.anchorTexts,
    schemaTypes: page.schemaTypes,
    publishedDate: page.publishedDate,
    language: page.language,
    fetchedAt: new Date(page.fetchedAt).toISOString(),
  };
}

/** A filter without a port ("127.0.0.1") matches the host on any port ("127.0.0.1:8080"). */
function domainFilter(wanted: string): DomainFilter {
  const domain = bareDomain(wanted);
  return { domain, anyPort: !hasPort(domain) };
}
