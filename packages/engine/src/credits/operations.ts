import { defineOperation } from '../accounts/operation.js';
import { CreditsSummarySchema } from './schemas.js';
import type { CreditsService } from './service.js';

export const creditOperations = {
  summary: defineOperation({
    scope: 'token',
    tag: 'credits',
    id: 'getCredits',
    summary: 'Balance, plan, monthly grant and recent ledger entries',
    output: CreditsSummarySchema,
    run: (s: { credits: CreditsService }, principal) => s.credits.summary(principal),
  }),
};
