import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WvrApiError } from '../index.js';
import { serveLoopback, startTestApi, type LoopbackSite, type TestApi } from '../testing.js';

/** A one-page shop on loopback. */
const PRODUCT = `<!doctype html><html><head><title>Kettle K2</title>
<script type="application/ld+json">{"@type":"Product","name":"Kettle K2","sku":"K2-STEEL","offers":{"price":"34.90","priceCurrency":"EUR"}}</script>
</head><body><h1>Kettle K2</h1><p>A steel kettle that boils a litre in three minutes and switches itself off.</p></body></html>`;

let api: TestApi;
let shop: LoopbackSite;
let shopUrl: string;

beforeAll(async () => {
  api = await startTestApi({ engine: { allowPrivateNetwork: true, ai: { provider: 'heuristic' } }, client: { retry: { attempts: 1 } } });
  shop = await serveLoopback((req, res) => {
    if (req.url === '/kettle') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PRODUCT);
    else res.writeHead(404).end('not found');
  });
  shopUrl = shop.origin;
});
afterAll(async () => {
  await api.close();
  await shop.close();
});

describe('sdk extraction', () => {
  it('previews a schema on one page', async () => {
    const client = api.client;
    const result = await client.extraction.preview({ url: `${shopUrl}/kettle`, extraction_schema: { price: 'The current price as a number', sku: 'The SKU of the product' } });
    expect(result.extracted_data).toEqual({ price: 34.9, sku: 'K2-STEEL' });
    expect(result.credits.consumed).toBe(1);
    expect(result.title).toBe('Kettle K2');
  });

  it('raises the API error for a schema key with a hyphen', async () => {
    const client = api.client;
    const error = await client.extraction.preview({ url: `${shopUrl}/kettle`, extraction_schema: { 'a-b': 'An instruction long enough' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WvrApiError);
    expect((error as WvrApiError).status).toBe(400);
  });
});
