/** Small lexical tools shared by the heuristic judges (stop conditions, intent filter, assessment, planning). */
import { terms as contentTerms, withStopwords } from '../text/tokens.js';

/** The verbs and fillers of a monitoring request: they say what to do, not what to look for. */
const STOPWORDS = withStopwords(
  'tell let know notify alert monitor monitoring track tracking watch find show get latest'.split(' '),
);

/** Content words of at least three letters, lower-cased and stemmed so "prices" meets "price". */
export function terms(text: string): string[] {
  return contentTerms(text, { stopwords: STOPWORDS, minLength: 3 });
}

export function uniqueTerms(text: string): string[] {
  return [...new Set(terms(text))];
}

/**
 * The content words of a text as written (case and endings kept, in order, one per stem), for
 * building queries a person can read: "noise cancelling headphones", never "noise cancell headphone".
 */
export function contentWords(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of text.match(/[\p{L}\p{N}]+(?:['’.+-][\p{L}\p{N}]+)*/gu) ?? []) {
    const key = terms(word).join(' ');
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(word);
  }
  return out;
}

/** Share of `wanted` terms present in `text`, 0..1, and which were found. */
export function coverage(wanted: string[], text: string): { score: number; found: string[]; missing: string[] } {
  if (wanted.length === 0) return { score: 0, found: [], missing: [] };
  const have = new Set(terms(text));
  const found = wanted.filter((w) => have.has(w));
  return { score: found.length / wanted.length, found, missing: wanted.filter((w) => !have.has(w)) };
}
