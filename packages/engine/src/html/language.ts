import { onFirstUse } from '../core/on-first-use.js';
import { charCode, isWhiteSpace } from './chars.js';

/**
 * The language of a page that does not declare one, from a sample of its text.
 *
 * Most such pages on the web are English, and tinyld costs about 3 ms a call whatever the
 * sample's length (it allocates per word and per gram): a quarter of the whole read of a small
 * page. English prose is recognised first, in one pass over its words, by its function words:
 * "the", "and", "of", "to"… are a fifth or more of any English sentence and are not words of the
 * other languages tinyld knows, so a text where they are that common is English. Tokens that read
 * as code are left out of the count: a source listing's comments and docstrings are its prose, and
 * tinyld reads the identifiers around them as German or Polish. Anything else (other languages,
 * tables of names, code with too little prose) goes to tinyld, whose answer is taken only when it is
 * sure enough of it and the sample is written in that language's letters: else the language is
 * unknown (null), not a guess from a menu's or a listing's identifiers.
 */
export function guessLanguage(sample: string): string | null {
  if (isEnglishProse(sample)) return 'en';
  // The library's best answer that it is sure enough of and that is written in the sample's letters.
  for (const { lang, accuracy } of tinyld().detectAll(sample)) {
    if (accuracy >= MIN_ACCURACY && isWrittenIn(sample, lang)) return lang;
  }
  return null;
}

/**
 * The library's confidence below which its answer is noise. Prose of the other languages it knows scores 0.25 to 1 (nine
 * pages in ten over 0.6); a menu, an index of names or a code listing shares few grams with any language and mostly
 * scores under 0.05, for whichever language its identifiers happen to look like. Of the datasets' 453 pages that reach
 * the library with their language undeclared, 49 got an answer under 0.05, and 33 of those were wrong (docs/benchmarks.md).
 */
const MIN_ACCURACY = 0.05;

/**
 * The letters of the scripts of the library's languages that are not written in Latin letters, as ranges of code
 * points. The library reads a sample of ASCII alone as Hindi, Japanese, Arabic or Bengali now and then (an index of
 * one-letter links, a listing of numbers), an answer its own sample belies.
 */
const SCRIPTS: Record<string, readonly (readonly [number, number])[]> = {
  ru: [[0x0400, 0x04ff]],
  el: [[0x0370, 0x03ff]],
  he: [[0x0590, 0x05ff]],
  ar: [[0x0600, 0x06ff], [0x0750, 0x077f]],
  hi: [[0x0900, 0x097f]],
  bn: [[0x0980, 0x09ff]],
  th: [[0x0e00, 0x0e7f]],
  ja: [[0x3040, 0x30ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff]],
  zh: [[0x3400, 0x4dbf], [0x4e00, 0x9fff]],
  ko: [[0x1100, 0x11ff], [0x3130, 0x318f], [0xac00, 0xd7af]],
};
/** Latin letters: ASCII's, and those of Latin-1 and the Latin extensions (é, ß, ł, ő, ş). */
const LATIN: readonly (readonly [number, number])[] = [[0x41, 0x5a], [0x61, 0x7a], [0xc0, 0x24f], [0x1e00, 0x1eff]];

/** The letters of every script above, and Latin's. */
const LETTERS = [...LATIN, ...Object.values(SCRIPTS).flat()];

/** A language's letters are a quarter or more of the sample's letters (those of the scripts above and Latin's). */
function isWrittenIn(sample: string, language: string): boolean {
  const own = SCRIPTS[language] ?? LATIN;
  let ownLetters = 0;
  let letters = 0;
  for (let i = 0, length = sample.length; i < length; i++) {
    const c = charCode(sample, i);
    if (c < 0x41) continue;
    if (inRanges(c, own)) ownLetters++;
    if (inRanges(c, LETTERS)) letters++;
  }
  return letters > 0 && ownLetters * 4 >= letters;
}

const inRanges = (c: number, ranges: readonly (readonly [number, number])[]): boolean => ranges.some(([from, to]) => c >= from && c <= to);

/**
 * tinyld, loaded on the first sample that is not English prose: building its tables takes about 50 ms, which every
 * engine and every page-reader thread paid at start, and a crawl of an English site never asks it anything.
 */
const tinyld = onFirstUse<typeof import('tinyld/light')>('tinyld/light');

/** Frequent English function words that are not frequent words of other Latin-script languages (so not "a", "in", "on", "an", "at", "we", "be", "is", "was"). */
const ENGLISH_FUNCTION_WORDS = new Set(
  ['the', 'of', 'and', 'to', 'that', 'for', 'with', 'this', 'are', 'from', 'by', 'it', 'as', 'have', 'which', 'you', 'not', 'or', 'can', 'will', 'its', 'their', 'has', 'were', 'been', 'they'].map(
    (word) => wordKey(word, 0, word.length),
  ),
);
/** The longest of ENGLISH_FUNCTION_WORDS. */
const LONGEST_FUNCTION_WORD = 5;
/** Fewer words than this say too little to call a text English without the library. */
const MIN_WORDS = 30;
/**
 * The share of function words that makes a text English. On the English pages of the article and product sets they are
 * 13 to 25 % of the sample (median 23 %); on technical English, where identifiers and names thin them out, 7 to 12 %:
 * 137 of NLTK's pages and 23 of the PostgreSQL manual's, which tinyld read as Hindi, Turkish or Hungarian one time in
 * ten. On the 240 other languages' pages of the article set they are under 12 %, and the four over 4.5 % have letters
 * outside ASCII in 2.5 to 8.5 % of their words (but one, whose sample is PHP's warnings in English) (docs/benchmarks.md).
 */
const MIN_SHARE = 0.07;
const MAX_ACCENTED_SHARE = 0.02;

/** One pass over the sample's tokens (its runs of characters between white space), none copied but the few that are not plain words. */
function isEnglishProse(sample: string): boolean {
  let words = 0;
  let accented = 0;
  let functionWords = 0;
  const length = sample.length;
  for (let start = 0, end = 0; start < length; start = end + 1) {
    end = start;
    while (end < length && !isWhiteSpace(charCode(sample, end))) end++;
    if (end === start) continue;
    // Most tokens of prose are one plain word ("the", "The", "reader,"): counted without the regexes.
    const plain = plainWordLength(sample, start, end);
    if (plain > 0) {
      words++;
      if (plain <= LONGEST_FUNCTION_WORD && ENGLISH_FUNCTION_WORDS.has(wordKey(sample, start, plain))) functionWords++;
      continue;
    }
    const token = sample.slice(start, end);
    // Identifiers, paths and markup are no language's words: counted, their parts would outnumber the prose around them.
    if (CODE_TOKEN.test(token)) continue;
    for (const [word] of token.matchAll(/\p{L}+/gu)) {
      words++;
      // Letters outside ASCII (é, ß, ñ, any other script) in more than a name or two: another language, or a mix.
      if (!/^[A-Za-z]+$/.test(word)) accented++;
      else if (word.length <= LONGEST_FUNCTION_WORD && ENGLISH_FUNCTION_WORDS.has(wordKey(word, 0, word.length))) functionWords++;
    }
  }
  return words >= MIN_WORDS && accented / words < MAX_ACCENTED_SHARE && functionWords / words >= MIN_SHARE;
}

/**
 * A token that reads as code: symbols prose does not use inside words, camelCase, a dot, colon or bracket between
 * letters (`corpus.reader`, `open(path`), letters run into digits (`utf8`, `iso639`).
 */
const CODE_TOKEN = /[_=<>{}[\]\\/#@$%^*|~`]|[a-z][A-Z]|\p{L}[.(:]\p{L}|\d\p{L}|\p{L}\d/u;

/**
 * The length of the word that starts the token `sample[start, end)` when the token is ASCII letters (no lower-case
 * letter before an upper-case one: that is camelCase) and at most closing punctuation after them; else 0. Such a token
 * is one word of `\p{L}+` and matches no part of CODE_TOKEN, so it counts exactly as the regexes would count it.
 */
function plainWordLength(sample: string, start: number, end: number): number {
  let i = start;
  let lower = false;
  for (; i < end; i++) {
    const c = charCode(sample, i);
    if (c >= 97 && c <= 122) lower = true;
    else if (c >= 65 && c <= 90) {
      if (lower) return 0;
    } else break;
  }
  const letters = i - start;
  for (; i < end; i++) if (!isClosingPunctuation(charCode(sample, i))) return 0;
  return letters;
}

/**
 * A word of ASCII letters, at most LONGEST_FUNCTION_WORD of them, as a number, case folded (five bits a letter): looked
 * up in ENGLISH_FUNCTION_WORDS without a string made for it, where a copy in lower case was half of the check's time.
 */
function wordKey(text: string, start: number, length: number): number {
  let key = 0;
  for (let i = start, end = start + length; i < end; i++) key = key * 32 + ((charCode(text, i) | 0x20) - 96);
  return key;
}

/** `.,;:!?)"'` */
const isClosingPunctuation = (c: number): boolean => c === 46 || c === 44 || c === 59 || c === 58 || c === 33 || c === 63 || c === 41 || c === 34 || c === 39;
