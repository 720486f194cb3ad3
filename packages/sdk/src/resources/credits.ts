import type { Request } from '../transport.js';
import { operationCaller } from './types.js';

export const creditsResource = (request: Request) => {
  const call = operationCaller(request);
  return { get: () => call('getCredits') };
};
