/**
 * The spec's credit pricing table, in one place. Every charged operation asks this module
 * what it costs; nothing else in the engine knows a price.
 */
export type PricingTier = 'basic' | 'advanced';

export interface Price {
  credits: number;
  pricing_tier: PricingTier;
  advanced_features: string[];
}

/** The spec's advanced crawl price per page. */
const ADVANCED_PAGE = 2;

const basic = (credits: number): Price => ({ credits, pricing_tier: 'basic', advanced_features: [] });
const tiered = (basicCredits: number, advancedCredits: number, features: string[]): Price =>
  features.length > 0
    ? { credits: advancedCredits, pricing_tier: 'advanced', advanced_features: features }
    : basic(basicCredits);

const enabled = (flags: Record<string, unknown>) =>
  Object.entries(flags)
    .filter(([, on]) => on === true)
    .map(([name]) => name);

export const pricing = {
  quickSearch: (): Price => basic(1),

  fullSearch: (opts: { rerank_results?: boolean; generate_suggestions?: boolean }): Price =>
    tiered(1, 2, enabled({ rerank_results: opts.rerank_results, generate_suggestions: opts.generate_suggestions })),

  /** Per page. */
  crawlPage: (opts: {
    classify_documents?: boolean;
    extraction_schema?: object;
    classifiers?: unknown[];
    intent?: string;
    /** `always` prices every page as rendered; under `auto` only the pages that were rendered are (renderedPageCredits). */
    render?: string;
  }): Price =>
    tiered(
      1,
      2,
      enabled({
        classify_documents: opts.classify_documents,
        extraction_schema: opts.extraction_schema !== undefined,
        classifiers: (opts.classifiers?.length ?? 0) > 0,
        intent: opts.intent !== undefined,
        render: opts.render === 'always',
      }),
    ),

  /**
   * Not in the spec's table: a page rendered in headless Chromium is priced at the advanced tier
   * (2 credits a crawl page, as the spec's advanced crawl), whatever else the request asked;
   * advanced features do not stack.
   */
  renderedPageCredits: (perPage: number): number => Math.max(perPage, ADVANCED_PAGE),

  /** A one-page read (extraction preview, brand) that rendered its page: the advanced tier, 2 credits. */
  renderedRead: (): Price => ({ credits: ADVANCED_PAGE, pricing_tier: 'advanced', advanced_features: ['render'] }),

  /** A page served from the global cache costs half; halves are summed per job and rounded up. */
  cachedPagesCost: (pages: number, perPage: number): number => Math.ceil((pages * perPage) / 2),

  extractionPreview: (): Price => basic(1),

  ask: (depth: 'quick' | 'standard' | 'deep'): Price & { max_credits: number } => {
    const table = { quick: 2, standard: 3, deep: 5 } as const;
    // Deep reads more sources as it goes; it never spends past this stated maximum.
    return { ...basic(table[depth]), max_credits: depth === 'deep' ? 10 : table[depth] };
  },

  workflowExecution: (opts: { naturalLanguageStop: boolean }): Price =>
    tiered(1, 2, enabled({ natural_language_stop_condition: opts.naturalLanguageStop })),

  planPreview: (preset: 'quick' | 'standard' | 'thorough' | 'comprehensive'): Price =>
    basic({ quick: 10, standard: 30, thorough: 50, comprehensive: 100 }[preset]),

  /** Not in the spec's table: reading one page and its stylesheets costs what an extraction preview does. */
  brandDesignSystem: (): Price => basic(1),

  /**
   * Not in the spec's table: a map reads sitemaps and at most a few pages, the work of a quick
   * search, so it costs what one does (1 credit per call, however many URLs it lists).
   */
  map: (): Price => basic(1),

  intentAssessment: (): Price => basic(0),
  filterSeenUrls: (): Price => basic(0),
  summary: (): Price => basic(0),
} as const;

/** A price as prose ("1 credit", "3 credits"), for descriptions and help that quote this table. */
export const creditsText = (credits: number): string => `${credits} credit${credits === 1 ? '' : 's'}`;
