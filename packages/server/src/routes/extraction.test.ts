import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import { openTestServer, type TestServer } from '../testing.js';

let t: TestServer;
let web: LocalWeb;
let crawlToken: string;
let searchToken: string;
let userId: string;

beforeAll(async () => {
  web = await startLocalWeb({ seed: 5, sizes: { products: 20, articles: 5, docsDepth: 1 } });
  t = await openTestServer({ engine: { allowPrivateNetwork: true, ai: { provider: 'heuristic' } } });
  const user = await t.engine.accounts.ensureUser({ email: 'x@x.test' });
  userId = user.id;
  crawlToken = (await t.engine.tokens.issue(user.id, { name: 'crawl', scopes: ['crawl'] })).token;
  searchToken = (await t.engine.tokens.issue(user.id, { name: 'search', scopes: ['search'] })).token;
});
afterAll(async () => {
  await t.close();
  await web.close();
});

const post = (token: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/v1/crawls/preview-extraction', headers: { authorization: `Bearer ${token}` }, payload: payload as object });

describe('POST /v1/crawls/preview-extraction', () => {
  it('answers the extraction and charges 1 credit', async () => {
    const before = await t.engine.credits.balance(userId);
    const url = web.truth.productUrls()[0]!;
    const response = await post(crawlToken, { url, extraction_schema: { sku: 'The SKU of the product' } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const truth = web.truth.page(url);
    expect(truth?.kind).toBe('product');
    expect(body.extracted_data).toEqual({ sku: truth?.kind === 'product' ? truth.product.sku : null });
    expect(body.credits.consumed).toBe(1);
    expect(await t.engine.credits.balance(userId)).toBe(before - 1);
  });

  it('answers 400 in the error shape naming the bad key', async () => {
    const response = await post(crawlToken, { url: web.truth.productUrls()[0]!, extraction_schema: { 'bad-key': 'An instruction of length' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_error', details: { fields: [{ path: 'extraction_schema.bad-key' }] } });
  });

  it('answers 502 for a page that does not exist', async () => {
    const response = await post(crawlToken, { url: `${web.catalogue}/nowhere`, extraction_schema: { sku: 'The SKU of the product' } });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ error: 'upstream_error', code: 'fetch_failed' });
  });

  it('needs the crawl scope', async () => {
    const response = await post(searchToken, { url: web.truth.productUrls()[0]!, extraction_schema: { sku: 'The SKU of the product' } });
    expect(response.statusCode).toBe(403);
  });
});
