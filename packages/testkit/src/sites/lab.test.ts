import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { startSite, type RequestLogEntry, type Site } from '../server.js';
import { labSite, LAB_PDF_TEXT } from './lab.js';

let site: Site;
const log: RequestLogEntry[] = [];
beforeAll(async () => {
  site = await startSite('127.0.0.1', labSite({ crawlDelaySeconds: 1.5 }), log);
});
afterAll(() => site.close());

/** Raw bytes and headers, without fetch's automatic decompression. */
function raw(path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(site.origin + path, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('labSite', () => {
  it('puts the Crawl-delay option and the private Disallow in robots.txt', async () => {
    const robots = await (await fetch(`${site.origin}/robots.txt`)).text();
    expect(robots).toContain('Disallow: /private/');
    expect(robots).toContain('Crawl-delay: 1.5');
  });

  it('answers /flaky with 429 the asked number of times per key, then 200', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${site.origin}/flaky?key=t&times=2`)).status);
    expect(statuses).toEqual([429, 429, 200]);
  });

  it('shows the block page unless the request carries the proxy mark', async () => {
    expect((await fetch(`${site.origin}/blocked`)).status).toBe(403);
    expect((await fetch(`${site.origin}/blocked`, { headers: { 'x-testkit-proxy': 'p' } })).status).toBe(200);
  });

  it('serves gzip bytes that inflate to the page', async () => {
    const answer = await raw('/gzip');
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(answer.body).toString()).toContain('Compressed with gzip.');
  });

  it('serves a PDF with a correct header and the known sentence', async () => {
    const answer = await raw('/doc.pdf');
    expect(answer.body.subarray(0, 8).toString()).toBe('%PDF-1.4');
    expect(answer.body.toString('latin1')).toContain(LAB_PDF_TEXT);
  });

  it('redirects to the URL given in the query', async () => {
    const answer = await raw('/redirect/to?url=http%3A%2F%2F10.0.0.1%2F');
    expect([answer.status, answer.headers.location]).toEqual([302, 'http://10.0.0.1/']);
  });

  it('links every calendar month to the next one, forever', async () => {
    const body = await (await fetch(`${site.origin}/calendar/9999/12`)).text();
    expect(body).toContain('href="/calendar/10000/1"');
  });
});
