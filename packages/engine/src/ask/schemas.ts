import { z } from 'zod';
import { Uuid } from '../core/schemas.js';
import { renderField } from '../web/render/schema.js';

export const AskDepth = z.enum(['quick', 'standard', 'deep']);

export const AskFields = {
  question: z.string().trim().min(1).max(2000).describe('The question to research'),
  depth: AskDepth.default('standard').describe('quick 2, standard 3, deep 5 or more credits'),
  max_sources: z.number().int().min(1).max(20).default(10).describe('1 to 20 sources'),
  session_id: Uuid.optional(),
  render: renderField().describe('wvr extension (not in the spec). How sources fetched for the answer are read: never, auto (default: application shells are rendered in headless Chromium) or always; the answer\'s price does not change'),
};

export const AskBody = z.strictObject(AskFields).meta({ id: 'AskRequest' });
export type AskInput = z.input<typeof AskBody>;
export type AskRequest = z.output<typeof AskBody>;

export const AskPassageSchema = z
  .object({
    text: z.string().describe('Quoted verbatim from the page'),
    score: z.number().describe('BM25 relevance of the passage to the question'),
  })
  .meta({ id: 'AskPassage' });

export const AskSourceSchema = z
  .object({
    index: z.number().int().min(1).describe('The number used by the answer’s [n] citation markers'),
    url: z.string(),
    title: z.string(),
    published_date: z.string().nullable(),
    cited: z.boolean().describe('Whether the answer cites this source'),
    passages: z.array(AskPassageSchema).describe('The best passages read from this source, best first'),
  })
  .meta({ id: 'AskSource' });
export type AskSource = z.infer<typeof AskSourceSchema>;

export const AskCreditsSchema = z
  .object({
    consumed: z.number().int().describe('Credits charged for this answer'),
    balance_after: z.number().int(),
    pricing_tier: z.enum(['basic', 'advanced']),
    advanced_features: z.array(z.string()),
    base_credits: z.number().int().describe('quick 2, standard 3, deep 5'),
    max_credits: z.number().int().describe('The most this answer could cost, stated before it ran (deep: 10)'),
    research_rounds: z.number().int().describe('Retrieval rounds run; each deep round after the first costs 1 credit'),
  })
  .meta({ id: 'AskCredits' });
export type AskCredits = z.infer<typeof AskCreditsSchema>;

export const AskResponseSchema = z
  .object({
    id: z.string().uuid(),
    question: z.string(),
    depth: AskDepth,
    answer: z
      .string()
      .describe('The answer; each claim ends with citation markers such as [1] or [2][3] that refer to sources[].index'),
    answer_mode: z.enum(['extractive', 'generated']).describe('extractive: sentences quoted from sources; generated: written by the model from them'),
    confidence: z.number().min(0).max(1).describe('How well the sources support the answer, 0 to 1'),
    sources: z.array(AskSourceSchema).describe('Sources read and found relevant, cited ones first'),
    follow_up_questions: z.array(z.string()),
    session_id: z.string().uuid().nullable(),
    model: z.object({
      provider: z.string(),
      model: z.string(),
      fallback_reason: z.string().nullable().describe('Set when the configured model failed and the extractive answer was used'),
    }),
    stats: z.object({
      pages_considered: z.number().int().describe('Candidate pages retrieval returned'),
      pages_read: z.number().int(),
      passages_ranked: z.number().int(),
    }),
    credits: AskCreditsSchema,
    created_at: z.string(),
  })
  .meta({ id: 'AskResponse' });
export type AskResponse = z.infer<typeof AskResponseSchema>;

/** What a session hands to ask: its recent queries and salient terms bias retrieval. */
export interface AskContext {
  sessionId: string;
  /** Words added to the retrieval query (the session's top keywords and entities). */
  queryTerms?: string[];
  /** URLs the session has already seen; preferred when equally relevant. */
  seenUrls?: string[];
}
