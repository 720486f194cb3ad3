import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RequestLogEntry {
  origin: string;
  path: string;
  method: string;
  /** Milliseconds since the epoch, sub-millisecond precision, taken when the request arrived. */
  at: number;
  userAgent: string;
  status: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** For replies that must be written over time (slow, huge, chunked). */
  stream?: (res: ServerResponse) => void;
}

export type Handler = (url: URL, req: IncomingMessage) => Reply | Promise<Reply>;

export interface Site {
  origin: string;
  close(): Promise<void>;
}

const now = () => performance.timeOrigin + performance.now();

/** One HTTP server on loopback for one site, logging every request server-side. */
export async function startSite(host: string, handler: Handler, log: RequestLogEntry[]): Promise<Site> {
  let origin = '';
  const server = createServer(async (req, res) => {
    const at = now();
    const url = new URL(req.url ?? '/', origin);
    let reply: Reply;
    try {
      reply = await handler(url, req);
    } catch (error) {
      reply = { status: 500, body: `testkit handler failed: ${String(error)}` };
    }
    const status = reply.status ?? 200;
    log.push({ origin, path: url.pathname + url.search, method: req.method ?? 'GET', at, userAgent: req.headers['user-agent'] ?? '', status });
    res.statusCode = status;
    const headers = { 'content-type': 'text/html; charset=utf-8', ...reply.headers };
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (reply.stream) return reply.stream(res);
    res.end(req.method === 'HEAD' ? undefined : reply.body);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const html = (body: string, status = 200): Reply => ({ status, body });
export const notFound = (): Reply => ({ status: 404, body: '<!doctype html><title>Not found</title><h1>Not found</h1>' });
export const gone = (): Reply => ({ status: 410, body: '<!doctype html><title>Gone</title><h1>This page was removed</h1>' });
export const xml = (body: string): Reply => ({ body, headers: { 'content-type': 'application/xml; charset=utf-8' } });
export const text = (body: string, type = 'text/plain; charset=utf-8'): Reply => ({ body, headers: { 'content-type': type } });
