import { pricing } from '../credits/pricing.js';
import { defineOperation } from '../accounts/operation.js';
import { AskBody, AskResponseSchema } from './schemas.js';
import type { AskService } from './service.js';

type Services = { asks: AskService };
const depths = (['quick', 'standard', 'deep'] as const).map((d) => `${d} ${pricing.ask(d).credits}`).join(', ');

export const askOperations = {
  // Deep asks add rounds as they read, up to max_credits: the service holds and settles the charge.
  create: defineOperation({
    scope: 'search',
    tag: 'ask',
    id: 'createAsk',
    summary: 'Answer a question from researched, cited sources',
    description:
      'Searches what you may see (your pages, pages shared with you, the public cache, the web provider), reads the best pages, ranks their passages and answers with [n] markers that refer to sources[].index. ' +
      `Price: ${depths} plus 1 per further research round, never more than credits.max_credits (${pricing.ask('deep').max_credits}, or your balance if lower). See docs/ask.md.`,
    body: AskBody,
    output: AskResponseSchema,
    session: 'ask',
    run: (s: Services, principal, { body }, { signal }) => s.asks.create(principal, body, signal ? { signal } : {}),
  }),
};
