import type { FastifyInstance } from 'fastify';
import apiReference from '@scalar/fastify-api-reference';

/**
 * The API reference in the browser at /docs: Scalar's page over the same OpenAPI document as
 * GET /v1/openapi.json (it fetches that URL, so the servers entry is the one this request sees).
 * The page's script is served from the package itself, and the default web fonts (a CDN) are off,
 * so the reference works on a machine without internet.
 */
export async function registerApiReference(app: FastifyInstance): Promise<void> {
  await app.register(apiReference, {
    routePrefix: '/docs',
    configuration: {
      url: '/v1/openapi.json',
      title: 'wvr API reference',
      withDefaultFonts: false,
      hideClientButton: true,
      telemetry: false,
      // Scalar's "Ask AI" agent and its API registry search call scalar.com; a self-hosted reference stays local.
      agent: { disabled: true },
    } as Record<string, unknown>,
  });
}
