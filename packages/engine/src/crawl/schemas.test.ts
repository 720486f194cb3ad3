import { describe, expect, it } from 'vitest';
import { parseInput } from '../core/validate.js';
import { expectRejected, type RejectionCase } from '../testing/validation.js';
import { PreviewExtractionBody } from '../extract/schemas.js';
import { CrawlBody, CrawlListQuery, CrawlShareBody } from './schemas.js';

const url = 'https://example.com/';

describe('crawl request', () => {
  it('applies the spec defaults', () => {
    expect(parseInput(CrawlBody, { urls: [url] })).toMatchObject({
      max_pages: 10,
      processing_mode: 'async',
      classify_documents: false,
      generate_summary: false,
      expansion: 'none',
      use_cache: false,
      cache_max_age: 86_400,
      retry_strategy: 'auto',
    });
  });

  const tooManyFields = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, 'the value of this field']));
  const cases: RejectionCase[] = [
    ['no urls', { urls: [] }, 'urls_count_out_of_range', 'urls'],
    ['101 urls', { urls: Array.from({ length: 101 }, (_, i) => `${url}${i}`) }, 'urls_count_out_of_range', 'urls'],
    ['a url that is not http(s)', { urls: ['javascript:alert(1)'] }, 'urls_invalid_format', 'urls.0'],
    ['a seed url over 2,048 characters', { urls: [`${url}${'a'.repeat(2049 - url.length)}`] }, 'urls_too_long', 'urls.0'],
    ['a million-character seed url', { urls: [`${url}${'a'.repeat(1_000_000)}`] }, 'urls_too_long', 'urls.0'],
    ['a seed url with credentials', { urls: ['https://ada:hunter2@example.com/'] }, 'url_credentials_not_allowed', 'urls.0'],
    ['a webhook url with a user name', { urls: [url], webhook_url: 'https://token@hooks.example.com/' }, 'url_credentials_not_allowed', 'webhook_url'],
    ['max_pages 0', { urls: [url], max_pages: 0 }, 'max_pages_out_of_range', 'max_pages'],
    ['max_pages 1001', { urls: [url], max_pages: 1001 }, 'max_pages_out_of_range', 'max_pages'],
    ['sync with 11 pages', { urls: [url], max_pages: 11, processing_mode: 'sync' }, 'sync_max_pages_exceeded', 'max_pages'],
    ['an intent under 10 characters', { urls: [url], intent: 'short' }, 'intent_too_short', 'intent'],
    ['an intent over 2000 characters', { urls: [url], intent: 'x'.repeat(2001) }, 'intent_too_long', 'intent'],
    ['link depth 0', { urls: [url], link_extraction_config: { max_depth: 0 } }, 'max_depth_out_of_range', 'link_extraction_config.max_depth'],
    ['link depth 11', { urls: [url], link_extraction_config: { max_depth: 11 } }, 'max_depth_out_of_range', 'link_extraction_config.max_depth'],
    ['an unknown expansion', { urls: [url], expansion: 'everywhere' }, 'expansion_invalid', 'expansion'],
    ['an unknown retry strategy', { urls: [url], retry_strategy: 'always' }, 'retry_strategy_invalid', 'retry_strategy'],
    ['a negative cache age', { urls: [url], cache_max_age: -1 }, 'cache_max_age_out_of_range', 'cache_max_age'],
    ['auto_generate_intent without a schema', { urls: [url], auto_generate_intent: true }, 'auto_generate_intent_requires_schema', 'auto_generate_intent'],
    ['a schema with a bad key', { urls: [url], extraction_schema: { '1price': 'the price of the product' } }, 'extraction_schema_invalid_key', 'extraction_schema.1price'],
    ['a schema with 21 fields', { urls: [url], extraction_schema: tooManyFields }, 'extraction_schema_too_many_fields', 'extraction_schema'],
    ['a short instruction', { urls: [url], extraction_schema: { price: 'price' } }, 'extraction_instruction_too_short', 'extraction_schema.price'],
    ['a budget over 1000 pages', { urls: [url], budget_config: { max_pages: 5000 } }, 'max_pages_out_of_range', 'budget_config.max_pages'],
    ['a classifier without a type', { urls: [url], classifiers: [{}] }, 'type_required', 'classifiers.0.type'],
  ];
  it.each(cases)('refuses %s', (_label, input, code, path) => expectRejected(CrawlBody, input, code, path));

  it('accepts a 20-field schema and sync with 10 pages', () => {
    const schema = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field_${i}`, 'extract this value please']));
    expect(parseInput(CrawlBody, { urls: [url], extraction_schema: schema, max_pages: 10, processing_mode: 'sync' })).toBeTruthy();
  });
});

describe('crawl list, share and preview', () => {
  it('refuses an unknown crawl status', () => expectRejected(CrawlListQuery, { status: 'done' }, 'status_invalid', 'status'));
  it('needs organization_id when sharing with an organization', () => {
    expectRejected(CrawlShareBody, { shared_with_org: true }, 'organization_id_required', 'organization_id');
    expectRejected(CrawlShareBody, {}, 'share_body_empty');
  });
  it('needs a url and a schema to preview an extraction', () => {
    expectRejected(PreviewExtractionBody, { extraction_schema: { price: 'the listed price' } }, 'url_required', 'url');
    expectRejected(PreviewExtractionBody, { url }, 'extraction_schema_required', 'extraction_schema');
  });
});
