import type { z } from 'zod';
import { pricing, type Price } from '../credits/pricing.js';
import type { WorkflowStep } from './schemas.js';

export type Step = z.output<typeof WorkflowStep>;

/** The most a crawl of `maxPages` costs at the crawl price for its options. */
export function crawlCost(maxPages: number, config: { extraction_schema?: object; classify_documents?: boolean; intent?: string }): number {
  return pricing.crawlPage(config).credits * maxPages;
}

/** What one step costs at most: a search 1 credit, a crawl its page budget, an aggregate nothing. */
export function stepCost(step: Step): number {
  switch (step.type) {
    case 'search':
      return pricing.fullSearch({}).credits;
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

/**
 * What the execution itself charges. simple: the spec's workflow price (1, or 2 with a
 * natural-language stop); multi_step and ai_planned: the sum of their steps, plus 1 for a
 * natural-language stop condition's judge.
 */
export function executionPrice(w: Priced): Price {
  const simple = pricing.workflowExecution({ naturalLanguageStop: w.naturalLanguageStop });
  if (w.mode === 'simple') return simple;
  const steps = (w.steps ?? []).reduce((s, step) => s + ownStepCost(step), 0);
  return { ...simple, credits: steps + (w.naturalLanguageStop ? 1 : 0) };
}

/** The estimate shown before running: the execution's price plus the most its crawls can cost. */
export function executionEstimate(w: Priced): number {
  const own = executionPrice(w).credits;
  if (w.mode === 'simple') {
    if (w.workflowType !== 'crawl') return own;
    const config = (w.operationConfig ?? {}) as { max_pages?: number; extraction_schema?: object; classify_documents?: boolean; intent?: string };
    return own + crawlCost(config.max_pages ?? 10, config);
  }
  return own + (w.steps ?? []).reduce((s, step) => s + (step.type === 'crawl' ? stepCost(step) : 0), 0);
}
