import type { Request } from '../transport.js';
import { operationCaller, type Body } from './types.js';

export const tokensResource = (request: Request) => {
  const call = operationCaller(request);
  return {
    create: (body: Body<'createToken'>) => call('createToken', { body }),
    list: () => call('listTokens'),
    revoke: (id: string) => call('revokeToken', { id }),
  };
};
