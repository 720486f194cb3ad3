/**
 * Type tests: `pnpm typecheck` compiles this file, so each expectTypeOf and each @ts-expect-error
 * is checked in CI; vitest runs it too (the assertions are no-ops at run time).
 */
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createClient, paginate, WvrApiError, type ErrorCode, type components } from './index.js';

type S = components['schemas'];
const wvr = createClient({ baseUrl: 'http://127.0.0.1:1' });
// The calls below are only type-checked: at run time each test returns before making them.
const typesOnly = true as boolean;

describe('SDK types follow the contract', () => {
  it('tells real results from dry runs', () => {
    if (typesOnly) return;
    expectTypeOf(wvr.crawls.create({ urls: ['https://example.com'] })).resolves.toEqualTypeOf<S['CrawlDetail']>();
    expectTypeOf(wvr.crawls.create({ urls: ['https://example.com'], dry_run: true })).resolves.toEqualTypeOf<S['CrawlDryRun']>();
    const maybe = Math.random() > 0.5;
    expectTypeOf(wvr.crawls.create({ urls: ['https://example.com'], dry_run: maybe })).resolves.toEqualTypeOf<S['CrawlDetail'] | S['CrawlDryRun']>();
    expectTypeOf(wvr.search.search({ query: 'q' })).resolves.toEqualTypeOf<S['SearchJob']>();
    expectTypeOf(wvr.search.search({ query: 'q', dry_run: true })).resolves.toEqualTypeOf<S['SearchDryRun']>();
    expectTypeOf(wvr.sessions.crawl('s', { urls: ['https://example.com'] })).resolves.toEqualTypeOf<S['CrawlDetail']>();
    // @ts-expect-error: an unknown field is refused, as the server does.
    void wvr.crawls.create({ urls: ['https://example.com'], max_pagez: 3 });
  });

  it('polls a crawl with the light progress read, and watches it with the same', () => {
    if (typesOnly) return;
    expectTypeOf(wvr.crawls.progress('c', { best_pages: 3 })).resolves.toEqualTypeOf<S['CrawlProgress']>();
    expectTypeOf(wvr.crawls.watch('c')).toEqualTypeOf<AsyncGenerator<S['CrawlProgress'], S['CrawlProgress']>>();
    // @ts-expect-error: a progress read carries no documents.
    void wvr.crawls.progress('c').then((p) => p.documents);
  });

  it('returns a workflow that is not nullable unless it was a dry run', () => {
    if (typesOnly) return;
    const body = { name: 'w', workflow_type: 'search', operation_config: { query: 'q' }, interval: '1 day' } as const;
    expectTypeOf(wvr.workflows.create(body)).resolves.toHaveProperty('workflow').toEqualTypeOf<S['Workflow']>();
    expectTypeOf(wvr.workflows.create({ ...body, dry_run: true })).resolves.toHaveProperty('workflow').toEqualTypeOf<null>();
    expectTypeOf(wvr.workflows.execute('w')).resolves.toHaveProperty('execution').toEqualTypeOf<S['WorkflowExecution']>();
    expectTypeOf(wvr.workflows.execute('w', { dry_run: true })).resolves.toHaveProperty('execution').toEqualTypeOf<null>();
  });

  it('keeps each list’s query typed through paginate', () => {
    if (typesOnly) return;
    expectTypeOf(paginate(wvr.crawls.list, { status: 'completed' })).toEqualTypeOf<AsyncGenerator<S['CrawlJob']>>();
    expectTypeOf(paginate(wvr.workflows.list, { status: 'active' })).toEqualTypeOf<AsyncGenerator<S['Workflow']>>();
    expectTypeOf(paginate(wvr.sessions.list)).toEqualTypeOf<AsyncGenerator<S['Session']>>();
    // @ts-expect-error: not a crawl status.
    void paginate(wvr.crawls.list, { status: 'finished' });
  });

  it('types error codes as the documented union', () => {
    expectTypeOf<WvrApiError['code']>().toEqualTypeOf<ErrorCode | undefined>();
    expectTypeOf<'token_revoked'>().toExtend<ErrorCode>();
    expectTypeOf<'query_too_long'>().toExtend<ErrorCode>();
    expectTypeOf<'crawl_not_found'>().toExtend<ErrorCode>();
    expectTypeOf<'no_such_code'>().not.toExtend<ErrorCode>();
    expectTypeOf<WvrApiError['error']>().toEqualTypeOf<S['ErrorType'] | 'http_error'>();
  });

  it('infers extracted_data from a zod schema, and keeps it unknown-safe without one', () => {
    if (typesOnly) return;
    const Product = z.object({ name: z.string().describe('the product name'), price: z.number().nullable().describe('the price') });
    expectTypeOf(wvr.extraction.extract('https://example.com', Product)).resolves.toHaveProperty('extracted_data').toEqualTypeOf<{ name: string; price: number | null }>();
    expectTypeOf(wvr.extraction.preview({ url: 'https://example.com', extraction_schema: { name: 'the name' } }))
      .resolves.toHaveProperty('extracted_data')
      .toEqualTypeOf<S['ExtractionPreview']['extracted_data']>();
    expectTypeOf<S['CrawlDocument']['extracted_data']>().toEqualTypeOf<{ [key: string]: unknown } | undefined>();
  });
});
