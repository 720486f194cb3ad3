import { AskBody, AskResponseSchema } from '@wvr/engine';
import { defineRoute } from '../route.js';

export const askRoutes = [
  defineRoute({
    operationId: 'createAsk',
    method: 'POST',
    path: '/asks',
    auth: 'search',
    tag: 'ask',
    summary: 'Answer a question from researched, cited sources',
    description:
      'Searches what you may see (your pages, pages shared with you, the public cache, the web provider), reads the best pages, ranks their passages and answers with [n] markers that refer to sources[].index. ' +
      'Price: quick 2, standard 3, deep 5 plus 1 per further research round, never more than credits.max_credits (10, or your balance if lower). See docs/ask.md.',
    body: AskBody,
    response: AskResponseSchema,
    handler: ({ engine, principal, body }) => engine.asks.create(principal, body),
  }),
];
