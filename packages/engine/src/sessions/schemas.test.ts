import { describe, expect, it } from 'vitest';
import { parseInput } from '../core/validate.js';
import { expectRejected, type RejectionCase } from '../testing/validation.js';
import { SessionCrawlBody, SessionCreateBody, SessionListQuery, SessionPatchBody, SessionSearchBody, SessionShareBody } from './schemas.js';

describe('session create', () => {
  it('defaults session_config and keeps extra metadata', () => {
    expect(parseInput(SessionCreateBody, { name: 'Rivals', metadata: { intent: { type: 'competitive_analysis' }, owner: 'me' } })).toEqual({
      name: 'Rivals',
      session_config: { auto_deduplicate: true, accumulate_context: true, use_session_context: true },
      metadata: { intent: { type: 'competitive_analysis' }, owner: 'me' },
    });
  });

  const cases: RejectionCase[] = [
    ['a missing name', {}, 'name_required', 'name'],
    ['a name over 255 characters', { name: 'n'.repeat(256) }, 'name_too_long', 'name'],
    ['max_operations 0', { name: 'x', session_config: { max_operations: 0 } }, 'max_operations_out_of_range', 'session_config.max_operations'],
    ['max_operations 101', { name: 'x', session_config: { max_operations: 101 } }, 'max_operations_out_of_range', 'session_config.max_operations'],
    ['an unknown intent type', { name: 'x', metadata: { intent: { type: 'gossip' } } }, 'type_invalid', 'metadata.intent.type'],
    ['an unknown domain context', { name: 'x', metadata: { domain_context: 'sports' } }, 'domain_context_invalid', 'metadata.domain_context'],
  ];
  it.each(cases)('refuses %s', (_l, input, code, path) => expectRejected(SessionCreateBody, input, code, path));
});

describe('session patch, share, list and operations', () => {
  it('refuses an empty patch', () => expectRejected(SessionPatchBody, {}, 'patch_body_empty'));
  it('needs organization_id when sharing with an organization', () =>
    expectRejected(SessionShareBody, { shared_with_org: true }, 'organization_id_required', 'organization_id'));
  it('reads list filters from query strings', () => {
    expect(parseInput(SessionListQuery, { include_shared: 'true', days_back: '30', tag: 'ai' })).toEqual({
      limit: 10,
      offset: 0,
      include_shared: true,
      days_back: 30,
      tag: 'ai',
    });
    expectRejected(SessionListQuery, { include_shared: 'maybe' }, 'include_shared_invalid_type', 'include_shared');
  });
  it('defaults filter_seen_urls to false for search and true for crawl', () => {
    expect(parseInput(SessionSearchBody, { query: 'x' }).filter_seen_urls).toBe(false);
    expect(parseInput(SessionCrawlBody, { urls: ['https://example.com/'] }).filter_seen_urls).toBe(true);
    expectRejected(SessionCrawlBody, { urls: ['https://example.com/'], max_pages: 50, processing_mode: 'sync' }, 'sync_max_pages_exceeded');
  });
});
