import { hostOf } from '../html/index.js';
import { domainOf as hostWithPortOf } from '../search/text.js';

export type ExpansionMode = 'none' | 'internal' | 'external' | 'both';

/**
 * URLs that are never content: account and checkout flows, share and print variants,
 * calendars (endless traps), session ids in the URL, and files a crawl cannot read.
 */
const JUNK_PATH = /(^|\/)(log-?in|log-?out|sign-?in|sign-?out|sign-?up|register|account|my-account|password|cart|basket|checkout|wishlist|share|sharer|print|calendar|events\/\d{4}|wp-admin|wp-login\.php|feed|rss|comments\/feed)(\/|$|\.|\?)/i;
const JUNK_QUERY = /(^|[?&])(share|print|replytocom|add-to-cart|add_to_cart|sessionid|session_id|sid|phpsessid|jsessionid|sort|order|filter|view|format|month|year|date|action|redirect|return_to|returnurl|utm_[a-z]+|fbclid|gclid|ref)=/i;
const JUNK_PATH_PARAM = /;(jsessionid|phpsessid|sid)=/i;
const BINARY_EXT = /\.(jpe?g|png|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4a|wav|avi|mov|mkv|webm|zip|gz|tgz|rar|7z|exe|dmg|iso|css|js|woff2?|ttf|eot)$/i;

/** Why a URL is junk, or null when it may be content. */
export function junkReason(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'unparseable';
  }
  if (JUNK_PATH_PARAM.test(parsed.pathname)) return 'session_id';
  if (BINARY_EXT.test(parsed.pathname)) return 'binary_file';
  if (JUNK_PATH.test(parsed.pathname)) return 'non_content_path';
  if (JUNK_QUERY.test(parsed.search)) return 'non_content_parameter';
  return null;
}

/** A URL's host without a leading www: what smart_crawl.domain_authority is keyed by. */
export function domainOf(url: string): string {
  return (hostOf(url) ?? '').replace(/^www\./, '');
}

/**
 * The site a URL belongs to for internal/external decisions: its host without a leading www, plus
 * its port when that is not the scheme's default. Two servers on one host but different ports are
 * different sites (separate applications, as on a local web); http and https on their default ports
 * are one site, since sites commonly link between the two.
 */
export function siteOf(url: string): string {
  return hostWithPortOf(url);
}

/** Whether expansion lets the crawl follow a link from `from` to `to`, given the seeds' sites. */
export function inScope(mode: ExpansionMode, seedSites: ReadonlySet<string>, to: string): boolean {
  if (mode === 'none') return false;
  if (mode === 'both') return true;
  const internal = seedSites.has(siteOf(to));
  return mode === 'internal' ? internal : !internal;
}

/**
 * Glob patterns, documented in docs/crawl.md: `*` matches any run of characters (slashes
 * included), `?` one character, everything else literally. A pattern containing `://` is
 * matched against the whole URL, any other against the path and query (`/blog/*`).
 */
export function compileGlob(pattern: string): (url: string) => boolean {
  const source = pattern
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('')
    .replace(/(\.\*)+/g, '.*');
  const re = new RegExp(`^${source}$`, 'i');
  const whole = pattern.includes('://');
  return (url) => {
    if (whole) return re.test(url);
    try {
      const parsed = new URL(url);
      return re.test(parsed.pathname + parsed.search);
    } catch {
      return false;
    }
  };
}

export interface PatternFilter {
  allows(url: string): boolean;
}

/** url_patterns (follow only these, when given) and exclude_patterns (never these). Seeds are not filtered. */
export function patternFilter(include: readonly string[] = [], exclude: readonly string[] = []): PatternFilter {
  const inc = include.map(compileGlob);
  const exc = exclude.map(compileGlob);
  return {
    allows: (url) => (inc.length === 0 || inc.some((m) => m(url))) && !exc.some((m) => m(url)),
  };
}

/** Hub-like URLs (listings, categories, archives, pagination) feed the 30% hub-discovery share. */
const HUB_PATH = /(^|\/)(category|categories|tag|tags|topics?|section|sections|archive|archives|index|list|listing|collections?|browse|catalog|catalogue|search|sitemap|page|departments?|docs|guides?)(\/|$)/i;
const HUB_QUERY = /(^|[?&])(page|p|offset|start|cat|category|tag)=/i;

export function looksLikeHub(url: string, isPagination: boolean): boolean {
  if (isPagination) return true;
  try {
    const parsed = new URL(url);
    if (parsed.pathname === '/' || parsed.pathname === '') return true;
    return HUB_PATH.test(parsed.pathname) || HUB_QUERY.test(parsed.search);
  } catch {
    return false;
  }
}
