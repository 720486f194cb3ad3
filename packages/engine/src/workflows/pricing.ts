import type { z } from 'zod';
import { pricing, type Price } from '../credits/pricing.js';
import type { WorkflowStep } from './schemas.js';
import { decomposeQuery } from './decompose.js';

export type Step = z.output<typeof WorkflowStep>;

/** The most a crawl of `maxPages` costs at the crawl price for its options. */
export function crawlCost(maxPages: number, config: { extraction_schema?: object; classify_documents?: boolean; intent?: string; render?: string }): number {
  return pricing.crawlPage(config).credits * maxPages;
}

/** The searches a search step runs: its query, or each sub-query under query_decomposition. */
export function stepQueries(step: Extract<Step, { type: 'search' }>): string[] {
  return step.config.query_decomposition ? decomposeQuery(step.config.query) : [step.config.query];
}

/** What one step costs at most: a search 1 credit per query it runs, a crawl its page budget, an aggregate nothing. */
export function stepCost(step: Step): number {
  switch (step.type) {
    case 'search':
      return pricing.fullSearch({}).credits * stepQueries(step).length;
    case 'crawl':
      return crawlCost(step.config.max_pages, step.config);
    case 'aggregate':
      return 0;
  }
}

/** The part of a step the execution pays itself; a crawl step's pages are charged by its own crawl job. */
export function ownStepCost(step: Step): number {
  return step.type === 'crawl' ? 0 : stepCost(step);
}

interface Priced {
  mode: string;
  workflowType: string | null;
  operationConfig: Record<string, unknown> | null;
  steps: Step[] | null;
  naturalLanguageStop: boolean;
}

/** Judging a natural-language stop condition costs this on top of the operation. */
const JUDGE = 1;

/**
 * What the execution itself charges: its operation's price plus 1 for a natural-language stop
 * condition's judge. A simple search patrol's operation is the full search its operation_config
 * describes (1 basic, 2 with rerank_results or generate_suggestions); a simple crawl patrol's is
 * the spec's 1-credit execution (its pages are charged by its crawl job); multi_step and
 * ai_planned pay the sum of their steps.
 */
export function executionPrice(w: Priced): Price {
  const judge = w.naturalLanguageStop ? ['natural_language_stop_condition'] : [];
  if (w.mode === 'simple' && w.workflowType === 'search') {
    const config = w.operationConfig ?? {};
    const search = pricing.fullSearch({ rerank_results: config.rerank_results === true, generate_suggestions: config.generate_suggestions === true });
    return withFeatures(search.credits + judge.length * JUDGE, [...search.advanced_features, ...judge]);
  }
  // The crawl's pages are paid by its job, but their advanced features are part of what the execution ran.
  if (w.mode === 'simple') {
    const own = pricing.workflowExecution({ naturalLanguageStop: w.naturalLanguageStop });
    return withFeatures(own.credits, [...pricing.crawlPage(w.operationConfig ?? {}).advanced_features, ...own.advanced_features]);
  }
  const steps = (w.steps ?? []).reduce((s, step) => s + ownStepCost(step), 0);
  const pageFeatures = (w.steps ?? []).flatMap((step) => (step.type === 'crawl' ? pricing.crawlPage(step.config).advanced_features : []));
  return withFeatures(steps + judge.length * JUDGE, [...new Set(pageFeatures), ...judge]);
}

const withFeatures = (credits: number, features: string[]): Price => ({
  credits,
  pricing_tier: features.length > 0 ? 'advanced' : 'basic',
  advanced_features: features,
});

interface CrawlBound {
  urls?: string[];
  max_pages?: number;
  expansion?: string;
  follow_links?: boolean;
}

/**
 * The most pages a crawl can fetch: max_pages, and without expansion only its distinct seeds
 * (`seeds`, or the seed list itself when not given).
 */
export function crawlPageBound(config: CrawlBound, seeds = new Set(config.urls ?? []).size): number {
  const maxPages = config.max_pages ?? 10;
  const expands = (config.expansion ?? 'none') !== 'none' || config.follow_links === true;
  return expands ? maxPages : Math.min(maxPages, seeds);
}

/** Patrol crawl steps take at most this many seed URLs. */
export const MAX_STEP_SEEDS = 100;

/** The step key a crawl step's `{{key}}` URL stands for (every URL that step produced), or undefined for a plain URL. */
export function referencedKey(url: string): string | undefined {
  return /^\{\{\s*([\w-]+)\s*\}\}$/.exec(url)?.[1];
}

/**
 * The most results a step can hand on: a search its max_results, a crawl its page bound, an
 * aggregate what its dependencies produce together.
 */
function outputBound(step: Step, byId: Map<string, Step>, depth = 0): number {
  if (depth > byId.size) return 0;
  switch (step.type) {
    case 'search':
      return step.config.max_results * stepQueries(step).length;
    case 'crawl': {
      // Crawl steps never expand: their pages are their seeds, a `{{key}}` standing for every URL that step produced.
      const seeds = step.config.urls.reduce((n, url) => {
        const ref = referencedKey(url);
        if (ref === undefined) return n + 1;
        const source = [...byId.values()].find((s) => s.output_key === ref || s.id === ref);
        return n + (source ? outputBound(source, byId, depth + 1) : 0);
      }, 0);
      return crawlPageBound({ max_pages: step.config.max_pages }, Math.min(MAX_STEP_SEEDS, seeds));
    }
    case 'aggregate':
      return (step.depends_on ?? []).reduce((n, id) => n + (byId.has(id) ? outputBound(byId.get(id)!, byId, depth + 1) : 0), 0);
  }
}

/** The estimate shown before running: the execution's price plus the most its crawls can cost. */
export function executionEstimate(w: Priced): number {
  const own = executionPrice(w).credits;
  if (w.mode === 'simple') {
    if (w.workflowType !== 'crawl') return own;
    const config = (w.operationConfig ?? {}) as CrawlBound & { extraction_schema?: object; classify_documents?: boolean; intent?: string };
    return own + crawlCost(crawlPageBound(config), config);
  }
  const steps = w.steps ?? [];
  const byId = new Map(steps.map((s) => [s.id, s]));
  return own + steps.reduce((s, step) => s + (step.type === 'crawl' ? crawlCost(outputBound(step, byId), step.config) : 0), 0);
}
