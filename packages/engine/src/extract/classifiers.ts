import { z } from 'zod';
import { errors } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import type { ParsedPage } from '../html/index.js';
import { DOCUMENT_TYPES, type Classification } from './classify.js';
import { intentRelevance } from './intent.js';

/**
 * The crawl's `classifiers`: filters every fetched page passes before it is kept. The spec
 * cuts the set off; these five are ours (docs/extraction.md).
 */
const DocumentTypeClassifier = z.strictObject({
  type: z.literal('document_type'),
  types: z.array(z.enum(DOCUMENT_TYPES)).min(1).describe('Keep only pages classified as one of these'),
  min_confidence: z.number().min(0).max(1).default(0).describe('And only when the classification is at least this sure'),
});
const LanguageClassifier = z.strictObject({
  type: z.literal('language'),
  languages: z.array(z.string().regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/, 'must be a language code such as en or pt-BR')).min(1).describe('ISO 639 codes; pages whose language is unknown are kept'),
});
const KeywordClassifier = z
  .strictObject({
    type: z.literal('keyword'),
    must_contain: z.array(z.string().min(1).max(200)).max(50).default([]),
    must_not_contain: z.array(z.string().min(1).max(200)).max(50).default([]),
    match: z.enum(['any', 'all']).default('any').describe('Whether any or all must_contain terms are needed'),
  })
  .refine((c) => c.must_contain.length + c.must_not_contain.length > 0, { message: 'needs must_contain or must_not_contain', params: { code: 'classifier_keyword_empty' } });
const IntentRelevanceClassifier = z.strictObject({
  type: z.literal('intent_relevance'),
  min_score: z.number().min(0).max(1).describe('Lexical relevance to the intent, 0 to 1'),
  intent: z.string().trim().min(10).max(2000).optional().describe("Default: the crawl's intent"),
});
const UrlPatternClassifier = z
  .strictObject({
    type: z.literal('url_pattern'),
    include: z.array(z.string().min(1).max(500)).max(50).default([]).describe('Regular expressions; keep URLs matching one'),
    exclude: z.array(z.string().min(1).max(500)).max(50).default([]).describe('Regular expressions; drop URLs matching one'),
  })
  .superRefine((c, ctx) => {
    if (c.include.length + c.exclude.length === 0) ctx.addIssue({ code: 'custom', message: 'needs include or exclude', params: { code: 'classifier_url_pattern_empty' } });
    for (const [key, list] of [['include', c.include], ['exclude', c.exclude]] as const) {
      list.forEach((pattern, i) => {
        try {
          new RegExp(pattern);
        } catch {
          ctx.addIssue({ code: 'custom', message: `is not a valid regular expression: ${pattern}`, path: [key, i], params: { code: 'classifier_pattern_invalid' } });
        }
      });
    }
  });

export const ClassifierConfig = z
  .discriminatedUnion('type', [DocumentTypeClassifier, LanguageClassifier, KeywordClassifier, IntentRelevanceClassifier, UrlPatternClassifier])
  .meta({ id: 'ClassifierConfig' });
export type ClassifierConfig = z.output<typeof ClassifierConfig>;

/** A classifier as a request carries it: any type name, checked here. */
export type ClassifierInput = { type: string; [key: string]: unknown };

export const CLASSIFIER_TYPES = ['document_type', 'language', 'keyword', 'intent_relevance', 'url_pattern'] as const;

/**
 * Checks a crawl's classifiers (the crawl schema accepts any `type`): an unknown type is a 400
 * listing the valid ones; intent_relevance needs an intent of its own or the crawl's.
 */
export function validateClassifiers(classifiers: readonly ClassifierInput[] | undefined, crawl: { intent?: string | undefined } = {}): ClassifierConfig[] {
  if (!classifiers) return [];
  return classifiers.map((raw, index) => {
    if (!(CLASSIFIER_TYPES as readonly string[]).includes(raw.type)) {
      throw errors.validation('classifier_type_unknown', `Invalid request body: classifiers.${index}.type "${raw.type}" is not a classifier type; valid types are ${CLASSIFIER_TYPES.join(', ')}.`, {
        details: { fields: [{ path: `classifiers.${index}.type`, code: 'classifier_type_unknown', message: `must be one of ${CLASSIFIER_TYPES.join(', ')}` }], valid_types: [...CLASSIFIER_TYPES] },
        suggestions: [`Use one of: ${CLASSIFIER_TYPES.join(', ')} (see docs/extraction.md).`],
      });
    }
    const config = parseInput(ClassifierConfig, raw, `classifiers.${index}`);
    if (config.type === 'intent_relevance' && !config.intent && !crawl.intent) {
      throw errors.validation('classifier_intent_missing', `Invalid request body: classifiers.${index} (intent_relevance) needs an intent: set its intent or the crawl's intent.`, {
        details: { fields: [{ path: `classifiers.${index}.intent`, code: 'classifier_intent_missing', message: 'is required when the crawl has no intent' }] },
      });
    }
    return config;
  });
}

/**
 * The same rules as validateClassifiers, as zod issues: for a request schema's superRefine
 * (crawlRules), so a bad classifier is reported with every other problem of the body.
 */
export function checkClassifiers(
  body: { classifiers?: readonly ClassifierInput[] | undefined; intent?: string | undefined; auto_generate_intent?: boolean | undefined },
  ctx: z.RefinementCtx,
): void {
  (body.classifiers ?? []).forEach((raw, index) => {
    if (!(CLASSIFIER_TYPES as readonly string[]).includes(raw.type)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${raw.type}" is not a classifier type; valid types are ${CLASSIFIER_TYPES.join(', ')}`,
        path: ['classifiers', index, 'type'],
        params: { code: 'classifier_type_unknown', valid_types: [...CLASSIFIER_TYPES] },
      });
      return;
    }
    const parsed = ClassifierConfig.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: ['classifiers', index, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], params: { code: `classifier_${raw.type}_invalid` } });
      }
    } else if (parsed.data.type === 'intent_relevance' && !parsed.data.intent && !body.intent && !body.auto_generate_intent) {
      ctx.addIssue({ code: 'custom', message: "needs an intent: set this classifier's intent or the crawl's", path: ['classifiers', index, 'intent'], params: { code: 'classifier_intent_missing' } });
    }
  });
}

export interface ClassifierVerdict {
  keep: boolean;
  /** `<classifier type>: why`, when a classifier dropped the page. */
  dropped_reason: string | null;
}

/** Runs the classifiers in order; the first that refuses the page decides why it was dropped. */
export function applyClassifiers(
  classifiers: readonly ClassifierConfig[],
  page: ParsedPage,
  classification: Classification,
  crawlIntent?: string,
): ClassifierVerdict {
  const haystack = `${page.title ?? ''}\n${page.description ?? ''}\n${page.text}`.toLowerCase();
  for (const c of classifiers) {
    const reason = refusal(c);
    if (reason) return { keep: false, dropped_reason: `${c.type}: ${reason}` };
  }
  return { keep: true, dropped_reason: null };

  function refusal(c: ClassifierConfig): string | null {
    switch (c.type) {
      case 'document_type':
        if (!c.types.includes(classification.label)) return `page is ${classification.label}, wanted ${c.types.join(' or ')}`;
        if (classification.confidence < c.min_confidence) return `classified ${classification.label} with confidence ${classification.confidence} < ${c.min_confidence}`;
        return null;
      case 'language': {
        const lang = page.language?.toLowerCase();
        const wanted = c.languages.map((l) => l.toLowerCase().split('-')[0]!);
        return lang && !wanted.includes(lang.split('-')[0]!) ? `language ${lang} not in ${wanted.join(', ')}` : null;
      }
      case 'keyword': {
        const found = c.must_contain.filter((k) => haystack.includes(k.toLowerCase()));
        const enough = c.must_contain.length === 0 || (c.match === 'all' ? found.length === c.must_contain.length : found.length > 0);
        if (!enough) return `missing ${c.match === 'all' ? 'all of' : 'any of'} ${c.must_contain.join(', ')}`;
        const banned = c.must_not_contain.find((k) => haystack.includes(k.toLowerCase()));
        return banned ? `contains "${banned}"` : null;
      }
      case 'intent_relevance': {
        if (!c.intent && !crawlIntent) return null;
        const score = intentRelevance(c.intent ?? crawlIntent ?? '', page);
        return score < c.min_score ? `relevance ${score} < ${c.min_score}` : null;
      }
      case 'url_pattern': {
        if (c.exclude.some((p) => new RegExp(p).test(page.url))) return 'URL matches an exclude pattern';
        if (c.include.length > 0 && !c.include.some((p) => new RegExp(p).test(page.url))) return 'URL matches no include pattern';
        return null;
      }
    }
  }
}
