import { z } from 'zod';
import { PlanSchema } from '../accounts/schemas.js';

export const CreditsInfoSchema = z
  .object({
    consumed: z.number().int().describe('Credits consumed by the operation'),
    balance_after: z.number().int().describe('Balance after the operation'),
    pricing_tier: z.enum(['basic', 'advanced']),
    advanced_features: z.array(z.string()).describe('Features that caused advanced pricing'),
  })
  .meta({ id: 'CreditsInfo' });
export type CreditsInfo = z.infer<typeof CreditsInfoSchema>;

export const LedgerEntrySchema = z
  .object({
    id: z.string(),
    kind: z.enum(['grant', 'reserve', 'commit', 'release', 'charge', 'refund']),
    amount: z.number().int().describe('Signed: positive adds to the balance, negative takes from it'),
    operation: z.string().nullable(),
    reservation_id: z.string().nullable(),
    note: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'LedgerEntry' });
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

export const CreditsSummarySchema = z
  .object({
    balance: z.number().int(),
    reserved: z.number().int().describe('Held by running operations; returned when they finish or are cancelled'),
    plan: PlanSchema,
    monthly_grant: z.number().int(),
    period_start: z.string(),
    period_end: z.string(),
    recent: z.array(LedgerEntrySchema),
  })
  .meta({ id: 'CreditsSummary' });
export type CreditsSummary = z.infer<typeof CreditsSummarySchema>;
