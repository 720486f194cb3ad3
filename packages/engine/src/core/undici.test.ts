import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { undici } from './undici.js';

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, url: req.url, agent: req.headers['user-agent'] ?? null, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('undici, its parts the engine uses', () => {
  it('sends a request through a given agent, with its path, query, method, headers and body', async () => {
    const agent = new (undici().Agent)({ connections: 1 });
    try {
      const res = await undici().request(`${origin}/a/b?x=1&y=2`, { method: 'POST', dispatcher: agent, headers: { 'user-agent': 'wvr-test' }, body: 'hello' });
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ method: 'POST', url: '/a/b?x=1&y=2', agent: 'wvr-test', body: 'hello' });
    } finally {
      await agent.close();
    }
  });

  it('takes a URL object, sends GET when no method is given, and uses the global dispatcher without an agent', async () => {
    const res = await undici().request(new URL(`${origin}/plain`), {});
    expect(await res.body.json()).toEqual({ method: 'GET', url: '/plain', agent: null, body: '' });
  });

  it('sends a body without a method as PUT, as undici does', async () => {
    const res = await undici().request(`${origin}/put`, { body: 'x' });
    expect(await res.body.json()).toEqual({ method: 'PUT', url: '/put', agent: null, body: 'x' });
  });

  it('refuses a URL that is not http or https, as undici does', async () => {
    expect(() => undici().request('ftp://127.0.0.1/file', {})).toThrow(/protocol/i);
  });

  it("never loads undici's index in a process that fetches (the index loads fetch, WebSocket, mocks and caches too)", async () => {
    // A process of its own: this test process may have loaded the index through another module.
    const script = `
      const { undici } = await import(${JSON.stringify(fileURLToPath(new URL('./undici.ts', import.meta.url)))});
      const res = await undici().request(${JSON.stringify(`${origin}/child`)}, { method: 'GET' });
      await res.body.dump();
      const { createRequire } = await import('node:module');
      const require = createRequire(import.meta.url);
      const index = require.resolve('undici');
      console.log(JSON.stringify({ status: res.statusCode, index: index in require.cache, parts: Object.keys(require.cache).filter((k) => k.includes('/undici/lib/')).length }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('.', import.meta.url)) });
    const seen = JSON.parse(stdout) as { status: number; index: boolean; parts: number };
    expect(seen.status).toBe(200);
    expect(seen.index).toBe(false);
    expect(seen.parts).toBeGreaterThan(10);
  });
});
