import { CreditsSummarySchema } from '@wvr/engine';
import { defineRoute } from '../route.js';

export const creditRoutes = [
  defineRoute({
    operationId: 'getCredits',
    method: 'GET',
    path: '/credits',
    auth: 'token',
    tag: 'credits',
    summary: 'Balance, plan, monthly grant and recent ledger entries',
    response: CreditsSummarySchema,
    handler: ({ engine, principal }) => engine.credits.summary(principal),
  }),
];
