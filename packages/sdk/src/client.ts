import { createTransport, type CallOptions, type TransportOptions } from './transport.js';
import type { Body } from './resources/types.js';
import { operationCaller } from './resources/types.js';
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
  const operation = operationCaller(request);
  return {
    request,
    /**
     * The same client with other per-call options: `wvr.withOptions({ signal, timeoutMs: 5000 }).crawls.get(id)`.
     * Options given here win over the client's.
     */
    withOptions: (more: CallOptions): WvrClient => clientFor(options, { ...call, ...more }),
    health: () => operation('health'),
    me: () => operation('getProfile'),
    /** A site's URLs from its sitemaps and links, without fetching its pages (1 credit). */
    map: (body: Body<'mapSite'>) => operation('mapSite', { body }),
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
