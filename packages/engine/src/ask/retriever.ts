import type { Principal } from '../accounts/schemas.js';
import { parseHtml } from '../html/index.js';
import type { PageFetcher, RenderMode } from '../web/types.js';
import type { SearchProvider } from '../search/providers/types.js';
import type { AskDocument } from './compose.js';

export interface AskCandidate {
  url: string;
  title: string;
  description: string;
  publishedDate: string | null;
}

/**
 * What ask needs from search and the fetcher. `find` must return only pages the principal may
 * see (the search service's rule); `read` gives a page's main text, or null when it cannot.
 */
export interface AskRetriever {
  find(principal: Principal, query: string, limit: number): Promise<AskCandidate[]>;
  /** `render` applies to pages fetched for the answer (pages the index holds are read from it). */
  read(principal: Principal, candidate: AskCandidate, render?: RenderMode): Promise<AskDocument | null>;
  /** Throws 400 render_unavailable for `always` on a server without a browser. */
  assertRender?(mode: RenderMode | undefined): void;
  /** Throws an explained error when nothing could be found at all (before anything is charged). */
  ready?(principal: Principal): Promise<void> | void;
}

/** Reads a page through engine.web (robots, SSRF guard, caps, cache) and keeps its main text. */
async function readThroughWeb(fetcher: PageFetcher, candidate: AskCandidate, render?: RenderMode): Promise<AskDocument | null> {
  const page = await fetcher.fetch({ url: candidate.url, useCache: true, render });
  if (page.error || page.body === null || page.status >= 400) return null;
  if (page.kind === 'html') {
    const parsed = parseHtml(page.body, page.url);
    return {
      url: candidate.url,
      title: parsed.title ?? candidate.title,
      text: parsed.text,
      publishedDate: parsed.publishedDate ?? candidate.publishedDate,
      html: page.body,
    };
  }
  if (page.kind === 'text' || page.kind === 'pdf') {
    return { url: candidate.url, title: candidate.title, text: page.body, publishedDate: candidate.publishedDate };
  }
  return null;
}

/** What ask uses of engine.search: its providers, and the visibility-filtered page text of the local index. */
export interface SearchForAsk {
  providers: ReadonlyMap<string, SearchProvider>;
  pageText?(principal: Principal, url: string): Promise<{ title: string; text: string; publishedDate: string | null } | null>;
  assertIndexHolds?(principal: Principal): Promise<void>;
}

/**
 * Retrieval over engine.search's providers without the search charge (ask pays its own price):
 * the local index (filtered to what the principal may see) first, then any web provider, merged
 * by URL. A page the index holds is read from it; others through the fetcher; without one, or when
 * a read fails, the search snippet stands in for the page so that what was found can still be quoted.
 */
export function searchRetriever(search: SearchForAsk, fetcher?: PageFetcher): AskRetriever {
  return {
    async ready(principal) {
      // With a web provider there is always somewhere to look; with the local index alone, it must hold something.
      if ([...search.providers.keys()].every((name) => name === 'local')) await search.assertIndexHolds?.(principal);
    },
    async find(principal, query, limit) {
      const merged = new Map<string, AskCandidate>();
      for (const provider of [...search.providers.values()].sort((a, b) => rank(a) - rank(b))) {
        const hits = await provider.search({ query, maxResults: limit, principal }).catch(() => []);
        for (const h of hits) {
          if (!merged.has(h.url)) merged.set(h.url, { url: h.url, title: h.title, description: h.description, publishedDate: h.publishedDate });
        }
      }
      return [...merged.values()].slice(0, limit);
    },
    assertRender(mode) {
      fetcher?.assertRenderAvailable?.(mode);
    },
    async read(principal, candidate, render) {
      // Pages already in the index (the caller's private crawls included) are read there, in full, without a fetch.
      const indexed = await search.pageText?.(principal, candidate.url);
      if (indexed?.text.trim()) {
        return { url: candidate.url, title: indexed.title || candidate.title, text: indexed.text, publishedDate: indexed.publishedDate ?? candidate.publishedDate };
      }
      const doc = fetcher ? await readThroughWeb(fetcher, candidate, render) : null;
      if (doc) return doc;
      if (candidate.description.trim().length < 40) return null;
      return { url: candidate.url, title: candidate.title, text: candidate.description, publishedDate: candidate.publishedDate };
    },
  };
}

const rank = (p: SearchProvider) => (p.kind === 'index' ? 0 : 1);
