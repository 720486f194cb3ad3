import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { requireScope, runOperation, type Engine, type Principal, type RateLimitState } from '@wvr/engine';
import { sendError, sendNotFound } from './errors.js';
import { registerJsonBodyParser } from './json-body.js';
import { buildOpenApiDocument } from './openapi.js';
import type { RouteDef } from './route.js';
import type { McpHttpOptions } from './mcp/http.js';
import { baseUrlOf } from './public-url.js';
import { loggerOptions, registerRequestLog, type RequestLogOptions } from './request-log.js';
import { routes as allRoutes } from './routes/index.js';

export interface ServerOptions {
  engine: Engine;
  /** Request logging (JSON lines, one per request); default off. */
  log?: RequestLogOptions;
  /**
   * The base URL callers reach this server at, when it differs from the Host header (behind a
   * proxy): the OpenAPI document's `servers` and the MCP metadata name it. Default: WVR_PUBLIC_URL.
   */
  publicUrl?: string;
  /** Largest accepted body in bytes; default 1 MiB. */
  bodyLimit?: number;
  routes?: RouteDef[];
  /**
   * Who is calling, from the Authorization header. Default: a `wvr_` token. The local CLI
   * passes its own account here so that it runs every operation through the same routes.
   */
  authenticate?: (header: string | undefined) => Principal | Promise<Principal>;
  /** Per-plan rate limits; default on. The local CLI, acting on its own data, turns them off. */
  rateLimits?: boolean;
  /** The MCP endpoint at /mcp and its OAuth protected-resource metadata; false leaves it out. */
  mcp?: McpHttpOptions | false;
  /** The API reference at /docs; default on. */
  docs?: boolean;
}

/**
 * Requests are validated and answers shaped by the engine's operations (zod), not by route schemas, so Fastify's own
 * compilers (ajv, fast-json-stringify) would be loaded for nothing: 60 to 100 ms of every start, a CLI command's
 * in-process server included. A route given a body, query, params, headers or response schema fails loudly instead.
 */
const NO_ROUTE_SCHEMAS = {
  compilersFactory: {
    buildValidator: () => () => {
      throw new Error('wvr routes take no validation schema: the operation validates its input');
    },
    buildSerializer: () => () => {
      throw new Error('wvr routes take no response schema: the operation shapes its answer');
    },
  },
};

/** The spec's paths live under /v1; its development layout mirrors them under /api/v1. */
const PREFIXES = ['/v1', '/api/v1'] as const;

export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const { engine } = options;
  const routes = options.routes ?? allRoutes;
  const rateLimits = options.rateLimits ?? true;
  const authenticate = options.authenticate ?? ((header: string | undefined) => engine.tokens.authenticate(header));
  const publicUrl = options.publicUrl ?? (process.env.WVR_PUBLIC_URL || undefined);
  const app = Fastify({ ...loggerOptions(options.log), bodyLimit: options.bodyLimit ?? 1024 * 1024, schemaController: NO_ROUTE_SCHEMAS });
  if (options.log) registerRequestLog(app);
  // Built on its first request: exporting every route's zod schemas takes 0.1 to 0.2 s of CPU, which every CLI
  // command's in-process server (that never serves it) paid at start.
  let openapi: ReturnType<typeof buildOpenApiDocument> | undefined;

  // On the raw response, so errors, 404s and the hijacked MCP answers carry it too: no browser may
  // sniff a JSON body (which can echo caller input) into HTML or script.
  app.addHook('onRequest', async (_request, reply) => {
    reply.raw.setHeader('X-Content-Type-Options', 'nosniff');
  });
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => sendNotFound(request, reply));
  registerJsonBodyParser(app);

  for (const prefix of PREFIXES) {
    app.get(`${prefix}/openapi.json`, async (request) => ({
      ...(openapi ??= buildOpenApiDocument(routes)),
      servers: [{ url: baseUrlOf(request, publicUrl), description: 'this wvr server' }],
    }));
    for (const route of routes) {
      app.route({
        method: route.method,
        url: `${prefix}${route.path}`,
        handler: async (request, reply) => {
          const principal =
            route.auth === 'public' ? null : await authorize(engine, authenticate, rateLimits, route, request.headers.authorization, reply);
          const result = await runOperation(
            engine,
            route.operation,
            principal,
            { params: request.params as Record<string, string>, query: request.query as Record<string, unknown>, body: request.body },
            { validateOutput: engine.context.options.validateOutputs },
          );
          const dryRun = route.dryRun === true && (result as { dry_run?: unknown } | null)?.dry_run === true;
          return reply.status(dryRun ? 200 : (route.successStatus ?? 200)).send(result);
        },
      });
    }
  }
  // Loaded only when served: the MCP SDK and the reference page weigh tens of MB that the CLI's
  // in-process server (which serves neither) never needs.
  if (options.mcp !== false) {
    const { registerMcp } = await import('./mcp/http.js');
    registerMcp(app, {
      engine,
      routes,
      authenticate,
      consumeRateLimit: async (principal) => (rateLimits ? rateLimitHeaders(await engine.rateLimits.consume(principal)) : {}),
      options: { ...(publicUrl ? { publicUrl } : {}), ...options.mcp },
    });
  }
  if (options.docs !== false) await (await import('./docs/reference.js')).registerApiReference(app);
  return app;
}

async function authorize(
  engine: Engine,
  authenticate: (header: string | undefined) => Principal | Promise<Principal>,
  rateLimits: boolean,
  route: RouteDef,
  header: string | undefined,
  reply: FastifyReply,
): Promise<Principal> {
  const principal = await authenticate(header);
  if (route.auth !== 'token' && route.auth !== 'public') requireScope(principal, route.auth);
  if (rateLimits) reply.headers(rateLimitHeaders(await engine.rateLimits.consume(principal)));
  return principal;
}

const rateLimitHeaders = (state: RateLimitState): Record<string, string> => ({
  'X-RateLimit-Limit': String(state.limit),
  'X-RateLimit-Remaining': String(state.remaining),
  'X-RateLimit-Reset': String(state.reset),
});

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export interface StartOptions extends ServerOptions {
  host?: string;
  port?: number;
  /**
   * Also run the engine's background work here (queued crawls and searches, due workflows,
   * webhook deliveries); default true. Turn it off when separate `wvr worker` processes do it.
   */
  worker?: boolean;
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const app = await createServer(options);
  if (options.worker ?? true) options.engine.start();
  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 8787 });
  return { app, url: address, close: () => app.close() };
}
