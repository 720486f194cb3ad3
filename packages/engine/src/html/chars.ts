import { onFirstUse } from '../core/on-first-use.js';

// Characters as HTML text is read: white space, and entities.

/**
 * `text.charCodeAt(i)`, for the loops that read a page's text a character at a time. Those loops meet strings of every
 * kind V8 has (flat, joined, sliced; one byte or two a character), and `text.charCodeAt` finds the method by the
 * string's kind: past four kinds V8 gives up that call's fast path for good, and every character then costs a look-up
 * and a call (8.8 ns a character against 2.4 in a micro-benchmark). Taken from `String.prototype`, the method is a
 * constant the optimising compiler inlines whatever the string (2.5 ns). On a crawl, the first page with a character
 * past Latin-1 brings the two-byte kinds, and from then on a reader thread reads every text the slow way
 * (docs/benchmarks.md). A text's `length` is looked up the same way, so those loops read it once, not at every step.
 *
 * Only for `i` inside the text. Past its end the read gives NaN, as `charCodeAt` does, but V8 then stops inlining this
 * one shared call for good, and every loop in every reader calls the built-in instead (7 % of a read of NLTK's pages).
 * A single read that may fall past the end uses `text.charCodeAt`, whose look-up is once a call.
 */
export const charCode = (text: string, i: number): number => String.prototype.charCodeAt.call(text, i);

/**
 * Whether the character code `c` is white space as `\s` reads it: ECMAScript's white space and line terminators, that
 * is ASCII's, the no-break spaces (U+00A0, U+202F, U+FEFF), the line and paragraph separators and Unicode's other
 * space separators. Compared by code, not by the regex: a page in Chinese or Russian asks about every character.
 */
export function isWhiteSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Text with its entities decoded. */
export const decodeEntities = (raw: string): string => decodeWith(raw, false);

/**
 * A text node's text as a reader shows it: entities decoded, and soft hyphens (U+00AD, `&shy;`) left out. A soft
 * hyphen marks where a word may break at the end of a line and is shown only there. News sites put them in long words
 * by the hundred, and each one kept split its word for whatever read the text next: the search index's tokens, a
 * filter's keywords, the language guess (a French page with 560 of them was read as German).
 */
export function shownText(raw: string): string {
  const text = decodeEntities(raw);
  return text.includes(SOFT_HYPHEN) ? text.replaceAll(SOFT_HYPHEN, '') : text;
}
const SOFT_HYPHEN = '\u00ad';

/** An attribute value with its entities decoded, by the attribute rules (`?a=1&sect=2` keeps its `&sect`). */
export const decodeAttribute = (raw: string): string => decodeWith(raw, true);

/**
 * Most text holds no entity, and most of the rest only common ones (COMMON_NAMED, and numeric references to
 * plain characters): those are replaced here in one scan. Any other `&` hands the whole text to `he`, whose rules
 * (legacy names without `;`, numeric references remapped or replaced) the common forms never meet, so the result is
 * `he`'s either way.
 */
function decodeWith(raw: string, isAttributeValue: boolean): string {
  let at = raw.indexOf('&');
  if (at < 0) return raw;
  let out = '';
  let from = 0;
  while (at >= 0) {
    // A `&` before anything but a letter, a digit or `#` ("Q & A", a bare `&` in a link) starts no reference: it stays.
    if (!startsReference(raw.charCodeAt(at + 1))) {
      at = raw.indexOf('&', at + 1);
      continue;
    }
    const end = raw.indexOf(';', at + 2);
    const char = end < 0 || end - at > LONGEST_COMMON ? undefined : commonEntity(raw, at + 1, end);
    if (char === undefined) return he().decode(raw, { isAttributeValue });
    out += raw.slice(from, at) + char;
    from = end + 1;
    at = raw.indexOf('&', from);
  }
  return out + raw.slice(from);
}

/** An ASCII letter or digit, or `#`: what may follow the `&` of a character reference. */
const startsReference = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x23;

/**
 * `he`, loaded by the first text it is needed for. Imported from an ES module it was read first by Node's CommonJS
 * export scanner, whose pass over its 100 KB of entity tables cost each thread that loads it 30 ms and five
 * optimising compiles (docs/benchmarks.md); required, it loads in 9 ms, and a page of common entities never loads it.
 */
const he = onFirstUse<typeof import('he')>('he');

/**
 * Named references decoded here: the markup every page escapes with, the Latin-1 names (U+00A0 to U+00FF, in order),
 * and the punctuation, arrows and symbols real pages write by name (`&raquo;`, `&hellip;`, `&rsquo;`, `&auml;`…).
 * Any other sends its whole text through `he`: with these, and bare `&`s left alone, 297 of 723 real article and shop
 * pages still call it, 2,396 times, against 484 pages and 10,069 calls before (docs/benchmarks.md).
 */
const LATIN_1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ' +
  'ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc ' +
  'Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde ' +
  'auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ' +
  'ugrave uacute ucirc uuml yacute thorn yuml';
const SYMBOLS: Record<string, number> = {
  ensp: 0x2002, emsp: 0x2003, thinsp: 0x2009, zwnj: 0x200c, zwj: 0x200d, lrm: 0x200e, rlm: 0x200f, ndash: 0x2013, mdash: 0x2014,
  lsquo: 0x2018, rsquo: 0x2019, sbquo: 0x201a, ldquo: 0x201c, rdquo: 0x201d, bdquo: 0x201e, dagger: 0x2020, Dagger: 0x2021,
  bull: 0x2022, hellip: 0x2026, permil: 0x2030, prime: 0x2032, Prime: 0x2033, lsaquo: 0x2039, rsaquo: 0x203a, euro: 0x20ac,
  trade: 0x2122, larr: 0x2190, uarr: 0x2191, rarr: 0x2192, darr: 0x2193, harr: 0x2194, minus: 0x2212,
};
export const COMMON_NAMED: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ...LATIN_1.split(' ').map((name, i): [string, string] => [name, String.fromCharCode(0xa0 + i)]),
  ...Object.entries(SYMBOLS).map(([name, code]): [string, string] => [name, String.fromCharCode(code)]),
]);

/** `&` to `;` of the longest common form: `&#x10FFFF;` is longer than any name above. */
const LONGEST_COMMON = 9;

/** The character `raw[from, end)` names when it is a common named reference, or a numeric one `he` passes through unchanged. */
function commonEntity(raw: string, from: number, end: number): string | undefined {
  if (raw.charCodeAt(from) !== 35 /* # */) return COMMON_NAMED.get(raw.slice(from, end));
  const hex = raw.charCodeAt(from + 1) === 120 /* x */ || raw.charCodeAt(from + 1) === 88; /* X */
  const digits = raw.slice(from + (hex ? 2 : 1), end);
  if (digits.length === 0 || !(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
  const code = Number.parseInt(digits, hex ? 16 : 10);
  // Printable ASCII and the rest of the first plane but C1 controls and surrogates: `he` maps those others.
  const plain = (code >= 32 && code < 127) || (code >= 0xa0 && code < 0xd800) || (code >= 0xe000 && code < 0xfffe) || code === 9 || code === 10;
  return plain ? String.fromCharCode(code) : undefined;
}
