import type { Request } from '../transport.js';
import { itemPath, type Schemas } from './types.js';

const path = itemPath('/v1/workflows');

/** Views over workflows for agents: one monitor's story, the news across all, where to look next. */
export const monitorsResource = (request: Request) => ({
  chronicle: (id: string, query: { limit?: number } = {}) => request<Schemas['MonitorChronicle']>('GET', path(id, '/chronicle'), { query }),
  digest: (query: { since?: string; until?: string } = {}) => request<Schemas['MonitorDigest']>('GET', '/v1/workflows/digest', { query }),
  recommendations: (id: string) => request<Schemas['MonitorRecommendations']>('GET', path(id, '/recommendations')),
});
