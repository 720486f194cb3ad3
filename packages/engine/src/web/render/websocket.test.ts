import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type Site } from '@wvr/testkit';
import { openTestEngine } from '../../testing/engine.js';

/**
 * A WebSocket does not go through the browser's request routing: unless the renderer refuses it,
 * a rendered page could open one to any address the machine reaches. A raw TCP listener on
 * 127.0.0.2 (a private address the engine does not allow) counts every connection made to it.
 */
let page: Site;
let listener: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.2', resolve));
  port = (listener.address() as { port: number }).port;
  const shell = `<!doctype html><html><head><title>App</title></head><body><div id="app"></div><script>
    const app = document.getElementById('app');
    const ws = new WebSocket('ws://127.0.0.2:${port}/socket');
    ws.onclose = (event) => { app.textContent = 'socket closed ' + event.code; };
  </script></body></html>`;
  page = await startSite('127.0.0.1', () => ({ body: shell }), []);
});
afterAll(async () => {
  await page?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

describe('WebSockets from a rendered page', () => {
  it('are refused: no connection reaches a private address, and the refusal is counted', async () => {
    const lab = openTestEngine({ allowPrivateNetwork: false, fetchLimits: { allowedPrivateAddresses: ['127.0.0.1'] } });
    try {
      const rendered = await lab.engine.web.fetch({ url: `${page.origin}/`, render: 'always' });
      expect(rendered.rendering).toMatchObject({ rendered: true });
      expect(rendered.body).toContain('socket closed');
      expect(connections).toBe(0);
      expect(lab.engine.web.renderStats().requests_refused).toBeGreaterThanOrEqual(1);
    } finally {
      await lab.dispose();
    }
  }, 60_000);
});
