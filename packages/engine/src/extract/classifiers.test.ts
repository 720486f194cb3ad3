import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isWvrError, type WvrError } from '../core/errors.js';
import { parseInput } from '../core/validate.js';
import { parseHtml } from '../html/index.js';
import { CrawlBody } from '../crawl/schemas.js';
import { applyClassifiers, checkClassifiers, CLASSIFIER_TYPES, validateClassifiers, type ClassifierInput } from './classifiers.js';

const thrown = (fn: () => unknown): WvrError => {
  try {
    fn();
  } catch (error) {
    if (isWvrError(error)) return error;
    throw error;
  }
  throw new Error('expected a WvrError');
};

const page = parseHtml(
  `<html lang="de"><head><title>Kaffeemühle Test</title></head><body><main><h1>Kaffeemühle im Test</h1>
   <p>Die Mühle mahlt Espresso gleichmäßig und leise. Sponsored by Beanco.</p></main></body></html>`,
  'https://blog.example/tests/kaffeemuehle',
);
const article = { label: 'article' as const, confidence: 0.8 };

describe('classifier validation', () => {
  it('rejects an unknown type with 400 listing the valid types', () => {
    const error = thrown(() => validateClassifiers([{ type: 'sentiment' }]));
    expect(error.status).toBe(400);
    expect(error.code).toBe('classifier_type_unknown');
    expect(error.message).toContain(CLASSIFIER_TYPES.join(', '));
    expect(error.details).toMatchObject({ valid_types: [...CLASSIFIER_TYPES], fields: [{ path: 'classifiers.0.type' }] });
  });

  it('rejects a document type outside the set and a broken regular expression', () => {
    expect(thrown(() => validateClassifiers([{ type: 'document_type', types: ['recipe'] }])).status).toBe(400);
    const error = thrown(() => validateClassifiers([{ type: 'url_pattern', include: ['(unclosed'] }]));
    expect(error.code).toBe('classifier_pattern_invalid');
  });

  it('needs an intent for intent_relevance from the classifier or the crawl', () => {
    expect(thrown(() => validateClassifiers([{ type: 'intent_relevance', min_score: 0.5 }])).code).toBe('classifier_intent_missing');
    expect(validateClassifiers([{ type: 'intent_relevance', min_score: 0.5 }], { intent: 'coffee grinder reviews' })).toHaveLength(1);
  });

  it('reports the same problems as zod issues inside a request schema', () => {
    const Body = z.object({ classifiers: z.array(z.looseObject({ type: z.string() })), intent: z.string().optional() }).superRefine(checkClassifiers);
    const error = thrown(() => parseInput(Body, { classifiers: [{ type: 'language', languages: ['en'] }, { type: 'vibes' }] }));
    expect(error.status).toBe(400);
    expect(error.details).toMatchObject({ fields: [{ path: 'classifiers.1.type', code: 'classifier_type_unknown' }] });
    expect(error.message).toContain('document_type, language, keyword, intent_relevance, url_pattern');
  });
});

describe('applying classifiers', () => {
  const run = (raw: ClassifierInput[], intent?: string) => applyClassifiers(validateClassifiers(raw, { intent }), page, article, intent);

  it('keeps a page that passes every classifier', () => {
    expect(run([{ type: 'document_type', types: ['article'] }, { type: 'language', languages: ['de'] }, { type: 'keyword', must_contain: ['espresso'] }])).toEqual({ keep: true, dropped_reason: null });
  });

  it('drops by document type, language, keyword, relevance and URL, saying which and why', () => {
    expect(run([{ type: 'document_type', types: ['product'] }]).dropped_reason).toBe('document_type: page is article, wanted product');
    expect(run([{ type: 'document_type', types: ['article'], min_confidence: 0.9 }]).keep).toBe(false);
    expect(run([{ type: 'language', languages: ['en', 'fr'] }]).dropped_reason).toMatch(/^language: language de/);
    expect(run([{ type: 'keyword', must_not_contain: ['sponsored'] }]).dropped_reason).toBe('keyword: contains "sponsored"');
    expect(run([{ type: 'keyword', must_contain: ['espresso', 'tee'], match: 'all' }]).keep).toBe(false);
    expect(run([{ type: 'intent_relevance', min_score: 0.5 }], 'lawn mower battery comparison').dropped_reason).toMatch(/^intent_relevance: relevance 0 </);
    expect(run([{ type: 'intent_relevance', min_score: 0.5 }], 'Kaffeemühle Espresso Test').keep).toBe(true);
    expect(run([{ type: 'url_pattern', exclude: ['/tests/'] }]).dropped_reason).toBe('url_pattern: URL matches an exclude pattern');
    expect(run([{ type: 'url_pattern', include: ['/reviews/'] }]).keep).toBe(false);
  });
});

describe('the crawl request', () => {
  it('answers 400 listing the valid types for an unknown classifier in a crawl body', () => {
    const error = thrown(() => parseInput(CrawlBody, { urls: ['https://example.com/'], classifiers: [{ type: 'document_type', types: ['product'] }, { type: 'sentiment' }] }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('classifier_type_unknown');
    expect(error.details).toMatchObject({ fields: [{ path: 'classifiers.1.type' }] });
    expect(error.message).toContain(CLASSIFIER_TYPES.join(', '));
  });

  it('accepts known classifiers in a crawl body', () => {
    const body = parseInput(CrawlBody, { urls: ['https://example.com/'], intent: 'find espresso grinders', classifiers: [{ type: 'intent_relevance', min_score: 0.3 }] });
    expect(body.classifiers).toHaveLength(1);
  });
});
