import { sentences } from '../text/tokens.js';
import type { FieldPlan } from './field.js';

/** Sentences short enough to be prose rather than a run of unpunctuated page furniture. */
export function sentencesOf(text: string): string[] {
  return sentences(text).filter((s) => s.length < 600);
}

/** Sentences that mention the field, best first: name words count double. */
export function relevantSentences(sentences: string[], plan: FieldPlan): { sentence: string; score: number }[] {
  // Built once per field, not once per sentence: a page has hundreds of sentences.
  const mentions = (w: string) => new RegExp(`\\b${escapeRe(stem(w))}`, 'i');
  const names = plan.nameWords.map(mentions);
  const others = plan.keywords.filter((w) => !plan.nameWords.includes(w)).map(mentions);
  const scored = sentences.map((sentence) => {
    const lower = sentence.toLowerCase();
    const nameHits = names.filter((re) => re.test(lower)).length;
    const otherHits = others.filter((re) => re.test(lower)).length;
    return { sentence, score: nameHits * 2 + otherHits, nameHits };
  });
  return scored.filter((s) => s.nameHits > 0 || s.score >= 2).sort((a, b) => b.score - a.score);
}

/** A crude stem so "publish" finds "published" and "ingredients" finds "ingredient". */
export const stem = (word: string) => (word.length > 5 ? word.replace(/(ing|ed|es|s)$/, '') : word.replace(/s$/, ''));

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "Weight is 250 g" or "weight: 250 g" → "250 g", for the first name word found. */
export function valueAfterKeyword(sentence: string, plan: FieldPlan): string | undefined {
  for (const word of plan.nameWords) {
    const m = new RegExp(`\\b${escapeRe(stem(word))}\\w*\\s*(?::|is|are|was|of|=|-)\\s+([^.;,]{1,80})`, 'i').exec(sentence);
    if (m) return m[1]!.trim();
  }
  return undefined;
}
