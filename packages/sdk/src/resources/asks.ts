import type { Request } from '../transport.js';
import { operationCaller, type Body } from './types.js';

export type AskCreateBody = Body<'createAsk'>;

export const asksResource = (request: Request) => {
  const call = operationCaller(request);
  return { create: (body: AskCreateBody) => call('createAsk', { body }) };
};
