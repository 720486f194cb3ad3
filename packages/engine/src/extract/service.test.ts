import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWeb, type LocalWeb } from '@wvr/testkit';
import type { Principal } from '../accounts/schemas.js';
import { isWvrError, type WvrError } from '../core/errors.js';
import type { EngineOptions } from '../core/options.js';
import { openTestEngine, type TestEngine } from '../testing/engine.js';
import { parseHtml } from '../html/index.js';
import { validateClassifiers } from './classifiers.js';

let web: LocalWeb;
/** An OpenAI-compatible stub: model `slow` never answers in time, `good` answers with JSON. */
let stub: Server;
let stubUrl: string;

beforeAll(async () => {
  web = await startLocalWeb({ seed: 11, sizes: { products: 40, articles: 10, docsDepth: 1 } });
  stub = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; response_format?: { json_schema?: { name?: string } } };
      const content =
        body.response_format?.json_schema?.name === 'extracted_data' ? JSON.stringify({ name: 'From the model', price: '12,50 €' }) : 'A generated summary.';
      const reply = () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }], usage: { prompt_tokens: 100, completion_tokens: 10 } }));
      if (body.model === 'slow') setTimeout(reply, 1_000);
      else reply();
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await web.close();
  await new Promise<void>((resolve) => stub.close(() => resolve()));
});

async function open(options: EngineOptions = {}): Promise<{ t: TestEngine; principal: Principal }> {
  const t = openTestEngine({ allowPrivateNetwork: true, ai: { provider: 'heuristic' }, ...options });
  const user = await t.engine.accounts.ensureUser({ email: 'extract@example.test' });
  return { t, principal: t.engine.accounts.localPrincipal(user) };
}

const rejection = async (promise: Promise<unknown>): Promise<WvrError> => {
  try {
    await promise;
  } catch (error) {
    if (isWvrError(error)) return error;
    throw error;
  }
  throw new Error('expected a WvrError');
};

const schema = { name: 'The name of the product', price: 'The current price as a number', sku: 'The SKU of the product' };

describe('extraction preview', () => {
  it('charges exactly 1 credit and returns the fields, metadata, title and an excerpt', async () => {
    const { t, principal } = await open();
    try {
      const url = web.truth.productUrls()[0]!;
      const product = web.truth.page(url);
      if (product?.kind !== 'product') throw new Error('no product truth');
      const before = await t.engine.credits.balance(principal.userId);
      const result = await t.engine.extraction.preview(principal, { url, extraction_schema: schema });
      expect(await t.engine.credits.balance(principal.userId)).toBe(before - 1);
      expect(result.credits).toMatchObject({ consumed: 1, balance_after: before - 1, pricing_tier: 'basic' });
      expect(result.extracted_data).toEqual({ name: product.product.name, price: product.product.price, sku: product.product.sku });
      expect(result.extraction_metadata).toMatchObject({ fields_extracted: 3, fields_requested: 3, method: 'heuristic', provider: 'heuristic' });
      expect(Object.keys(result.extraction_metadata.confidence_scores)).toEqual(['name', 'price', 'sku']);
      expect(result.title).toContain(product.product.name);
      expect(result.text_excerpt.length).toBeGreaterThan(20);
      expect(result.text_excerpt.length).toBeLessThanOrEqual(501);
      expect(await t.engine.credits.ledgerSum(principal.userId)).toBe(before - 1);
    } finally {
      await t.dispose();
    }
  });

  it('charges nothing and answers 502 when the page cannot be fetched', async () => {
    const { t, principal } = await open();
    try {
      const before = await t.engine.credits.balance(principal.userId);
      const error = await rejection(t.engine.extraction.preview(principal, { url: `${web.catalogue}/product/999999-missing`, extraction_schema: schema }));
      expect(error.status).toBe(502);
      expect(error.code).toBe('fetch_failed');
      expect(error.details).toMatchObject({ status: 404 });
      expect(await t.engine.credits.balance(principal.userId)).toBe(before);
    } finally {
      await t.dispose();
    }
  });

  it('refuses a private address with 400 when the engine does not allow them, charging nothing', async () => {
    const { t, principal } = await open({ allowPrivateNetwork: false });
    try {
      const before = await t.engine.credits.balance(principal.userId);
      const error = await rejection(t.engine.extraction.preview(principal, { url: web.truth.productUrls()[0]!, extraction_schema: schema }));
      expect(error.status).toBe(400);
      expect(await t.engine.credits.balance(principal.userId)).toBe(before);
    } finally {
      await t.dispose();
    }
  });

  it.each([
    ['21 fields', Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`field_${i}`, 'An instruction long enough'])), 'extraction_schema'],
    ['a 9-character instruction', { price: '123456789' }, 'extraction_schema.price'],
    ['a key with a hyphen', { 'unit-price': 'The price of one unit' }, 'extraction_schema.unit-price'],
  ])('answers 400 naming the key for %s, charging nothing', async (_what, extraction_schema, path) => {
    const { t, principal } = await open();
    try {
      const before = await t.engine.credits.balance(principal.userId);
      const error = await rejection(t.engine.extraction.preview(principal, { url: web.truth.productUrls()[0]!, extraction_schema }));
      expect(error.status).toBe(400);
      expect(error.details).toMatchObject({ fields: [{ path }] });
      expect(await t.engine.credits.balance(principal.userId)).toBe(before);
    } finally {
      await t.dispose();
    }
  });

  it('answers 402 without fetching when the balance is empty', async () => {
    const { t, principal } = await open({ monthlyGrants: { free: 0 } });
    try {
      const requests = web.requests.length;
      const error = await rejection(t.engine.extraction.preview(principal, { url: web.truth.productUrls()[1]!, extraction_schema: schema }));
      expect(error.status).toBe(402);
      expect(web.requests.length).toBe(requests);
    } finally {
      await t.dispose();
    }
  });
});

describe('extraction with a model', () => {
  it('uses the model answer, coerced to the field types, when the provider answers', async () => {
    const { t, principal } = await open({ ai: { provider: 'openai', baseUrl: stubUrl, model: 'good', timeoutMs: 5_000 } });
    try {
      const result = await t.engine.extraction.preview(principal, { url: web.truth.productUrls()[2]!, extraction_schema: { name: 'The name of the product', price: 'The current price as a number' } });
      expect(result.extracted_data).toEqual({ name: 'From the model', price: 12.5 });
      expect(result.extraction_metadata).toMatchObject({ method: 'llm', provider: 'openai', sources: { name: 'llm', price: 'llm' } });
      expect(result.extraction_metadata.fallback_reason_code).toBeUndefined();
    } finally {
      await t.dispose();
    }
  });

  it('falls back to the heuristic and records timeout when the model is too slow', async () => {
    const { t, principal } = await open({ ai: { provider: 'openai', baseUrl: stubUrl, model: 'slow', timeoutMs: 150 } });
    try {
      const url = web.truth.productUrls()[3]!;
      const truth = web.truth.page(url);
      if (truth?.kind !== 'product') throw new Error('no product truth');
      const result = await t.engine.extraction.preview(principal, { url, extraction_schema: schema });
      expect(result.extracted_data).toEqual({ name: truth.product.name, price: truth.product.price, sku: truth.product.sku });
      expect(result.extraction_metadata).toMatchObject({ method: 'heuristic', provider: 'openai', fallback_reason_code: 'timeout' });
      expect(result.credits.consumed).toBe(1);
      expect(t.engine.ai.usage().fallbacks.timeout).toBe(1);
    } finally {
      await t.dispose();
    }
  });

  it('generates the summary with the model and keeps it extractive under heuristic', async () => {
    const html = await (await fetch(web.truth.articleUrls()[0]!)).text();
    const page = parseHtml(html, web.truth.articleUrls()[0]!);
    const withModel = await open({ ai: { provider: 'openai', baseUrl: stubUrl, model: 'good' } });
    const offline = await open();
    try {
      expect(await withModel.t.engine.extraction.summarize(page)).toBe('A generated summary.');
      const extractive = await offline.t.engine.extraction.summarize(page);
      expect(extractive.length).toBeGreaterThan(30);
      expect(page.text).toContain(extractive.split(/(?<=[.!?])\s/)[0]!);
    } finally {
      await withModel.t.dispose();
      await offline.t.dispose();
    }
  });
});

describe('forPage, the crawler interface', () => {
  it('extracts, classifies, summarises and keeps a product page that passes the classifiers', async () => {
    const { t } = await open();
    try {
      const url = web.truth.productUrls()[4]!;
      const html = await (await fetch(url)).text();
      const result = await t.engine.extraction.forPage(
        { page: parseHtml(html, url), html },
        { extraction_schema: { price: 'The current price as a number' }, classify_documents: true, generate_summary: true, classifiers: validateClassifiers([{ type: 'document_type', types: ['product'] }]) },
      );
      expect(result).toMatchObject({ keep: true, dropped_reason: null, classification: { label: 'product' }, extraction_metadata: { fields_extracted: 1 } });
      expect(typeof result.extracted_data?.price).toBe('number');
      expect(result.summary?.length).toBeGreaterThan(20);
    } finally {
      await t.dispose();
    }
  });

  it('drops an article under a product-only classifier without extracting', async () => {
    const { t } = await open();
    try {
      const url = web.truth.articleUrls()[1]!;
      const html = await (await fetch(url)).text();
      const result = await t.engine.extraction.forPage(
        { page: parseHtml(html, url), html },
        { extraction_schema: { price: 'The current price as a number' }, classifiers: validateClassifiers([{ type: 'document_type', types: ['product'] }]) },
      );
      expect(result).toMatchObject({ keep: false, dropped_reason: 'document_type: page is article, wanted product' });
      expect(result.extracted_data).toBeUndefined();
    } finally {
      await t.dispose();
    }
  });
});
