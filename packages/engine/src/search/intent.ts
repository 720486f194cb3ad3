import type { ResultType } from './source-type.js';

export const INTENT_TYPES = [
  'competitive_analysis',
  'due_diligence',
  'technical_evaluation',
  'market_research',
  'academic_research',
  'news_monitoring',
  'lead_generation',
] as const;
export type IntentType = (typeof INTENT_TYPES)[number];

export interface IntentEffect {
  /** Added to the query as optional terms: they raise matching results without excluding others. */
  queryAdditions: string[];
  /** What the spec's "+20%" applies to, decided per result. */
  boosts: (r: { url: string; title: string; description: string; type: ResultType | 'mixed' }) => boolean;
  /** The source type the intent prefers, for authority alignment and document-type match. */
  preferredType?: ResultType;
}

const text = (r: { url: string; title: string; description: string }) => `${r.url} ${r.title} ${r.description}`;

/** The spec lists effects for four intent types; the others search as plain queries. */
export const INTENT_EFFECTS: Partial<Record<IntentType, IntentEffect>> = {
  competitive_analysis: {
    queryAdditions: ['vs', 'comparison'],
    boosts: (r) => r.type === 'news' || /\banalyst|analysis|report\b/i.test(text(r)),
    preferredType: 'news',
  },
  due_diligence: {
    queryAdditions: ['risks', 'financials'],
    boosts: (r) => /\b(legal|regulator[a-z]*|regulation|compliance|lawsuit|filing|sec|court)\b|\.gov\b/i.test(text(r)),
  },
  technical_evaluation: {
    queryAdditions: ['benchmarks', 'specs'],
    boosts: (r) => /\/docs?\/|\/\/docs\.|\/reference\/|\b(documentation|api reference|manual|guide)\b/i.test(text(r)),
  },
  academic_research: {
    queryAdditions: ['research', 'paper'],
    boosts: (r) => r.type === 'academic',
    preferredType: 'academic',
  },
};
