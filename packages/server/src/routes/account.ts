import { ProfileSchema } from '@wvr/engine';
import { defineRoute } from '../route.js';

export const accountRoutes = [
  defineRoute({
    operationId: 'getProfile',
    method: 'GET',
    path: '/me',
    auth: 'token',
    tag: 'account',
    summary: 'Your account: plan, organizations, rate limits and the calling token’s scopes',
    response: ProfileSchema,
    handler: ({ engine, principal }) => engine.accounts.profile(principal),
  }),
];
