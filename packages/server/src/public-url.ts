import type { FastifyRequest } from 'fastify';

/**
 * The server's base URL as its callers see it: the configured public URL (behind a proxy), else
 * what the request's Host header and protocol say. No trailing slash.
 */
export const baseUrlOf = (request: FastifyRequest, publicUrl: string | undefined): string =>
  (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
