import { z } from 'zod';
import type { ModelProvider, FallbackReason } from '../ai/provider.js';
import { readIntent } from './intent-reading.js';

export const IntentAssessment = z
  .object({
    assessment: z.enum(['specific', 'vague']),
    specificity_score: z.number().min(1).max(10),
    is_assessed: z.boolean(),
    assessment_source: z.enum(['llm', 'heuristic', 'fallback']),
    fallback_reason_code: z.enum(['timeout', 'parse_error', 'provider_error', 'rate_limited']).optional(),
    vague_aspects: z.array(z.string()).optional(),
    proposed_intent: z.string().optional(),
    what_we_clarified: z.array(z.string()).optional(),
    inferred: z.object({
      trigger_conditions: z.array(z.string()),
      exclusions: z.array(z.string()),
      entities: z.array(z.string()),
      source_types: z.array(z.string()),
      suggested_cadence: z.enum(['hourly', 'daily', 'weekly', 'monthly']),
      monitoring_type: z.string(),
    }),
    reasoning: z.string(),
  })
  .meta({ id: 'IntentAssessment' });
export type IntentAssessment = z.infer<typeof IntentAssessment>;

const ModelAnswer = IntentAssessment.omit({ is_assessed: true, assessment_source: true, fallback_reason_code: true });

/**
 * Never fails: the model's answer when one is configured and answers in time; otherwise the
 * lexical heuristic (with the reason the model was not used); and, should even that throw,
 * the spec's fallback (specific, score 7, is_assessed false).
 */
export async function assessIntent(
  intent: string,
  options: { provider: ModelProvider | undefined; timeoutMs: number; rateLimited: boolean },
): Promise<IntentAssessment> {
  let reason: FallbackReason | undefined = options.rateLimited ? 'rate_limited' : undefined;
  try {
    if (!reason && options.provider && options.provider.name !== 'heuristic') {
      const answer = await withTimeout(
        options.provider.generateObject({
          name: 'intent_assessment',
          schema: ModelAnswer,
          system: 'Assess whether a web-monitoring intent is specific enough to monitor (score 1-10, 7+ is specific). Infer what to watch.',
          prompt: intent,
          timeoutMs: options.timeoutMs,
          heuristic: () => heuristicAssessment(intent),
        }),
        options.timeoutMs,
      );
      if (answer.ok) return { ...answer.value, is_assessed: true, assessment_source: 'llm' };
      reason = answer.reason;
    }
    const heuristic = heuristicAssessment(intent);
    return { ...heuristic, is_assessed: true, assessment_source: 'heuristic', ...(reason ? { fallback_reason_code: reason } : {}) };
  } catch {
    return fallbackAssessment(intent, reason ?? 'provider_error');
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | { ok: false; reason: 'timeout' }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ ok: false; reason: 'timeout' }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: 'timeout' }), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function fallbackAssessment(intent: string, reason: FallbackReason): IntentAssessment {
  return {
    assessment: 'specific',
    specificity_score: 7,
    is_assessed: false,
    assessment_source: 'fallback',
    fallback_reason_code: reason,
    inferred: { trigger_conditions: [], exclusions: [], entities: [], source_types: [], suggested_cadence: 'daily', monitoring_type: 'general_monitoring' },
    reasoning: `The intent was not assessed (${reason}); it is treated as specific. Intent: ${intent.slice(0, 200)}`,
  };
}

type Scored = Omit<IntentAssessment, 'is_assessed' | 'assessment_source' | 'fallback_reason_code'>;

function heuristicAssessment(intent: string): Scored {
  const r = readIntent(intent);
  const points = [
    { why: 'names entities', n: Math.min(3, r.entities.length) },
    { why: 'states a trigger', n: r.triggers.length > 0 ? 2 : 0 },
    { why: 'gives numbers', n: r.numbers.length > 0 ? 1 : 0 },
    { why: 'names sites', n: r.domains.length > 0 ? 1 : 0 },
    { why: 'has enough detail', n: r.topics.length >= 6 ? 1 : 0 },
    { why: 'uses vague words', n: -2 * r.vagueWords.length },
  ];
  const score = Math.max(1, Math.min(10, 2 + points.reduce((s, p) => s + p.n, 0)));
  const specific = score >= 7;
  const inferred = {
    trigger_conditions: r.triggers.map((t) => `${t} mentioned`),
    exclusions: r.exclusions,
    entities: r.entities,
    source_types: r.sourceTypes.length > 0 ? r.sourceTypes : ['news', 'official'],
    suggested_cadence: cadence(intent),
    monitoring_type: monitoringType(r.triggers, r.sourceTypes),
  };
  const reasoning = `Score ${score}/10: ${points.filter((p) => p.n !== 0).map((p) => `${p.why} (${p.n > 0 ? '+' : ''}${p.n})`).join(', ') || 'no specific signals'}.`;
  if (specific) return { assessment: 'specific', specificity_score: score, inferred, reasoning };
  const vague: string[] = [];
  if (r.entities.length === 0) vague.push('no company, product or person is named');
  if (r.triggers.length === 0) vague.push('no event or threshold says what counts as a change');
  if (r.vagueWords.length > 0) vague.push(`vague wording: ${r.vagueWords.join(', ')}`);
  if (r.sourceTypes.length === 0) vague.push('no kind of source is named');
  const subject = r.entities[0] ?? r.topics.slice(0, 3).join(' ');
  return {
    assessment: 'vague',
    specificity_score: score,
    vague_aspects: vague,
    proposed_intent: `Alert me when ${subject || 'the subject'} announces a release, price change or other notable event, from official sources and major news, ignoring opinion pieces.`,
    what_we_clarified: ['named the subject to watch', 'named the events that count as a change', 'named the sources to read', 'excluded opinion pieces'],
    inferred,
    reasoning,
  };
}

function cadence(intent: string): IntentAssessment['inferred']['suggested_cadence'] {
  if (/\b(breaking|real[- ]?time|immediately|outage|urgent|hourly)\b/i.test(intent)) return 'hourly';
  if (/\b(monthly|quarterly|annual)\b/i.test(intent)) return 'monthly';
  if (/\b(weekly|research|paper|study)\b/i.test(intent)) return 'weekly';
  return 'daily';
}

function monitoringType(triggers: string[], sources: string[]): string {
  if (triggers.some((t) => t.startsWith('pric') || t === 'drop' || t === 'below' || t === 'above')) return 'price_tracking';
  if (triggers.some((t) => ['vulnerability', 'cve', 'breach', 'outage'].includes(t))) return 'security_monitoring';
  if (triggers.some((t) => ['release', 'released', 'version', 'changelog', 'deprecat', 'launch'].includes(t))) return 'release_tracking';
  if (triggers.some((t) => ['acquisition', 'acquire', 'funding', 'raise', 'hire', 'hiring', 'earnings', 'filing'].includes(t))) return 'competitive_intelligence';
  if (sources.includes('news')) return 'news_monitoring';
  return 'general_monitoring';
}
