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

  it('estimates an expanding crawl workflow with max_pages at the crawl price', () => {
    const seed = { urls: ['http://a.test/'], max_pages: 5 };
    expect(executionEstimate(simple('crawl', false, { ...seed, expansion: 'internal' }))).toBe(6);
    expect(executionEstimate(simple('crawl', false, { ...seed, follow_links: true, extraction_schema: { price: 'the price' } }))).toBe(11);
  });

  it('estimates a crawl without expansion by its distinct seeds, at most max_pages', () => {
    const seeds = ['http://a.test/1', 'http://a.test/2', 'http://a.test/2'];
    expect(executionEstimate(simple('crawl', false, { urls: seeds, max_pages: 3 }))).toBe(3);
    expect(executionEstimate(simple('crawl', false, { urls: seeds, max_pages: 1, expansion: 'none' }))).toBe(2);
    expect(executionEstimate(simple('crawl', true, { urls: seeds, max_pages: 3, classify_documents: true }))).toBe(6);
  });

  it('prices a search patrol as its search plus 1 for a natural_language judge', () => {
    expect(executionPrice(simple('search', false, { query: 'q', rerank_results: true }))).toEqual({ credits: 2, pricing_tier: 'advanced', advanced_features: ['rerank_results'] });
    expect(executionPrice(simple('search', true, { query: 'q', generate_suggestions: true }))).toEqual({
      credits: 3,
      pricing_tier: 'advanced',
      advanced_features: ['generate_suggestions', 'natural_language_stop_condition'],
    });
    expect(executionPrice(simple('search', false, { query: 'q', generate_summary: true, source_type: 'news' }))).toEqual({ credits: 1, pricing_tier: 'basic', advanced_features: [] });
    expect(executionEstimate(simple('search', true, { query: 'q', rerank_results: true }))).toBe(3);
  });

  it('reports the advanced page features a crawl patrol or crawl step paid for', () => {
    expect(executionPrice(simple('crawl', false, { urls: ['http://a.test/'], extraction_schema: { price: 'the price of the product' } }))).toEqual({
      credits: 1,
      pricing_tier: 'advanced',
      advanced_features: ['extraction_schema'],
    });
    const steps = [{ id: 'c', type: 'crawl' as const, config: { urls: ['http://a.test/'], max_pages: 2, extraction_schema: { price: 'the price of the product' } } }];
    expect(executionPrice({ mode: 'multi_step', workflowType: null, operationConfig: null, naturalLanguageStop: true, steps })).toEqual({
      credits: 1,
      pricing_tier: 'advanced',
      advanced_features: ['extraction_schema', 'natural_language_stop_condition'],
    });
  });

  it('bounds a crawl step by the results the step it reads from can produce', () => {
    const w = {
      mode: 'multi_step',
      workflowType: null,
      operationConfig: null,
      naturalLanguageStop: false,
      steps: [
        { id: 's', type: 'search' as const, output_key: 'found', config: { query: 'x', max_results: 3, query_decomposition: false } },
        { id: 'c', type: 'crawl' as const, config: { urls: ['{{found}}', 'http://b.test/'], max_pages: 50 } },
      ],
    };
    expect(executionEstimate(w)).toBe(1 + 4);
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
