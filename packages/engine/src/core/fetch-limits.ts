/** Proxy URLs per paid tier; a tier without a URL is unavailable (never silently direct). */
export interface ProxyOptions {
  premium?: string;
  ultra_premium?: string;
}

export interface FetchLimits {
  /** Redirect hops followed before giving up with too_many_redirects. */
  maxRedirects: number;
  connectTimeoutMs: number;
  /** From the request being sent until the status line and headers arrived. */
  headersTimeoutMs: number;
  /** Longest silence between two body chunks. */
  bodyTimeoutMs: number;
  /** Whole fetch of one hop, however slowly the bytes trickle. */
  totalTimeoutMs: number;
  /** Decoded body size cap, after decompression. */
  maxBodyBytes: number;
  /** Decoded-to-wire ratio above which a compressed body is treated as a bomb ... */
  maxCompressionRatio: number;
  /** ... once at least this many decoded bytes arrived (small bodies compress well legitimately). */
  compressionRatioFloorBytes: number;
  /** Parallel requests to one origin. */
  perHostConcurrency: number;
  /** Spacing between two request starts on one origin when robots.txt sets no Crawl-delay. */
  minHostDelayMs: number;
  /** Crawl-delay values above this are clamped, so one site cannot stall a crawl for hours. */
  maxCrawlDelaySeconds: number;
  /** Retries of one URL answered 429 or 503. */
  maxRetries: number;
  /** First backoff when a 429/503 carries no Retry-After; doubles on every retry. */
  backoffBaseMs: number;
  /** Retry-After values above this are not waited for: the answer is returned as it is. */
  maxRetryAfterSeconds: number;
  /** How long a fetched robots.txt is trusted (engine clock). */
  robotsTtlMs: number;
  /**
   * Addresses or CIDR blocks (`10.1.2.3`, `10.1.0.0/16`, `::1`) reachable even when the private
   * network is refused: an intranet host the operator trusts, or the local web in tests.
   */
  allowedPrivateAddresses: string[];
}

/** Most parallel requests to one site an engine may be configured for (one connection each). */
export const MAX_PER_HOST_CONCURRENCY = 64;

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  maxRedirects: 10,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  totalTimeoutMs: 60_000,
  maxBodyBytes: 10 * 1024 * 1024,
  maxCompressionRatio: 100,
  compressionRatioFloorBytes: 1024 * 1024,
  perHostConcurrency: 2,
  minHostDelayMs: 0,
  maxCrawlDelaySeconds: 30,
  maxRetries: 3,
  backoffBaseMs: 1_000,
  maxRetryAfterSeconds: 60,
  robotsTtlMs: 24 * 60 * 60 * 1000,
  allowedPrivateAddresses: [],
};
