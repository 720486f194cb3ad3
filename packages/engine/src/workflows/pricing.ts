import type { z } from 'zod';
import { pricing, type Price } from '../credits/pricing.js';
import type { WorkflowStep } from './schemas.js';

export type Step = z.output<typeof WorkflowStep>;

/** What one step costs at most: a search 1 credit, a crawl its page budget, an aggregate nothing. */
export function stepCost(step: Step): number {
  switch (step.type) {
    case 'search':
      return pricing.fullSearch({}).credits;
    case 'crawl':
      return pricing.crawlPage({ extraction_schema: step.config.extraction_schema }).credits * step.config.max_pages;
    case 'aggregate':
      return 0;
  }
}

/**
 * simple: the spec's workflow price (1, or 2 with a natural-language stop); multi_step and
 * ai_planned: the sum of their steps, plus 1 for a natural-language stop condition's judge.
 */
export function executionPrice(w: { mode: string; steps: Step[] | null; naturalLanguageStop: boolean }): Price {
  const simple = pricing.workflowExecution({ naturalLanguageStop: w.naturalLanguageStop });
  if (w.mode === 'simple') return simple;
  const steps = (w.steps ?? []).reduce((s, step) => s + stepCost(step), 0);
  return { ...simple, credits: steps + (w.naturalLanguageStop ? 1 : 0) };
}
