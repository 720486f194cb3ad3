import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startSite, type RequestLogEntry, type Site } from './server.js';
import { PROXY_MARK_HEADER, startProxy, type Proxy } from './proxy.js';

let site: Site;
let proxy: Proxy;
beforeAll(async () => {
  site = await startSite('127.0.0.1', (_url, req) => ({ body: `mark=${String(req.headers[PROXY_MARK_HEADER] ?? '')}` }), [] as RequestLogEntry[]);
  proxy = await startProxy({ name: 'premium' });
});
afterAll(async () => {
  await proxy.close();
  await site.close();
});

describe('startProxy', () => {
  it('forwards an absolute-form GET, marks it and logs it', async () => {
    const { port } = new URL(proxy.url);
    const body = await new Promise<string>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: `${site.origin}/page`, headers: { host: new URL(site.origin).host } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(text));
      })
        .on('error', reject)
        .end();
    });
    expect(body).toBe('mark=premium');
    expect(proxy.log.at(-1)).toMatchObject({ method: 'GET', target: `${site.origin}/page` });
  });

  it('opens a CONNECT tunnel and logs its target', async () => {
    const { port } = new URL(proxy.url);
    const target = new URL(site.origin).host;
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port, method: 'CONNECT', path: target })
        .on('connect', (res, socket) => {
          socket.destroy();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
    expect(proxy.log.at(-1)).toMatchObject({ method: 'CONNECT', target });
  });
});
