import type { Request } from '../transport.js';
import type { Schemas } from './types.js';

export const creditsResource = (request: Request) => ({
  get: () => request<Schemas['CreditsSummary']>('GET', '/v1/credits'),
});
