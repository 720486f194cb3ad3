import { onFirstUse } from '../core/on-first-use.js';
import { charCode } from './chars.js';

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
 * tables of names, code with too little prose) goes to tinyld.
 */
export function guessLanguage(sample: string): string | null {
  if (isEnglishProse(sample)) return 'en';
  return tinyld().detect(sample) || null;
}

/**
 * tinyld, loaded on the first sample that is not English prose: building its tables takes about 50 ms, which every
 * engine and every page-reader thread paid at start, and a crawl of an English site never asks it anything.
 */
const tinyld = onFirstUse<typeof import('tinyld/light')>('tinyld/light');

/** Frequent English function words that are not frequent words of other Latin-script languages (so not "a", "in", "on", "an", "at", "we", "be", "is", "was"). */
const ENGLISH_FUNCTION_WORDS = new Set(['the', 'of', 'and', 'to', 'that', 'for', 'with', 'this', 'are', 'from', 'by', 'it', 'as', 'have', 'which', 'you', 'not', 'or', 'can', 'will', 'its', 'their', 'has', 'were', 'been', 'they']);
/** Fewer words than this say too little to call a text English without the library. */
const MIN_WORDS = 30;
/** On real English pages these words are 13–25 % of the first 3,000 characters (median 23 %); on other languages' pages under 11 %. */
const MIN_SHARE = 0.12;
const MAX_ACCENTED_SHARE = 0.02;

function isEnglishProse(sample: string): boolean {
  let words = 0;
  let accented = 0;
  let functionWords = 0;
  for (const token of sample.split(/\s+/)) {
    // Most tokens of prose are one plain word ("the", "The", "reader,"): counted without the regexes.
    const plain = plainWordLength(token);
    if (plain > 0) {
      words++;
      if (plain <= 5 && ENGLISH_FUNCTION_WORDS.has(token.slice(0, plain).toLowerCase())) functionWords++;
      continue;
    }
    // Identifiers, paths and markup are no language's words: counted, their parts would outnumber the prose around them.
    if (CODE_TOKEN.test(token)) continue;
    for (const [word] of token.matchAll(/\p{L}+/gu)) {
      words++;
      // Letters outside ASCII (é, ß, ñ, any other script) in more than a name or two: another language, or a mix.
      if (!/^[A-Za-z]+$/.test(word)) accented++;
      else if (word.length <= 5 && ENGLISH_FUNCTION_WORDS.has(word.toLowerCase())) functionWords++;
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
 * The length of the token's one word when the token is ASCII letters (no lower-case letter before an upper-case one:
 * that is camelCase) and at most closing punctuation after them; else 0. Such a token is one word of `\p{L}+` and
 * matches no part of CODE_TOKEN, so it counts exactly as the regexes would count it.
 */
function plainWordLength(token: string): number {
  let letters = 0;
  let lower = false;
  for (; letters < token.length; letters++) {
    const c = charCode(token, letters);
    if (c >= 97 && c <= 122) lower = true;
    else if (c >= 65 && c <= 90) {
      if (lower) return 0;
    } else break;
  }
  for (let i = letters; i < token.length; i++) if (!CLOSING_PUNCTUATION.includes(token[i]!)) return 0;
  return letters;
}
const CLOSING_PUNCTUATION = '.,;:!?)"\'';
