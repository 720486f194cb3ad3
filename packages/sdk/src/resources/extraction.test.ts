import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine, type Engine } from '@wvr/engine';
import { startServer, type RunningServer } from '@wvr/server';
import { createClient, WvrApiError } from '../index.js';

/** A one-page shop on loopback: the SDK package does not depend on the testkit. */
const PRODUCT = `<!doctype html><html><head><title>Kettle K2</title>
<script type="application/ld+json">{"@type":"Product","name":"Kettle K2","sku":"K2-STEEL","offers":{"price":"34.90","priceCurrency":"EUR"}}</script>
</head><body><h1>Kettle K2</h1><p>A steel kettle that boils a litre in three minutes and switches itself off.</p></body></html>`;

let dir: string;
let engine: Engine;
let server: RunningServer;
let shop: Server;
let shopUrl: string;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wvr-sdk-extraction-'));
  engine = createEngine({ dbPath: join(dir, 'wvr.db'), allowPrivateNetwork: true, ai: { provider: 'heuristic' } });
  const user = engine.accounts.ensureUser({ email: 'sdk@x.test' });
  token = engine.tokens.issue(user.id, { name: 'sdk test' }).token;
  server = await startServer({ engine, port: 0 });
  shop = createHttpServer((req, res) => {
    if (req.url === '/kettle') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PRODUCT);
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.close();
  await engine.close();
  await new Promise<void>((resolve) => shop.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('sdk extraction', () => {
  it('previews a schema on one page', async () => {
    const client = createClient({ baseUrl: server.url, token, retry: { attempts: 1 } });
    const result = await client.extraction.preview({ url: `${shopUrl}/kettle`, extraction_schema: { price: 'The current price as a number', sku: 'The SKU of the product' } });
    expect(result.extracted_data).toEqual({ price: 34.9, sku: 'K2-STEEL' });
    expect(result.credits.consumed).toBe(1);
    expect(result.title).toBe('Kettle K2');
  });

  it('raises the API error for a schema key with a hyphen', async () => {
    const client = createClient({ baseUrl: server.url, token, retry: { attempts: 1 } });
    const error = await client.extraction.preview({ url: `${shopUrl}/kettle`, extraction_schema: { 'a-b': 'An instruction long enough' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WvrApiError);
    expect((error as WvrApiError).status).toBe(400);
  });
});
