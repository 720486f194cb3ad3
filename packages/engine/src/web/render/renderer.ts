import type { BrowserContext, Page } from 'playwright-core';
import type { FetchedPage, RenderMode } from '../types.js';
import { forward, type ForwardDeps } from './forward.js';
import type { ResolvedRenderOptions } from './options.js';
import { BrowserPool, emptyStats, type RenderStats } from './pool.js';
import { looksLikeShell, PAST_SHELL_TEXT_CHARS, visibleText } from './shell.js';
import { untilAborted } from './until-aborted.js';

/** Nothing a text reader needs, and most of a page's bytes. */
const BLOCKED_TYPES = new Set(['image', 'font', 'media']);
/** The network must stay quiet this long before the page counts as settled . */
const QUIET_MS = 300;
/** ... but no longer than this per wait: a page that polls forever still settles. */
const SETTLE_CAP_MS = 5_000;
/** How long a page still showing its shell once the network is quiet is given to change (a timer, a slow machine). */
const SHELL_WAIT_CAP_MS = 5_000;

// Run inside the page (strings: the engine is compiled without the DOM library).
const GROWTH = 'document.body ? document.body.innerText.length + document.querySelectorAll("a[href]").length : 0';
const DOCUMENT = 'document.documentElement.outerHTML';
/** The document, unless its text alone says it is no shell: a large rendered page is not sent over twice (its content is read at the end). */
const DOCUMENT_IF_SHORT = `document.body && document.body.innerText.length > ${PAST_SHELL_TEXT_CHARS} ? null : ${DOCUMENT}`;
/** Resolves at once when the document is no longer the `seenLength` characters last read, else at its next change, or after `capMs`. */
const nextChange = (seenLength: number, capMs: number) => `new Promise((resolve) => {
  if (${DOCUMENT}.length !== ${seenLength}) return resolve(true);
  const observer = new MutationObserver(() => { observer.disconnect(); resolve(true); });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
  setTimeout(() => { observer.disconnect(); resolve(false); }, ${Math.round(capMs)});
})`;
const SCROLL_AND_LOAD_MORE = `(() => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  const more = [...document.querySelectorAll('button, [role=button]')].find(
    (b) => /\\b(load|show|see) more\\b|more results/i.test(b.textContent || '') && !b.disabled && b.offsetParent !== null);
  if (more) more.click();
  return Boolean(more);
})()`;

/**
 * The rendering tier: turns a statically fetched HTML page into what a browser shows after its
 * scripts ran. The static fetch stays the first step (robots.txt, redirects, politeness, the
 * address policy and the cache all applied there) and its body is handed to the browser as the
 * document, so the page is never downloaded twice; every further request the page makes goes
 * through `forward` (the plain fetcher's guard and gate).
 */
export class Renderer {
  readonly stats: RenderStats = emptyStats();
  private readonly pool: BrowserPool | null;

  constructor(
    private readonly options: ResolvedRenderOptions,
    private readonly deps: ForwardDeps,
  ) {
    const { chromiumPath } = options;
    this.pool = chromiumPath ? new BrowserPool({ ...options, chromiumPath }, this.stats) : null;
  }

  get available(): boolean {
    return this.pool !== null;
  }

  /** Contexts rendering at once (after the memory bound); 0 without a browser. */
  get slots(): number {
    return this.pool?.slots ?? 0;
  }

  /** The page as `mode` wants it: untouched, or rendered (with `rendering` saying what happened). */
  async apply(page: FetchedPage, mode: RenderMode, signal?: AbortSignal): Promise<FetchedPage> {
    if (mode === 'never' || page.error || page.kind !== 'html' || page.body === null) return page;
    let reason = 'render: always';
    if (mode === 'auto') {
      const verdict = looksLikeShell(page.body);
      if (!verdict.shell) return page;
      reason = `application shell: ${verdict.reason}`;
    }
    if (!this.pool) {
      const note = 'render_unavailable: no Chromium on this server (WVR_CHROMIUM_PATH); the static HTML was kept';
      if (mode === 'always') return { ...page, body: null, rendering: { mode, rendered: false, note }, error: { code: 'render_unavailable', message: note } };
      return { ...page, rendering: { mode, rendered: false, note } };
    }
    try {
      const html = await this.render(this.pool, page, signal);
      return { ...page, body: html, bytes: Buffer.byteLength(html), rendering: { mode, rendered: true, note: reason } };
    } catch (error) {
      this.stats.render_failures++;
      const message = `rendering failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
      if (mode === 'always') return { ...page, body: null, rendering: { mode, rendered: false, note: message }, error: { code: 'render_failed', message } };
      return { ...page, rendering: { mode, rendered: false, note: `${message}; the static HTML was kept` } };
    }
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }

  private render(pool: BrowserPool, page: FetchedPage, signal?: AbortSignal): Promise<string> {
    return pool.withContext(
      this.deps.userAgent,
      async (context) => {
        // The page's time starts once it has a context, not while it waits for one.
        const { pageTimeoutMs } = this.options;
        const deadline = performance.now() + pageTimeoutMs;
        const stop = new AbortController();
        const cancel = () => stop.abort(signal?.reason);
        signal?.addEventListener('abort', cancel, { once: true });
        const timer = setTimeout(() => stop.abort(new Error(`the page did not settle within ${pageTimeoutMs} ms`)), pageTimeoutMs);
        try {
          const html = await untilAborted(this.drive(context, page, deadline, stop.signal), stop.signal);
          this.stats.pages_rendered++;
          return html;
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener('abort', cancel);
          // Requests the page still has in flight are dropped with it.
          stop.abort();
        }
      },
      signal,
    );
  }

  /** Loads the page in `context`, lets it settle and load more, and reads its HTML. */
  private async drive(context: BrowserContext, page: FetchedPage, deadline: number, signal: AbortSignal): Promise<string> {
    const remaining = () => Math.max(1, deadline - performance.now());
    let served = false;
    const network = new NetworkQuiet();
    await context.route('**/*', async (route) => {
      const request = route.request();
      if (BLOCKED_TYPES.has(request.resourceType())) {
        this.stats.requests_blocked++;
        return route.abort('blockedbyclient').catch(() => undefined);
      }
      // The first document is the one the static fetch already holds.
      if (!served && request.isNavigationRequest()) {
        served = true;
        return route.fulfill({ status: page.status, contentType: 'text/html; charset=utf-8', body: page.body ?? '' }).catch(() => undefined);
      }
      const outcome = await network.track(forward(route, this.deps, signal));
      if (outcome === 'refused') this.stats.requests_refused++;
      else if (outcome === 'forwarded') this.stats.requests_forwarded++;
    });
    // WebSockets bypass route(): left alone, the browser would open them itself, to any address
    // (the SSRF guard never sees them). A text reader needs none, so every one is refused unopened.
    await context.routeWebSocket(
      () => true,
      (socket) => {
        this.stats.requests_refused++;
        socket.close({ code: 1008, reason: 'WebSockets are not opened by the wvr renderer' });
      },
    );
    const tab = await context.newPage();
    tab.setDefaultTimeout(this.options.pageTimeoutMs);
    await tab.goto(page.url, { waitUntil: 'load', timeout: remaining() });
    await network.settle(Math.min(SETTLE_CAP_MS, remaining()));
    // Quiet is not done while the page still shows the shell it was sent as: its script may be waiting on a timer, or
    // only be slow to run on a loaded machine, and what it was rendered for comes at its next change.
    const settled = (await tab.evaluate(DOCUMENT_IF_SHORT)) as string | null;
    const unchanged = settled !== null && looksLikeShell(settled).shell && visibleText(settled) === visibleText(page.body ?? '');
    if (unchanged && (await tab.evaluate(nextChange(settled.length, Math.min(SHELL_WAIT_CAP_MS, remaining()))))) {
      network.touch();
      await network.settle(Math.min(SETTLE_CAP_MS, remaining()));
    }
    await this.loadMore(tab, network, remaining);
    return tab.content();
  }

  /** Infinite scroll and "load more" buttons: scroll and click until the page stops growing. */
  private async loadMore(tab: Page, network: NetworkQuiet, remaining: () => number): Promise<void> {
    let size = (await tab.evaluate(GROWTH)) as number;
    for (let round = 0; round < this.options.maxScrollRounds && remaining() > 1; round++) {
      await tab.evaluate(SCROLL_AND_LOAD_MORE);
      network.touch();
      await network.settle(Math.min(SETTLE_CAP_MS, remaining()));
      const next = (await tab.evaluate(GROWTH)) as number;
      if (next <= size) return;
      size = next;
    }
  }
}

/** Requests in flight and the time of the last activity, for "the page has settled". */
class NetworkQuiet {
  private inFlight = 0;
  private last = performance.now();

  touch(): void {
    this.last = performance.now();
  }

  async track<T>(work: Promise<T>): Promise<T> {
    this.inFlight++;
    this.touch();
    try {
      return await work;
    } finally {
      this.inFlight--;
      this.touch();
    }
  }

  /** Resolves once nothing was in flight for QUIET_MS, or after capMs. */
  async settle(capMs: number): Promise<void> {
    const until = performance.now() + capMs;
    while (performance.now() < until) {
      if (this.inFlight === 0 && performance.now() - this.last >= QUIET_MS) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
