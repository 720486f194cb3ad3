import { beforeAll, describe, expect, it } from 'vitest';
import { PgExecutor } from './executor.js';
import { PgWebCache } from './web-cache.js';
import { usePostgres } from './testing.js';

const store = usePostgres('web_cache', { max: 2 });
let cache: PgWebCache;

beforeAll(async () => {
  cache = new PgWebCache(new PgExecutor(store.pool));
}, 120_000);

describe('web cache on PostgreSQL', () => {
  it('caches a page with its redirects and headers as JSON and replaces it on the next put', async () => {
    const page = {
      requestedUrl: 'https://example.test/a',
      url: 'https://example.test/b',
      redirects: ['https://example.test/b'],
      fetchedAt: 1_700_000_000_000,
      status: 200,
      headers: { 'content-type': 'text/html' },
      contentType: 'text/html',
      kind: 'html' as const,
      charset: 'utf-8',
      canonicalUrl: null,
      body: '<p>hi</p>',
      bytes: 9,
    };
    await cache.put(page);
    expect(await cache.get(page.requestedUrl)).toEqual(page);
    await cache.put({ ...page, body: '<p>again</p>', fetchedAt: page.fetchedAt + 1 });
    expect(await cache.get(page.requestedUrl)).toMatchObject({ body: '<p>again</p>', fetchedAt: page.fetchedAt + 1 });
    expect(await cache.get('https://example.test/none')).toBeUndefined();
  });
});
