import { z } from 'zod';
import { API_VERSION, ENGINE_VERSION } from '@wvr/engine';
import { defineRoute } from '../route.js';

const Health = z
  .object({ status: z.literal('ok'), version: z.string(), api_version: z.string() })
  .meta({ id: 'Health' });

export const metaRoutes = [
  defineRoute({
    operationId: 'health',
    method: 'GET',
    path: '/health',
    auth: 'public',
    tag: 'meta',
    summary: 'Liveness and versions',
    response: Health,
    handler: () => ({ status: 'ok' as const, version: ENGINE_VERSION, api_version: API_VERSION }),
  }),
];
