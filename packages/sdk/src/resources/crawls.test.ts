import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, paginate, WvrApiError } from '../index.js';
import { serveLoopback, startTestApi, type LoopbackSite, type TestApi } from '../testing.js';

let api: TestApi;
let site: LoopbackSite;
let origin: string;

beforeAll(async () => {
  // A three-page site: the home page links to two articles.
  site = await serveLoopback((req, res) => {
    const body = req.url === '/' ? '<a href="/one">One</a> <a href="/two">Two</a>' : `<h1>Article ${req.url}</h1><p>Some words about ${req.url}.</p>`;
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>${req.url}</title></head><body>${body}</body></html>`);
  });
  origin = site.origin;
  api = await startTestApi({ email: 'sdk-crawl@x.test', engine: { allowPrivateNetwork: true } });
});
afterAll(async () => {
  await api.close();
  await site.close();
});

describe('sdk crawls', () => {
  it('creates an async crawl that the server runs in the background, then lists, shares and reads it publicly', async () => {
    const client = api.client;
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
    expect((await createClient({ baseUrl: api.url }).crawls.getPublic(id)).access_level).toBe('public');

    const error = await client.crawls.cancel(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WvrApiError);
    expect((error as WvrApiError).status).toBe(409);
  });
});
