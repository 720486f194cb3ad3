import { z } from 'zod';
import { Uuid } from '../core/schemas.js';

export const AskDepth = z.enum(['quick', 'standard', 'deep']);

export const AskFields = {
  question: z.string().trim().min(1).max(2000).describe('The question to research'),
  depth: AskDepth.default('standard').describe('quick 2, standard 3, deep 5 or more credits'),
  max_sources: z.number().int().min(1).max(20).default(10).describe('1 to 20 sources'),
  session_id: Uuid.optional(),
};

export const AskBody = z.strictObject(AskFields).meta({ id: 'AskRequest' });
