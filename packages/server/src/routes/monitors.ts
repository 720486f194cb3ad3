import { ChronicleQuery, DigestQuery, MonitorChronicleSchema, MonitorDigestSchema, MonitorIdParams, MonitorRecommendationsSchema } from '@wvr/engine';
import { defineRoute } from '../route.js';

/** Views over workflows for agents (the MCP monitors_* tools run these). */
export const monitorRoutes = [
  defineRoute({
    operationId: 'getWorkflowDigest',
    method: 'GET',
    path: '/workflows/digest',
    auth: 'workflow',
    tag: 'workflows',
    summary: 'What changed across your workflows in a time window (default: the last 24 hours)',
    query: DigestQuery,
    response: MonitorDigestSchema,
    handler: ({ engine, principal, query }) => engine.monitors.digest(principal, query),
  }),
  defineRoute({
    operationId: 'getWorkflowChronicle',
    method: 'GET',
    path: '/workflows/:id/chronicle',
    auth: 'workflow',
    tag: 'workflows',
    summary: 'The time-ordered story of one workflow’s changes',
    params: MonitorIdParams,
    query: ChronicleQuery,
    response: MonitorChronicleSchema,
    handler: ({ engine, principal, params, query }) => engine.monitors.chronicle(principal, params.id!, query),
  }),
  defineRoute({
    operationId: 'getWorkflowRecommendations',
    method: 'GET',
    path: '/workflows/:id/recommendations',
    auth: 'workflow',
    tag: 'workflows',
    summary: 'New queries and URLs to monitor, from what a workflow has found',
    params: MonitorIdParams,
    response: MonitorRecommendationsSchema,
    handler: ({ engine, principal, params }) => engine.monitors.recommendations(principal, params.id!),
  }),
];
