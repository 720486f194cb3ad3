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
  /** The document types the boost favours, as a session's context_summary reports them. */
  boostDocumentTypes: string[];
}

const text = (r: { url: string; title: string; description: string }) => `${r.url} ${r.title} ${r.description}`;

/**
 * The one table of intent effects (search reranking and the session context summary read it).
 * The spec lists effects for four intent types; the others search as plain queries.
 */
export const INTENT_EFFECTS: Partial<Record<IntentType, IntentEffect>> = {
  competitive_analysis: {
    queryAdditions: ['vs', 'comparison'],
    boosts: (r) => r.type === 'news' || /\banalyst|analysis|report\b/i.test(text(r)),
    preferredType: 'news',
    boostDocumentTypes: ['news', 'analyst_report'],
  },
  due_diligence: {
    queryAdditions: ['risks', 'financials'],
    boostDocumentTypes: ['legal', 'regulatory'],
    boosts: (r) => /\b(legal|regulator[a-z]*|regulation|compliance|lawsuit|filing|sec|court)\b|\.gov\b/i.test(text(r)),
  },
  technical_evaluation: {
    queryAdditions: ['benchmarks', 'specs'],
    boostDocumentTypes: ['documentation'],
    boosts: (r) => /\/docs?\/|\/\/docs\.|\/reference\/|\b(documentation|api reference|manual|guide)\b/i.test(text(r)),
  },
  academic_research: {
    queryAdditions: ['research', 'paper'],
    boosts: (r) => r.type === 'academic',
    preferredType: 'academic',
    boostDocumentTypes: ['academic'],
  },
};

/** What an intent adds to a search; none for intents without listed effects. */
export function intentEffects(intent: IntentType | null | undefined): { queryAdditions: string[]; boostDocumentTypes: string[] } {
  const effect = intent ? INTENT_EFFECTS[intent] : undefined;
  return { queryAdditions: effect?.queryAdditions ?? [], boostDocumentTypes: effect?.boostDocumentTypes ?? [] };
}
