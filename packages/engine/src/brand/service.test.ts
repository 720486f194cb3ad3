import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openTestEngine, principalOf, type TestEngine } from '../testing/engine.js';
import type { Principal } from '../accounts/schemas.js';

const site: Record<string, [type: string, body: string]> = {
  '/': ['text/html', `<!doctype html><title>Acme Tools – Home</title><meta name="theme-color" content="#d62828">
    <link rel="stylesheet" href="/main.css"><header><img class="logo" src="/acme.png"></header><h1>Tools that last</h1>`],
  '/main.css': ['text/css', `:root{--brand:#d62828;--accent:#f77f00} body{font-family:Roboto,sans-serif;color:#222;background:#fff}`],
  '/file.pdf': ['application/pdf', '%PDF-1.4'],
};

let server: Server;
let origin: string;
let t: TestEngine;
let principal: Principal;

beforeAll(async () => {
  server = createServer((req, res) => {
    const page = site[req.url ?? ''];
    res.writeHead(page ? 200 : 404, { 'content-type': page?.[0] ?? 'text/plain' }).end(page?.[1] ?? 'no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = openTestEngine({ allowPrivateNetwork: true });
  principal = await principalOf(t.engine, 'brand@x.test');
});
afterAll(async () => {
  await t.dispose();
  server.close();
});

describe('engine.brand.designSystem', () => {
  it('reads the page and its stylesheet and charges 1 credit', async () => {
    const brand = await t.engine.brand.designSystem(principal, { url: `${origin}/` });
    expect(brand).toMatchObject({
      name: 'Acme Tools',
      logo: { url: `${origin}/acme.png`, source: 'img' },
      theme_color: '#d62828',
      colors: { primary: '#d62828', accent: '#f77f00', background: '#ffffff', text: '#222222' },
      typography: { body_font: 'Roboto' },
      stylesheets_read: 1,
      credits: { consumed: 1, balance_after: 99, pricing_tier: 'basic' },
    });
  });

  it('charges nothing for a page that is not HTML (400) or not there (502)', async () => {
    const before = await t.engine.credits.balance(principal.userId);
    await expect(t.engine.brand.designSystem(principal, { url: `${origin}/file.pdf` })).rejects.toMatchObject({ status: 400, code: 'unsupported_content' });
    await expect(t.engine.brand.designSystem(principal, { url: `${origin}/missing` })).rejects.toMatchObject({ status: 502, code: 'fetch_failed', details: { status: 404 } });
    expect(await t.engine.credits.balance(principal.userId)).toBe(before);
  });

  it('validates the url', async () => {
    await expect(t.engine.brand.designSystem(principal, { url: 'ftp://x' })).rejects.toMatchObject({ status: 400, code: 'url_invalid_format' });
  });
});
