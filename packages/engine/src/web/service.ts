import type { EngineContext } from '../context.js';
import { errors } from '../core/errors.js';
import { normalizeUrl } from '../html/url.js';
import { AddressPolicy } from './address-policy.js';
import { WebCache } from './cache.js';
import { readContent } from './content.js';
import { Dispatchers } from './dispatchers.js';
import { unpackGzipFile } from './gzip-file.js';
import { fetchHop, REDIRECT_STATUSES, type HopOutcome } from './hop.js';
import { Politeness } from './politeness.js';
import { resolveRenderOptions } from './render/options.js';
import type { RenderStats } from './render/pool.js';
import { Renderer } from './render/renderer.js';
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, type RobotsRules } from './robots.js';
import { assertTiersAvailable, isBlockLike, tierPlan, type TierRequest } from './tiers.js';
import type { FetchErrorCode, FetchedPage, FetchRequest, ProxyTier, RenderMode, RetryStrategyName } from './types.js';

export interface RobotsVerdict {
  allowed: boolean;
  /** Seconds asked for by robots.txt (after clamping), null when unset. */
  crawlDelaySeconds: number | null;
  sitemaps: string[];
}

interface RobotsEntry {
  rules: RobotsRules;
  expiresAt: number;
}

const DEFAULT_CACHE_MAX_AGE = 86_400;
/** Unreachable robots.txt means "crawl nothing" (RFC 9309), but only briefly. */
const ROBOTS_FAILURE_TTL_MS = 10 * 60 * 1000;

/**
 * `engine.web`: every outbound page fetch of the product. Polite per origin, bounded in time
 * and size, refusing non-public addresses unless allowed, and never throwing for a bad page:
 * failures come back in FetchedPage.error.
 */
export class WebService {
  private readonly policy: AddressPolicy;
  private readonly dispatchers: Dispatchers;
  private readonly politeness: Politeness;
  private readonly cache: WebCache;
  private readonly renderer: Renderer;
  private readonly robotsCache = new Map<string, RobotsEntry>();
  private readonly robotsPending = new Map<string, Promise<RobotsRules>>();

  constructor(private readonly ctx: EngineContext) {
    const { allowPrivateNetwork, fetchLimits, proxies } = ctx.options;
    this.policy = new AddressPolicy(allowPrivateNetwork, fetchLimits.allowedPrivateAddresses);
    this.dispatchers = new Dispatchers(this.policy, allowPrivateNetwork, fetchLimits, proxies);
    this.politeness = new Politeness(fetchLimits.perHostConcurrency, ctx.store.hosts);
    this.cache = new WebCache(ctx);
    const dispatchers = this.dispatchers;
    this.renderer = new Renderer(resolveRenderOptions(ctx.options.render), {
      policy: this.policy,
      // Asked for when a rendered page makes its first request: the pool is made on first use.
      get dispatcher() {
        return dispatchers.forTier('direct')!;
      },
      politeness: this.politeness,
      limits: fetchLimits,
      userAgent: ctx.options.userAgent,
    });
  }

  /** Throws 400 proxy_tier_unavailable when the request needs a proxy this engine lacks. */
  assertTiersAvailable(request: TierRequest): void {
    assertTiersAvailable(this.ctx.options.proxies, request);
  }

  /** Throws 400 render_unavailable when `always` is asked of an engine without a browser. */
  assertRenderAvailable(mode: RenderMode | undefined): void {
    if (mode !== 'always' || this.renderer.available) return;
    throw errors.validation('render_unavailable', 'render: always needs a headless Chromium, and this server has none.', {
      suggestions: ['Use render: auto (static HTML with a note when no browser is present), or', 'install Chromium on the server (or set WVR_CHROMIUM_PATH).'],
      details: { render: mode },
    });
  }

  /** What the rendering tier has done so far (browser launches, pages rendered, requests refused). */
  renderStats(): RenderStats & { slots: number; available: boolean } {
    return { ...this.renderer.stats, slots: this.renderer.slots, available: this.renderer.available };
  }

  /** The static fetch, then the rendering tier when the request asks for it (docs/rendering.md). */
  async fetch(request: FetchRequest): Promise<FetchedPage> {
    const page = await this.fetchStatic(request);
    if (!request.render || request.render === 'never') return page;
    const result = await this.renderer.apply(page, request.render, request.signal);
    // The cache holds static answers: one whose body rendering replaced is stored now, whoever stores the rest.
    if (request.storeInCache === false && result.body !== page.body) await this.cache.put(page);
    return result;
  }

  async remember(page: FetchedPage): Promise<void> {
    if (!page.fromCache && !page.rendering?.rendered) await this.cache.put(page);
  }

  private async fetchStatic(request: FetchRequest): Promise<FetchedPage> {
    const started = performance.now();
    const tier = request.tier ?? 'direct';
    const requestedUrl = normalizeUrl(request.url);
    if (!requestedUrl) return this.failed(request.url, tier, started, 'unsupported_scheme', `not an http(s) URL: ${request.url}`);
    if (!this.dispatchers.isConfigured(tier)) {
      return this.failed(requestedUrl, tier, started, 'proxy_tier_unavailable', `no proxy is configured for the ${tier} tier`);
    }
    if (request.useCache) {
      const hit = await this.cache.get(requestedUrl, request.cacheMaxAge ?? DEFAULT_CACHE_MAX_AGE, tier);
      if (hit) return hit;
    }
    const strategy = request.retryStrategy ?? 'auto';
    const plan = tierPlan(this.ctx.options.proxies, tier, strategy);
    let page: FetchedPage | null = null;
    for (const [i, attempt] of plan.entries()) {
      page = await this.fetchVia(requestedUrl, attempt, strategy, request, started, i < plan.length - 1);
      if (page.error?.code !== 'blocked') break;
    }
    const result = page as FetchedPage;
    if (request.storeInCache !== false) await this.cache.put(result);
    return result;
  }

  /** What robots.txt says about one URL for our user agent; fetched once per origin and cached. */
  async robots(url: string, tier: ProxyTier = 'direct'): Promise<RobotsVerdict> {
    const normalized = normalizeUrl(url);
    if (!normalized) return { allowed: false, crawlDelaySeconds: null, sitemaps: [] };
    const parsed = new URL(normalized);
    const rules = await this.rulesFor(parsed.origin, tier);
    return { allowed: rules.isAllowed(parsed.pathname + parsed.search), crawlDelaySeconds: this.clampDelay(rules), sitemaps: rules.sitemaps };
  }

  async close(): Promise<void> {
    await this.renderer.close();
    await this.dispatchers.close();
  }

  private async fetchVia(
    url: string,
    tier: ProxyTier,
    strategy: RetryStrategyName,
    request: FetchRequest,
    started: number,
    canEscalate: boolean,
  ): Promise<FetchedPage> {
    const { maxRedirects } = this.ctx.options.fetchLimits;
    const redirects: string[] = [];
    const seen = new Set([url]);
    let current = url;
    for (;;) {
      const refusal = await this.refusal(current, tier);
      if (refusal) return this.failed(url, tier, started, 'ssrf_blocked', refusal, { current, redirects });
      if (!request.ignoreRobots) {
        const parsed = new URL(current);
        const rules = await this.rulesFor(parsed.origin, tier);
        if (!rules.isAllowed(parsed.pathname + parsed.search)) {
          return this.failed(url, tier, started, 'robots_disallowed', `robots.txt disallows ${parsed.pathname}`, { current, redirects });
        }
      }
      const outcome = await this.fetchPolitely(current, tier, canEscalate, request.signal);
      if ('failure' in outcome) {
        return this.failed(url, tier, started, outcome.failure.code, outcome.failure.message, { current, redirects, status: outcome.status, headers: outcome.headers });
      }
      const { answer } = outcome;
      const location = answer.headers.location;
      if (REDIRECT_STATUSES.has(answer.status) && location) {
        const next = normalizeUrl(location, current);
        if (!next) return this.failed(url, tier, started, 'unsupported_scheme', `redirect to a non-http(s) URL: ${location}`, { current, redirects });
        if (seen.has(next)) return this.failed(url, tier, started, 'redirect_loop', `redirect loop back to ${next}`, { current, redirects: [...redirects, next] });
        if (redirects.length >= maxRedirects) {
          return this.failed(url, tier, started, 'too_many_redirects', `more than ${maxRedirects} redirects`, { current, redirects });
        }
        seen.add(next);
        redirects.push(next);
        current = next;
        continue;
      }
      const contentType = answer.headers['content-type'] ?? '';
      const unpacked = request.unpackGzip ? await unpackGzipFile(answer.bytes, this.ctx.options.fetchLimits) : null;
      if (unpacked && 'failure' in unpacked) {
        return this.failed(url, tier, started, unpacked.failure.code, unpacked.failure.message, { current, redirects, status: answer.status, headers: answer.headers });
      }
      const bytes = unpacked?.bytes ?? answer.bytes;
      const content = await readContent(bytes, unpacked?.contentType ?? contentType, current);
      const page: FetchedPage = {
        requestedUrl: url,
        url: current,
        redirects,
        status: answer.status,
        contentType,
        headers: answer.headers,
        body: content.body,
        kind: content.kind,
        bytes: bytes.length,
        charset: content.charset,
        canonicalUrl: content.canonicalUrl,
        fromCache: false,
        tier,
        fetchedAt: this.ctx.clock.now().getTime(),
        elapsedMs: performance.now() - started,
      };
      if (isBlockLike(answer.status, content.body)) {
        page.error = { code: 'blocked', message: `the ${tier} tier was answered with a block page (${answer.status})${strategy === 'auto' && canEscalate ? '; escalating' : ''}` };
      } else if (answer.status >= 400) {
        page.error = { code: 'http_error', message: `HTTP ${answer.status}` };
      }
      return page;
    }
  }

  /**
   * One URL through the origin's queue, retrying 429 and 503 after Retry-After or an
   * exponential backoff; the pause applies to every request of that origin. A block page is
   * not waited for when a higher tier can take over.
   */
  private async fetchPolitely(url: string, tier: ProxyTier, canEscalate: boolean, signal?: AbortSignal): Promise<HopOutcome> {
    const limits = this.ctx.options.fetchLimits;
    const dispatcher = this.dispatchers.forTier(tier)!;
    const origin = new URL(url).origin;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.politeness.run(origin, () => fetchHop(dispatcher, url, this.ctx.options.userAgent, limits, signal), signal);
      if ('failure' in outcome) return outcome;
      const { status, headers, bytes } = outcome.answer;
      if ((status !== 429 && status !== 503) || attempt >= limits.maxRetries || signal?.aborted) return outcome;
      if (canEscalate && isBlockLike(status, bytes.toString('latin1'))) return outcome;
      const waitMs = this.retryAfterMs(headers['retry-after']) ?? limits.backoffBaseMs * 2 ** attempt;
      if (waitMs > limits.maxRetryAfterSeconds * 1000) return outcome;
      this.politeness.pause(origin, waitMs);
    }
  }

  private retryAfterMs(value: string | undefined): number | null {
    if (!value) return null;
    if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
    const at = Date.parse(value);
    return Number.isNaN(at) ? null : Math.max(0, at - this.ctx.clock.now().getTime());
  }

  /** Why this hop must not be fetched (a non-public address), or null. */
  private async refusal(url: string, tier: ProxyTier): Promise<string | null> {
    const { hostname } = new URL(url);
    // Direct fetches are also checked on the resolved address inside connect; a proxy resolves
    // names itself, so for proxied tiers the name is resolved here first.
    return tier === 'direct' ? this.policy.refuseLiteral(hostname) : this.policy.refuseResolved(hostname);
  }

  private async rulesFor(origin: string, tier: ProxyTier): Promise<RobotsRules> {
    const now = this.ctx.clock.now().getTime();
    const cached = this.robotsCache.get(origin);
    if (cached && cached.expiresAt > now) return cached.rules;
    let pending = this.robotsPending.get(origin);
    if (!pending) {
      pending = this.loadRobots(origin, tier).finally(() => this.robotsPending.delete(origin));
      this.robotsPending.set(origin, pending);
    }
    return pending;
  }

  private async loadRobots(origin: string, tier: ProxyTier): Promise<RobotsRules> {
    const page = await this.fetchVia(`${origin}/robots.txt`, tier, 'none', { url: `${origin}/robots.txt`, ignoreRobots: true }, performance.now(), false);
    const now = this.ctx.clock.now().getTime();
    const limits = this.ctx.options.fetchLimits;
    let rules: RobotsRules;
    let ttl = limits.robotsTtlMs;
    if (page.status >= 200 && page.status < 300 && page.body !== null) {
      rules = parseRobots(page.body, this.ctx.options.userAgent);
    } else if (page.status >= 400 && page.status < 500) {
      rules = ALLOW_ALL;
    } else if (page.error?.code === 'ssrf_blocked') {
      // The page itself meets the same guard and is reported as ssrf_blocked, not as a robots refusal.
      rules = ALLOW_ALL;
      ttl = ROBOTS_FAILURE_TTL_MS;
    } else {
      rules = DISALLOW_ALL;
      ttl = ROBOTS_FAILURE_TTL_MS;
    }
    this.robotsCache.set(origin, { rules, expiresAt: now + ttl });
    const delaySeconds = this.clampDelay(rules) ?? 0;
    this.politeness.setDelay(origin, Math.max(limits.minHostDelayMs, delaySeconds * 1000));
    return rules;
  }

  private clampDelay(rules: RobotsRules): number | null {
    return rules.crawlDelaySeconds === null ? null : Math.min(rules.crawlDelaySeconds, this.ctx.options.fetchLimits.maxCrawlDelaySeconds);
  }

  private failed(
    url: string,
    tier: ProxyTier,
    started: number,
    code: FetchErrorCode,
    message: string,
    at: { current?: string; redirects?: string[]; status?: number; headers?: Record<string, string> } = {},
  ): FetchedPage {
    return {
      requestedUrl: url,
      url: at.current ?? url,
      redirects: at.redirects ?? [],
      status: at.status ?? 0,
      contentType: at.headers?.['content-type'] ?? '',
      headers: at.headers ?? {},
      body: null,
      kind: 'binary',
      bytes: 0,
      charset: null,
      fromCache: false,
      tier,
      fetchedAt: this.ctx.clock.now().getTime(),
      elapsedMs: performance.now() - started,
      error: { code, message },
    };
  }
}

