import { defineOperation } from '../accounts/operation.js';
import { ChronicleQuery, DigestQuery, MonitorChronicleSchema, MonitorDigestSchema, MonitorIdParams, MonitorRecommendationsSchema } from './schemas.js';
import type { MonitorsService } from './service.js';

type Services = { monitors: MonitorsService };
const base = { scope: 'workflow', tag: 'workflows' } as const;

/** Views over workflows for agents (the MCP monitors_* tools run these). */
export const monitorOperations = {
  digest: defineOperation({
    ...base,
    id: 'getWorkflowDigest',
    summary: 'What changed across your workflows in a time window (default: the last 24 hours)',
    query: DigestQuery,
    output: MonitorDigestSchema,
    run: (s: Services, principal, { query }) => s.monitors.digest(principal, query),
  }),
  chronicle: defineOperation({
    ...base,
    id: 'getWorkflowChronicle',
    summary: 'The time-ordered story of one workflow’s changes',
    params: MonitorIdParams,
    query: ChronicleQuery,
    output: MonitorChronicleSchema,
    run: (s: Services, principal, { params, query }) => s.monitors.chronicle(principal, params.id!, query),
  }),
  recommendations: defineOperation({
    ...base,
    id: 'getWorkflowRecommendations',
    summary: 'New queries and URLs to monitor, from what a workflow has found',
    params: MonitorIdParams,
    output: MonitorRecommendationsSchema,
    run: (s: Services, principal, { params }) => s.monitors.recommendations(principal, params.id!),
  }),
};
