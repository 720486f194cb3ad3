import he from 'he';

// Characters as HTML text is read: white space, and entities.

/** Whether the character at `i` is white space as `\s` reads it; the regex is asked only past ASCII. */
export function isWhiteSpace(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c > 127 && WHITE_SPACE.test(text[i]!);
}
const WHITE_SPACE = /\s/;

/** Text with its entities decoded. Most text holds none; `he` is asked only when it could. */
export const decodeEntities = (raw: string): string => (raw.includes('&') ? he.decode(raw) : raw);

/** An attribute value with its entities decoded, by the attribute rules (`?a=1&sect=2` keeps its `&sect`). */
export const decodeAttribute = (raw: string): string => (raw.includes('&') ? he.decode(raw, { isAttributeValue: true }) : raw);
