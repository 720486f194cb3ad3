import { stemmer as porter } from 'stemmer';

/**
 * The engine's one set of word tools: tokens, the Porter stem, stopwords and sentences. Capabilities
 * add their own domain words to the stopwords (withStopwords) rather than keeping their own lists.
 */

/** Function words of English questions and instructions: too common to carry meaning anywhere. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been being but by can could did do does done during each every for from had has have he her ' +
    'here his how i if in into is it its just may me might more most must my no not of on only or other our over she ' +
    'shall should so some such than that the their them then there these they this those through to under us very ' +
    'was we were what when where which who whom whose why will with within without would you your about after before ' +
    'between many much new also all any one two via vs'
  ).split(' '),
);

/** The shared stopwords plus a caller's domain words (such as the verbs of a monitoring request). */
export function withStopwords(extra: readonly string[]): ReadonlySet<string> {
  return new Set([...STOPWORDS, ...extra]);
}

/** Lowercased word tokens: runs of letters and digits, any script. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The Porter stem of a word, diacritics folded first: the same reduction the local search index
 * applies (SQLite FTS5 `porter unicode61 remove_diacritics 2`), so intent relevance, ask, planning
 * and search all agree that "pricing", "prices" and "price" are one term. Both sides of a
 * comparison must go through it. Stems are keys, not words ("battery" → "batteri").
 */
export function stem(word: string): string {
  const cached = STEMS.get(word);
  if (cached !== undefined) return cached;
  const folded = word.normalize('NFD').replace(/\p{M}/gu, '');
  // Porter knows English suffixes only; other scripts pass through unchanged.
  const result = /^[a-z]+$/.test(folded) ? porter(folded) : folded;
  if (STEMS.size >= STEM_CACHE) STEMS.clear();
  STEMS.set(word, result);
  return result;
}

// Pages repeat their words: a bounded memo keeps stemming off the profile.
const STEMS = new Map<string, string>();
const STEM_CACHE = 50_000;

/**
 * The word each stem most often stands for in these texts (ties: the shorter word): stems are
 * keys, and what a person reads ("availability", not "avail") must be a word from the page.
 */
export function surfaceForms(texts: Iterable<string>): Map<string, string> {
  const seen = new Map<string, Map<string, number>>();
  for (const text of texts) {
    for (const w of words(text)) {
      const forms = seen.get(stem(w)) ?? new Map<string, number>();
      forms.set(w, (forms.get(w) ?? 0) + 1);
      seen.set(stem(w), forms);
    }
  }
  const out = new Map<string, string>();
  for (const [key, forms] of seen) {
    const [best] = [...forms.entries()].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length || a[0].localeCompare(b[0]));
    out.set(key, best![0]);
  }
  return out;
}

export interface TermOptions {
  /** Words to drop; STOPWORDS unless given (see withStopwords). */
  stopwords?: ReadonlySet<string>;
  /** Shorter words are dropped; 1 keeps every word. */
  minLength?: number;
  /** Drop tokens made only of digits ("2026"). */
  dropNumbers?: boolean;
}

/** Content words of a text, in order, stemmed: words minus stopwords, short words and (optionally) numbers. */
export function terms(text: string, options: TermOptions = {}): string[] {
  const stop = options.stopwords ?? STOPWORDS;
  const min = options.minLength ?? 1;
  const out: string[] = [];
  for (const w of words(text)) {
    if (w.length < min || stop.has(w) || (options.dropNumbers && /^\d+$/.test(w))) continue;
    out.push(stem(w));
  }
  return out;
}

/**
 * Sentences of a text, trimmed, without empty ones. A line break always ends one; ".", "!" or "?"
 * end one only before a capital, a digit or a quote, so "approx. five" and "e.g. this" stay whole.
 */
export function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[\p{Lu}\d"“])/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
