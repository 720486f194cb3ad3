import { describe, expect, it } from 'vitest';
import { executionEstimate, executionPrice } from './pricing.js';

const simple = (workflowType: 'search' | 'crawl', naturalLanguageStop = false, operationConfig: Record<string, unknown> = {}) => ({
  mode: 'simple',
  workflowType,
  operationConfig,
  steps: null,
  naturalLanguageStop,
});

describe('workflow pricing', () => {
  it('charges 1 credit for a simple execution and 2 with a natural_language stop', () => {
    expect(executionPrice(simple('search')).credits).toBe(1);
    expect(executionPrice(simple('search', true))).toMatchObject({ credits: 2, pricing_tier: 'advanced', advanced_features: ['natural_language_stop_condition'] });
  });

  it('estimates a crawl workflow with the most its crawl can cost', () => {
    expect(executionEstimate(simple('crawl', false, { max_pages: 5 }))).toBe(6);
    expect(executionEstimate(simple('crawl', false, { max_pages: 5, extraction_schema: { price: 'the price' } }))).toBe(11);
  });

  it('sums the steps of a multi_step execution', () => {
    const w = {
      mode: 'multi_step',
      workflowType: null,
      operationConfig: null,
      naturalLanguageStop: true,
      steps: [
        { id: 'a', type: 'search' as const, config: { query: 'x', max_results: 10, query_decomposition: false } },
        { id: 'b', type: 'search' as const, config: { query: 'y', max_results: 10, query_decomposition: false } },
        { id: 'c', type: 'crawl' as const, config: { urls: ['{{a}}'], max_pages: 4 } },
        { id: 'd', type: 'aggregate' as const, config: { aggregation_type: 'merge' as const, format: 'json' as const } },
      ],
    };
    expect(executionPrice(w).credits).toBe(3);
    expect(executionEstimate(w)).toBe(7);
  });
});
