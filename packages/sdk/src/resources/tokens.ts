import type { Request } from '../transport.js';
import type { Schemas } from './types.js';

export const tokensResource = (request: Request) => ({
  create: (body: Schemas['TokenCreateRequest']) => request<Schemas['TokenCreated']>('POST', '/v1/tokens', { body }),
  list: () => request<Schemas['TokenList']>('GET', '/v1/tokens'),
  revoke: (id: string) => request<Schemas['Token']>('DELETE', `/v1/tokens/${encodeURIComponent(id)}`),
});
