import { sentences, stem, words } from '../text/tokens.js';
import type { FieldPlan } from './field.js';

/** Sentences short enough to be prose rather than a run of unpunctuated page furniture. */
export function sentencesOf(text: string): string[] {
  return sentences(text).filter((s) => s.length < 600);
}

/** Sentences that mention the field, best first: name words count double. Words meet by their stems. */
export function relevantSentences(sentences: string[], plan: FieldPlan): { sentence: string; score: number }[] {
  const names = [...new Set(plan.nameWords.map(stem))];
  const others = [...new Set(plan.keywords.filter((w) => !plan.nameWords.includes(w)).map(stem))].filter((s) => !names.includes(s));
  const scored = sentences.map((sentence) => {
    const have = new Set(words(sentence).map(stem));
    const nameHits = names.filter((s) => have.has(s)).length;
    const otherHits = others.filter((s) => have.has(s)).length;
    return { sentence, score: nameHits * 2 + otherHits, nameHits };
  });
  return scored.filter((s) => s.nameHits > 0 || s.score >= 2).sort((a, b) => b.score - a.score);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What a word and its stem share ("battery"/"batteri" → "batter"): a prefix that finds every form of it. */
function stemPrefix(word: string): string {
  const s = stem(word);
  let i = 0;
  while (i < s.length && i < word.length && s[i] === word[i]) i++;
  return word.slice(0, Math.max(i, Math.min(3, word.length)));
}

/** "Weight is 250 g" or "weight: 250 g" → "250 g", for the first name word found. */
export function valueAfterKeyword(sentence: string, plan: FieldPlan): string | undefined {
  for (const word of plan.nameWords) {
    const m = new RegExp(`\\b${escapeRe(stemPrefix(word))}\\w*\\s*(?::|is|are|was|of|=|-)\\s+([^.;,]{1,80})`, 'i').exec(sentence);
    if (m) return m[1]!.trim();
  }
  return undefined;
}
