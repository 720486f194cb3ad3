import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { createEngine, type Engine } from '@wvr/engine';
import { startServer, type RunningServer } from '../app.js';

/** Debian's chromium; .ci/run installs it when missing, and so does this test where apt-get can. */
function chromiumPath(): string {
  const path = '/usr/bin/chromium';
  if (!existsSync(path)) execSync('apt-get update && apt-get install -y chromium', { stdio: 'ignore', timeout: 600_000 });
  return path;
}

let engine: Engine;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  engine = createEngine({ dbPath: ':memory:', secret: 'test' });
  server = await startServer({ engine, port: 0, worker: false });
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await server.close();
  await engine.close();
});

describe('the API reference at /docs', () => {
  it('renders every tag’s operations in a browser, from files this server serves', async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    await page.goto(`${server.url}/docs`);
    // The sidebar lists every tag of the document as a group; opening one lists its operations by summary.
    await page.getByText('Open Group').first().waitFor({ timeout: 60_000 });
    for (const [tag, summary] of [
      ['search', 'Quick search: synchronous results'],
      ['crawls', 'Crawl seed URLs'],
    ] as const) {
      await page.getByRole('button', { name: new RegExp(`^${tag}`, 'i') }).first().click();
      await expect.poll(() => page.getByText(summary).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    }
    expect(elsewhere).toEqual([]);
    await page.close();
  }, 120_000);

  it('names the server the request reached in the OpenAPI servers entry', async () => {
    const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as { servers: { url: string }[] };
    expect(doc.servers[0]!.url).toBe(server.url);
    const behindProxy = await startServer({ engine, port: 0, worker: false, publicUrl: 'https://api.wvr.example/' });
    try {
      const proxied = (await (await fetch(`${behindProxy.url}/api/v1/openapi.json`)).json()) as { servers: { url: string }[] };
      expect(proxied.servers[0]!.url).toBe('https://api.wvr.example');
    } finally {
      await behindProxy.close();
    }
  });
});
