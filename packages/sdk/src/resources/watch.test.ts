import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WvrTimeoutError } from '../index.js';
import { serveLoopback, startTestApi, type LoopbackSite, type TestApi } from '../testing.js';

let api: TestApi;
let site: LoopbackSite;

beforeAll(async () => {
  site = await serveLoopback((req, res) => {
    // A page that answers late keeps its crawl running for a while.
    if (req.url === '/slow') return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>late</p>'), 1500);
    const body = req.url === '/' ? '<a href="/one">One</a> <a href="/two">Two</a>' : `<h1>Orbit ${req.url}</h1><p>Orbit install guide ${req.url}.</p>`;
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>Orbit ${req.url}</title></head><body>${body}</body></html>`);
  });
  api = await startTestApi({ email: 'sdk-watch@x.test', engine: { allowPrivateNetwork: true } });
});
afterAll(async () => {
  await api.close();
  await site.close();
});

describe('waiting for jobs', () => {
  it('crawls.createAndWait returns the finished crawl with its documents; crawls.watch yields progress until it ends', async () => {
    const crawl = await api.client.crawls.createAndWait({ urls: [`${site.origin}/`], max_pages: 3, expansion: 'internal' }, { intervalMs: 50 });
    expect(crawl.status).toBe('completed');
    expect(crawl.documents.map((d) => new URL(d.url).pathname).sort()).toEqual(['/', '/one', '/two']);

    const started = await api.client.crawls.create({ urls: [`${site.origin}/`], max_pages: 2, expansion: 'internal' });
    const snapshots = [];
    for await (const progress of api.client.crawls.watch(started.id, { intervalMs: 20 })) snapshots.push(progress);
    expect(snapshots.at(-1)!.status).toBe('completed');
    // Light reads: the best pages by name, never the documents.
    expect(snapshots.every((s) => !('documents' in s))).toBe(true);
    expect(snapshots.at(-1)!.best_pages).toHaveLength(snapshots.at(-1)!.documents_total);
    expect(snapshots.slice(0, -1).every((s) => s.status === 'pending' || s.status === 'running')).toBe(true);
  });

  it('search.createAndWait runs an async search job to its results', async () => {
    const job = await api.client.search.createAndWait({ query: 'orbit install guide', max_results: 5 }, { intervalMs: 50 });
    expect(job).toMatchObject({ status: 'completed', query: 'orbit install guide' });
    expect(job.options.processing_mode).toBe('async');
  });

  it('workflows.planAndWait waits for the plan job', async () => {
    const job = await api.client.workflows.planAndWait({ intent: 'Watch the Orbit docs for new install guides' }, { intervalMs: 50 });
    expect(job.status).not.toBe('running');
    expect(job.completed_at).not.toBeNull();
  });

  it('gives up after timeoutMs with WvrTimeoutError, and stops on an AbortSignal', async () => {
    const timedOut = await api.client.crawls.createAndWait({ urls: [`${site.origin}/slow`], max_pages: 1 }, { intervalMs: 20, timeoutMs: 100 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(WvrTimeoutError);
    const started = await api.client.crawls.create({ urls: [`${site.origin}/slow`], max_pages: 1 });
    const controller = new AbortController();
    const reason = new Error('stop');
    setTimeout(() => controller.abort(reason), 60);
    const watching = (async () => {
      for await (const _ of api.client.crawls.watch(started.id, { intervalMs: 20, signal: controller.signal })) void _;
    })();
    await expect(watching).rejects.toBe(reason);
  });
});
