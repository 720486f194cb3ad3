/** How pages are rendered; defaults in docs/rendering.md. */
export interface RenderOptions {
  /**
   * The Chromium (or Chrome) executable. Default: `WVR_CHROMIUM_PATH`, else the first of the usual
   * paths that exists. `null` means "no browser": `auto` stays static, `always` is refused.
   */
  chromiumPath?: string | null;
  /** Browser contexts (one page each) rendering at once, across the whole engine. */
  maxContexts?: number;
  /**
   * Memory the renderer may assume for its contexts; with PER_CONTEXT_MB per context this caps
   * maxContexts on small machines (and so does half of the memory free at launch).
   */
  memoryBudgetMb?: number;
  /** One page's navigation, scripts and "load more" rounds together. */
  pageTimeoutMs?: number;
  /** Scroll / "load more" rounds after the load, for pages that add content as one reads. */
  maxScrollRounds?: number;
}
