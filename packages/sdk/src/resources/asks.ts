import type { Request } from '../transport.js';
import type { Schemas } from './types.js';

export type AskCreateBody = Schemas['AskRequest'];

export const asksResource = (request: Request) => ({
  create: (body: AskCreateBody) => request<Schemas['AskResponse']>('POST', '/v1/asks', { body }),
});
