/** Words too common to carry meaning in queries, suggestions and summaries. */
export const STOPWORDS = new Set(
  (
    'a an and are as at be but by for from has have how i in into is it its of on or that the their this to was were ' +
    'what when where which who why will with you your our we they them he she his her not no can do does did than then ' +
    'there these those so if about over after before more most new also all any some one two via vs'
  ).split(' '),
);

/** Lowercased word tokens (letters and digits, any script). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The query's meaningful terms, in order, without repeats; all words when every one is a stopword. */
export function queryTerms(query: string): string[] {
  const all = [...new Set(words(query))];
  const meaningful = all.filter((w) => !STOPWORDS.has(w));
  return meaningful.length > 0 ? meaningful : all;
}

/**
 * Host without a leading `www.`, lowercased, with its port when it is not the default one
 * (sites on one machine, such as the local web, differ only by port); '' for a non-URL.
 */
export function domainOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** True when `domain` is `wanted` or one of its subdomains. */
export function domainMatches(domain: string, wanted: string): boolean {
  const w = wanted.toLowerCase().replace(/^www\./, '').replace(/\.$/, '');
  return domain === w || domain.endsWith(`.${w}`);
}

/** Host labels and path segments as words, so `docs.example.com/api/rate-limits` finds "rate limits". */
export function urlTokens(url: string): string {
  try {
    const u = new URL(url);
    return words(`${u.hostname} ${decodeURIComponent(u.pathname)}`).join(' ');
  } catch {
    return '';
  }
}

/** Sentences of a text, trimmed, without empty ones. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
