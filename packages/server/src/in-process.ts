import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/**
 * A WHATWG `fetch` that answers from a Fastify app in this process, without a socket. The SDK
 * takes it as its transport, so a local caller (the CLI) goes through exactly the routes,
 * validation and error mapping a remote caller does.
 */
export function inProcessFetch(app: FastifyInstance): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const response = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      ...(payload ? { payload } : {}),
      // The body as it is written, not also joined and decoded into a string nobody reads: a crawl's
      // documents read a page at a time are megabytes per answer.
      payloadAsStream: true,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    const bodyless = response.statusCode === 204 || response.statusCode === 304 || request.method === 'HEAD';
    return new Response(bodyless ? null : (Readable.toWeb(response.stream()) as ReadableStream<Uint8Array>), { status: response.statusCode, headers });
  };
}
