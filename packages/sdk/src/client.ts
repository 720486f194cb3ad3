import type { components } from './generated/openapi.js';
import { createTransport, type TransportOptions } from './transport.js';

type Schemas = components['schemas'];

export type ClientOptions = TransportOptions;

/** The typed wvr client: one method per API operation, grouped as the API is. */
export function createClient(options: ClientOptions) {
  const request = createTransport(options);
  return {
    request,
    health: () => request<Schemas['Health']>('GET', '/v1/health'),
    tokens: {
      create: (body: Schemas['TokenCreateRequest']) => request<Schemas['TokenCreated']>('POST', '/v1/tokens', { body }),
      list: () => request<Schemas['TokenList']>('GET', '/v1/tokens'),
      revoke: (id: string) => request<Schemas['Token']>('DELETE', `/v1/tokens/${encodeURIComponent(id)}`),
    },
    credits: {
      get: () => request<Schemas['CreditsSummary']>('GET', '/v1/credits'),
    },
  };
}

export type WvrClient = ReturnType<typeof createClient>;
