import { freemem } from 'node:os';
import PQueue from 'p-queue';
import type { Browser, BrowserContext } from 'playwright-core';
import { PER_CONTEXT_MB, type ResolvedRenderOptions } from './options.js';
import { untilAborted } from './until-aborted.js';

/** Flags that keep a headless Chromium quiet and self-contained on a server. */
const LAUNCH_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--mute-audio',
  // WebRTC's UDP (STUN/ICE) goes around the request routing that holds the address policy: no UDP but through a proxy, and there is none.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

export interface RenderStats {
  /** Chromium processes started (a crashed browser is started again on the next render). */
  browser_launches: number;
  /** Pages rendered to the end. */
  pages_rendered: number;
  render_failures: number;
  /** Images, fonts and media the pages asked for, refused without fetching. */
  requests_blocked: number;
  /** Requests refused by the address policy (private, loopback, link-local...). */
  requests_refused: number;
  /** Requests sent on through the plain fetcher's pool. */
  requests_forwarded: number;
  /** The most contexts open at once. */
  contexts_peak: number;
}

export const emptyStats = (): RenderStats => ({
  browser_launches: 0,
  pages_rendered: 0,
  render_failures: 0,
  requests_blocked: 0,
  requests_refused: 0,
  requests_forwarded: 0,
  contexts_peak: 0,
});

/**
 * One Chromium per engine, started on the first render only, and a bounded number of browser
 * contexts: each render gets a fresh context (no cookies or storage shared between pages or
 * users) and the queue caps how many exist at once, by count and by memory.
 */
export class BrowserPool {
  readonly slots: number;
  private readonly queue: PQueue;
  private browser: Promise<Browser> | null = null;
  private open = 0;

  constructor(
    private readonly options: ResolvedRenderOptions & { chromiumPath: string },
    private readonly stats: RenderStats,
  ) {
    const byBudget = Math.floor(options.memoryBudgetMb / PER_CONTEXT_MB);
    // Half of what is free now: a renderer must not push the machine into swap.
    const byFree = Math.floor(freemem() / 1024 / 1024 / 2 / PER_CONTEXT_MB);
    this.slots = Math.max(1, Math.min(options.maxContexts, byBudget, byFree));
    this.queue = new PQueue({ concurrency: this.slots });
  }

  /** Runs `task` in a fresh context once a slot is free; the context is closed afterwards whatever happens. */
  withContext<T>(userAgent: string, task: (context: BrowserContext) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.queue.add(
      async () => {
        const launched = this.launched();
        const browser = await launched;
        const context = await this.answered(launched, 'open a context', browser.newContext({ userAgent, serviceWorkers: 'block', acceptDownloads: false, javaScriptEnabled: true }));
        this.open++;
        this.stats.contexts_peak = Math.max(this.stats.contexts_peak, this.open);
        try {
          return await task(context);
        } finally {
          this.open--;
          await this.answered(launched, 'close a context', context.close()).catch(() => undefined);
        }
      },
      { signal },
    ) as Promise<T>;
  }

  async close(): Promise<void> {
    this.queue.clear();
    const browser = this.browser;
    this.browser = null;
    if (browser) await this.answered(browser, 'close', browser.then((b) => b.close(), () => undefined)).catch(() => undefined);
  }

  /**
   * `call` to the browser, or an error once it has gone unanswered as long as a page may take: a browser
   * that stops answering (hung, or stopped by the system) would otherwise hold its slot, and every render
   * queued behind it, for good. Such a browser is let go and the next render starts a new one.
   */
  private async answered<T>(launched: Promise<Browser>, what: string, call: Promise<T>): Promise<T> {
    const { pageTimeoutMs } = this.options;
    try {
      return await untilAborted(call, AbortSignal.timeout(pageTimeoutMs));
    } catch (error) {
      if ((error as Error | undefined)?.name !== 'TimeoutError') throw error;
      // Forgotten if it is still this pool's; its close is not waited for (it may never come).
      if (this.browser === launched) this.browser = null;
      void launched.then((b) => b.close()).catch(() => undefined);
      throw new Error(`the browser did not ${what} within ${pageTimeoutMs} ms; it was let go`);
    }
  }

  private launched(): Promise<Browser> {
    if (!this.browser) {
      const starting = this.launch();
      this.browser = starting;
      // Neither a failed launch nor a browser that went away is kept: the next render starts another.
      const forget = () => {
        if (this.browser === starting) this.browser = null;
      };
      starting.then((browser) => browser.on('disconnected', forget), forget);
    }
    return this.browser;
  }

  private async launch(): Promise<Browser> {
    this.stats.browser_launches++;
    // launch() (not launchPersistentContext) gives the browser a fresh temporary profile, removed on close.
    // Loaded on the first render only: playwright-core costs about 80 MB of RSS in every process that imports it.
    const { chromium } = await import('playwright-core');
    return chromium.launch({
      executablePath: this.options.chromiumPath,
      headless: true,
      chromiumSandbox: false,
      args: LAUNCH_ARGS,
      timeout: 30_000,
    });
  }
}
