import type { FastifyInstance, FastifyServerOptions } from 'fastify';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

export interface RequestLogOptions {
  level: LogLevel;
  /** Where the JSON lines go; default stdout. */
  stream?: NodeJS.WritableStream;
}

/**
 * Fastify's logger (pino, JSON lines) set up for request logging: one `request completed` line
 * per request instead of Fastify's two, carrying method, URL, status and time. Headers are never
 * logged, and token-like query parameters are masked, so a `wvr_` token cannot reach the log.
 */
export function loggerOptions(options: RequestLogOptions | undefined): Pick<FastifyServerOptions, 'logger' | 'disableRequestLogging'> {
  if (!options) return { logger: false };
  return {
    disableRequestLogging: true,
    logger: {
      level: options.level,
      ...(options.stream ? { stream: options.stream } : {}),
      // Fastify logs a request with its errors; these keep that to method and masked URL.
      serializers: { req: (req) => ({ method: req.method, url: maskTokens(req.url ?? '') }), res: (res) => ({ statusCode: res.statusCode }) },
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[redacted]' },
    },
  };
}

export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: maskTokens(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ...(request.routeOptions.url ? { route: request.routeOptions.url } : {}),
      },
      'request completed',
    );
  });
}

const TOKEN_PARAM = /([?&](?:token|access_token|api_key|key)=)[^&#]*/gi;
const TOKEN_VALUE = /wvr_[A-Za-z0-9._~+/=-]+/g;

/** Query parameters that could carry a credential, and anything shaped like a wvr token, become `[redacted]`. */
export const maskTokens = (url: string): string => url.replace(TOKEN_PARAM, '$1[redacted]').replace(TOKEN_VALUE, '[redacted]');
