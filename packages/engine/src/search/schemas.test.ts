import { describe, expect, it } from 'vitest';
import { parseInput } from '../core/validate.js';
import { expectRejected, type RejectionCase } from '../testing/validation.js';
import { QuickSearchBody, SearchBody, SearchJobListQuery } from './schemas.js';

describe('search request', () => {
  it('applies the spec defaults', () => {
    expect(parseInput(SearchBody, { query: 'rust web frameworks' })).toEqual({
      query: 'rust web frameworks',
      max_results: 10,
      rerank_results: false,
      generate_suggestions: false,
      generate_summary: true,
      processing_mode: 'async',
      dry_run: false,
    });
  });

  const cases: RejectionCase[] = [
    ['a missing query', {}, 'query_required', 'query'],
    ['a query over 1000 characters', { query: 'q'.repeat(1001) }, 'query_too_long', 'query'],
    ['max_results of 0', { query: 'x', max_results: 0 }, 'max_results_out_of_range', 'max_results'],
    ['max_results of 21', { query: 'x', max_results: 21 }, 'max_results_out_of_range', 'max_results'],
    ['an unknown source_type', { query: 'x', source_type: 'blogs' }, 'source_type_invalid', 'source_type'],
    ['a session_id that is not a uuid', { query: 'x', session_id: 'abc' }, 'session_id_invalid_format', 'session_id'],
    ['webhook mode without a webhook_url', { query: 'x', processing_mode: 'webhook' }, 'webhook_url_required', 'webhook_url'],
    ['a webhook_url that is not http(s)', { query: 'x', webhook_url: 'ftp://x.test/' }, 'webhook_url_invalid_format', 'webhook_url'],
    ['an unknown field', { query: 'x', colour: 'red' }, 'unknown_field'],
    ['a non-boolean flag', { query: 'x', rerank_results: 'yes' }, 'rerank_results_invalid_type', 'rerank_results'],
  ];
  it.each(cases)('refuses %s', (_label, input, code, path) => expectRejected(SearchBody, input, code, path));
});

describe('quick search request', () => {
  it('accepts domain filters', () => {
    expect(parseInput(QuickSearchBody, { query: 'x', include_domains: ['example.com'] })).toMatchObject({ max_results: 10 });
  });
  it('refuses max_results outside 1 to 20 and long queries', () => {
    expectRejected(QuickSearchBody, { query: 'x', max_results: 50 }, 'max_results_out_of_range', 'max_results');
    expectRejected(QuickSearchBody, { query: 'x'.repeat(1001) }, 'query_too_long', 'query');
  });
});

describe('search job list query', () => {
  it('coerces query-string numbers and defaults', () => {
    expect(parseInput(SearchJobListQuery, { limit: '25' })).toEqual({ limit: 25, offset: 0 });
  });
  it.each([
    ['limit 0', { limit: '0' }, 'limit_out_of_range', 'limit'],
    ['limit 101', { limit: '101' }, 'limit_out_of_range', 'limit'],
    ['a negative offset', { offset: '-1' }, 'offset_out_of_range', 'offset'],
    ['an unknown status', { status: 'done' }, 'status_invalid', 'status'],
  ] as RejectionCase[])('refuses %s', (_l, input, code, path) => expectRejected(SearchJobListQuery, input, code, path));
});
