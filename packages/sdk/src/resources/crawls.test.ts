import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '@wvr/engine';
import { startServer, type RunningServer } from '@wvr/server';
import { createClient, paginate, WvrApiError } from '../index.js';

let dir: string;
let engine: Engine;
let server: RunningServer;
let site: Server;
let origin: string;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wvr-sdk-crawls-'));
  // A three-page site: the home page links to two articles.
  site = createServer((req, res) => {
    const body = req.url === '/' ? '<a href="/one">One</a> <a href="/two">Two</a>' : `<h1>Article ${req.url}</h1><p>Some words about ${req.url}.</p>`;
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>${req.url}</title></head><body>${body}</body></html>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  engine = createEngine({ dbPath: join(dir, 'wvr.db'), allowPrivateNetwork: true });
  const user = engine.accounts.ensureUser({ email: 'sdk-crawl@x.test' });
  token = engine.tokens.issue(user.id, { name: 'sdk test' }).token;
  server = await startServer({ engine, port: 0 });
});
afterAll(async () => {
  await server.close();
  await engine.close();
  await new Promise((r) => site.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('sdk crawls', () => {
  it('creates an async crawl that the server runs in the background, then lists, shares and reads it publicly', async () => {
    const client = createClient({ baseUrl: server.url, token });
    const estimate = await client.crawls.estimate({ urls: [`${origin}/`], max_pages: 3, expansion: 'internal' });
    expect(estimate).toMatchObject({ cost_estimate: 3, would_succeed: true });

    const created = await client.crawls.create({ urls: [`${origin}/`], max_pages: 3, expansion: 'internal' });
    expect('id' in created && created.status).toBe('pending');
    const id = (created as { id: string }).id;
    await vi.waitFor(async () => expect((await client.crawls.get(id)).status).toBe('completed'), { timeout: 10_000, interval: 50 });
    const crawl = await client.crawls.get(id);
    expect(crawl.documents.map((d) => new URL(d.url).pathname).sort()).toEqual(['/', '/one', '/two']);

    const light = await client.crawls.get(id, { documents: 'top', documents_limit: 1 });
    expect(light.documents).toHaveLength(1);
    expect(light.documents_total).toBe(3);
    expect((await client.crawls.get(id, { documents: 'none' })).documents).toEqual([]);
    const urls: string[] = [];
    for await (const d of paginate((q) => client.crawls.documents(id, q), { limit: 2 })) urls.push(d.url);
    expect(urls).toEqual(crawl.documents.map((d) => d.url));

    const ids: string[] = [];
    for await (const c of paginate(client.crawls.list, { limit: 1 })) ids.push(c.id);
    expect(ids).toEqual([id]);

    await client.crawls.share(id, { public_share: true });
    expect((await createClient({ baseUrl: server.url }).crawls.getPublic(id)).access_level).toBe('public');

    const error = await client.crawls.cancel(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WvrApiError);
    expect((error as WvrApiError).status).toBe(409);
  });
});
