import { createTransport, type CallOptions, type TransportOptions } from './transport.js';
import type { Schemas } from './resources/types.js';
import { creditsResource } from './resources/credits.js';
import { sessionsResource } from './resources/sessions.js';
import { tokensResource } from './resources/tokens.js';
import { webhooksResource } from './resources/webhooks.js';
import { asksResource } from './resources/asks.js';
import { searchResource } from './resources/search.js';
import { crawlsResource } from './resources/crawls.js';
import { extractionResource } from './resources/extraction.js';
import { workflowsResource } from './resources/workflows.js';
import { monitorsResource } from './resources/monitors.js';
import { brandResource } from './resources/brand.js';

export type ClientOptions = TransportOptions;

/** The typed wvr client: one method per API operation, grouped as the API is (one file per group in resources/). */
export function createClient(options: ClientOptions) {
  return clientFor(options, {});
}

function clientFor(options: ClientOptions, call: CallOptions) {
  const request = createTransport(options, call);
  return {
    request,
    /**
     * The same client with other per-call options: `wvr.withOptions({ signal, timeoutMs: 5000 }).crawls.get(id)`.
     * Options given here win over the client's.
     */
    withOptions: (more: CallOptions): WvrClient => clientFor(options, { ...call, ...more }),
    health: () => request<Schemas['Health']>('GET', '/v1/health'),
    me: () => request<Schemas['Profile']>('GET', '/v1/me'),
    tokens: tokensResource(request),
    credits: creditsResource(request),
    webhooks: webhooksResource(request),
    sessions: sessionsResource(request),
    asks: asksResource(request),
    search: searchResource(request),
    crawls: crawlsResource(request),
    extraction: extractionResource(request),
    workflows: workflowsResource(request),
    monitors: monitorsResource(request),
    brand: brandResource(request),
  };
}

export interface WvrClient extends Omit<ReturnType<typeof clientFor>, 'withOptions'> {
  withOptions(options: CallOptions): WvrClient;
}
