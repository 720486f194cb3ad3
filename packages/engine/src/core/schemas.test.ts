import { describe, expect, it } from 'vitest';
import { parseInput } from './validate.js';
import { expectRejected } from '../testing/validation.js';
import { IdParams, ListQuery, QueryBoolean, ShareBody } from './schemas.js';

describe('shared schemas', () => {
  it('reads list pages from query strings with defaults', () => {
    expect(parseInput(ListQuery, {})).toEqual({ limit: 10, offset: 0 });
    expect(parseInput(ListQuery, { limit: '100', offset: '20' })).toEqual({ limit: 100, offset: 20 });
    expectRejected(ListQuery, { limit: 'ten' }, 'limit_invalid_type', 'limit');
  });
  it('reads booleans from query strings and nothing else', () => {
    expect([parseInput(QueryBoolean, 'true'), parseInput(QueryBoolean, 'false')]).toEqual([true, false]);
    expectRejected(QueryBoolean, 'yes', 'body_invalid_type');
  });
  it('checks ids are uuids', () => expectRejected(IdParams, { id: '42' }, 'id_invalid_format', 'id'));
  it('accepts public sharing alone and org sharing with an organization', () => {
    expect(parseInput(ShareBody, { public_share: true })).toEqual({ public_share: true });
    expect(parseInput(ShareBody, { shared_with_org: true, organization_id: '7d1e1b4e-8f1a-4c52-9a55-0b1c2d3e4f50' })).toBeTruthy();
  });
});
