import type { Request } from '../transport.js';
import { operationCaller, type Body } from './types.js';

export const brandResource = (request: Request) => {
  const call = operationCaller(request);
  return { designSystem: (body: Body<'getBrandDesignSystem'>) => call('getBrandDesignSystem', { body }) };
};
