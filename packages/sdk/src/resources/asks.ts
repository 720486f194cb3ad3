import type { Request } from '../transport.js';
import type { Schemas } from './types.js';

/** depth and max_sources have server-side defaults (standard, 10) and may be left out. */
export type AskCreateBody = Pick<Schemas['AskRequest'], 'question'> & Partial<Omit<Schemas['AskRequest'], 'question'>>;

export const asksResource = (request: Request) => ({
  create: (body: AskCreateBody) => request<Schemas['AskResponse']>('POST', '/v1/asks', { body }),
});
