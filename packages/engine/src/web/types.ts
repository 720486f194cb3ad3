/**
 * The fetcher's contract: what the crawler, previews, search providers and workflows ask of
 * `engine/web`, and what they get back. A failed fetch is a value (`error`), never a throw,
 * so one bad page never stops a crawl.
 */
import type { PageKind } from './vocabulary.js';

export type ProxyTier = 'direct' | 'premium' | 'ultra_premium';
export type RetryStrategyName = 'none' | 'auto' | 'premium_only';
/** never: the HTML as sent; auto: rendered when it looks like an application shell; always: rendered. */
export type RenderMode = 'never' | 'auto' | 'always';

/** What the rendering tier did with a page (absent when it was not considered). */
export interface RenderInfo {
  mode: RenderMode;
  rendered: boolean;
  /** Why it was rendered, or why not (no browser, a failed render). */
  note?: string;
}

export interface FetchRequest {
  url: string;
  /** Lowest tier to start at; `auto` may escalate from it on block-like answers. */
  tier?: ProxyTier;
  /** Default `auto`, as in the spec's crawl request. */
  retryStrategy?: RetryStrategyName;
  /** Serve from, and store into, the global cache when a fresh copy is no older than cacheMaxAge seconds. */
  useCache?: boolean;
  cacheMaxAge?: number;
  /** Skip robots.txt (only for one-off previews the caller asked for explicitly); default false. */
  ignoreRobots?: boolean;
  /** Unpack a body that is itself a gzip file (`sitemap.xml.gz`) under the same caps; default false. */
  unpackGzip?: boolean;
  /** Run the page's scripts in headless Chromium (docs/rendering.md); default never. */
  render?: RenderMode;
  /**
   * Whether the fetch stores its answer in the global cache itself; default true. A caller that writes what it fetched
   * in transactions of its own passes false and hands the page to `PageFetcher.remember` in one of them: a crawl's
   * copies go into the commit that stores its pages, not into a commit each. A static answer whose body rendering
   * replaced is stored at once.
   */
  storeInCache?: boolean;
  signal?: AbortSignal;
}

export type FetchErrorCode =
  | 'robots_disallowed'
  | 'ssrf_blocked'
  | 'redirect_loop'
  | 'too_many_redirects'
  | 'body_too_large'
  | 'decompression_bomb'
  | 'timeout'
  | 'connect_failed'
  | 'dns_failed'
  | 'http_error'
  | 'blocked'
  | 'unsupported_scheme'
  | 'proxy_tier_unavailable'
  | 'aborted'
  | 'render_unavailable'
  | 'render_failed';

export interface FetchFailure {
  code: FetchErrorCode;
  message: string;
}

export interface FetchedPage {
  /** The URL asked for, normalised. */
  requestedUrl: string;
  /** Where the redirects ended. */
  url: string;
  /** Every hop after the first, in order. */
  redirects: string[];
  /** HTTP status of the final answer; 0 when no answer came. */
  status: number;
  contentType: string;
  headers: Record<string, string>;
  /** Decoded text for HTML, XML, JSON and plain text; the extracted text for PDF; null otherwise. */
  body: string | null;
  kind: PageKind;
  /** Bytes on the wire after decompression. */
  bytes: number;
  charset: string | null;
  fromCache: boolean;
  tier: ProxyTier;
  /** Engine clock, ms since the epoch, when the answer arrived. */
  fetchedAt: number;
  elapsedMs: number;
  /** `<link rel=canonical>` of an HTML page, absolute and normalised; null when absent. */
  canonicalUrl?: string | null;
  /** Set when the request asked for rendering and the page was HTML. */
  rendering?: RenderInfo;
  error?: FetchFailure;
}

/** What capabilities need of the fetcher; engine.web provides it. */
export interface PageFetcher {
  fetch(request: FetchRequest): Promise<FetchedPage>;
  /** Stores a page fetched with `storeInCache: false` in the global cache, as the fetch would have. */
  remember?(page: FetchedPage): Promise<void>;
  /** Throws 400 render_unavailable for `always` when no browser is present (engine.web has it). */
  assertRenderAvailable?(mode: RenderMode | undefined): void;
}
