import { z } from 'zod';
import { Uuid } from '../core/schemas.js';

export const MAX_QUESTION_LENGTH = 2000;
export const MAX_ASK_SOURCES = 20;

export const AskDepth = z
  .enum(['quick', 'standard', 'deep'])
  .describe('How much research goes into the answer: quick 2, standard 3, deep 5 or more credits.');

/** The spec gives no question length; 2000 matches the other natural-language inputs (intent). */
export const AskBody = z
  .strictObject({
    question: z.string().min(1).max(MAX_QUESTION_LENGTH).describe('The question to research, 1 to 2000 characters.'),
    depth: AskDepth.default('standard'),
    max_sources: z.int().min(1).max(MAX_ASK_SOURCES).default(10).describe('Sources to consult and cite, 1 to 20.'),
    session_id: Uuid.optional().describe('Links the question to a session.'),
  })
  .meta({ id: 'AskRequest', description: 'A question to answer with cited sources.' });

export type AskDepth = z.output<typeof AskDepth>;
export type AskBody = z.output<typeof AskBody>;
