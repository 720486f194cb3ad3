import type { Request } from '../transport.js';
import { operationCaller, type Query } from './types.js';

/** Views over workflows for agents: one monitor's story, the news across all, where to look next. */
export const monitorsResource = (request: Request) => {
  const call = operationCaller(request);
  return {
    chronicle: (id: string, query: Query<'getWorkflowChronicle'> = {}) => call('getWorkflowChronicle', { id, query }),
    digest: (query: Query<'getWorkflowDigest'> = {}) => call('getWorkflowDigest', { query }),
    recommendations: (id: string) => call('getWorkflowRecommendations', { id }),
  };
};
