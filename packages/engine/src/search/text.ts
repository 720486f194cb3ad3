import { STOPWORDS, words } from '../text/tokens.js';

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

/** A domain filter as written by a caller ("WWW.Example.com.") in the form domainOf gives. */
export function bareDomain(wanted: string): string {
  return wanted.toLowerCase().replace(/^www\./, '').replace(/\.$/, '');
}

/** True when `domain` is `wanted` or one of its subdomains; a filter without a port matches every port of the host. */
export function domainMatches(domain: string, wanted: string): boolean {
  const w = bareDomain(wanted);
  const host = hasPort(w) ? domain : withoutPort(domain);
  return host === w || host.endsWith(`.${w}`);
}

/** "127.0.0.1:8080" → "127.0.0.1", "[::1]:80" → "[::1]"; a host without a port is kept. */
export function withoutPort(domain: string): string {
  return domain.replace(/(?<=[^:\]]|\]):\d+$/, '');
}

export const hasPort = (domain: string): boolean => withoutPort(domain) !== domain;

/** Host labels and path segments as words, so `docs.example.com/api/rate-limits` finds "rate limits". */
export function urlTokens(url: string): string {
  try {
    const u = new URL(url);
    return words(`${u.hostname} ${decodeURIComponent(u.pathname)}`).join(' ');
  } catch {
    return '';
  }
}

/** The first `max` UTF-16 units of `text`, one fewer where the cut would split a surrogate pair (the index refuses half of one). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const high = text.charCodeAt(max - 1);
  return text.slice(0, high >= 0xd800 && high <= 0xdbff ? max - 1 : max);
}
