/** Query parameters that identify a click, not a page: dropped so one page has one URL. */
const TRACKING_PARAMS = /^(utm_\w+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|yclid|_ga|_gl|igshid|ref_src|spm)$/i;

/**
 * The one form of a URL the crawler, the cache and the dedupe agree on: absolute, http(s),
 * lowercase scheme and host, no default port, no fragment, no tracking parameters, sorted
 * query, dot segments resolved. Null for anything that is not an http(s) URL.
 */
export function normalizeUrl(url: string, base?: string): string | null {
  let parsed: URL;
  try {
    parsed = base === undefined ? new URL(url.trim()) : new URL(url.trim(), base);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  // Every setter re-serialises the URL, and crawls normalise every link they see: touch only what is there.
  if (parsed.href.includes('#')) parsed.hash = '';
  if (parsed.username) parsed.username = '';
  if (parsed.password) parsed.password = '';
  if ((parsed.protocol === 'http:' && parsed.port === '80') || (parsed.protocol === 'https:' && parsed.port === '443')) parsed.port = '';
  if (parsed.search) {
    const kept = [...parsed.searchParams.entries()].filter(([key]) => !TRACKING_PARAMS.test(key));
    kept.sort(([a, av], [b, bv]) => byCodeUnits(a, b) || byCodeUnits(av, bv));
    parsed.search = kept.length > 0 ? `?${new URLSearchParams(kept).toString()}` : '';
  }
  return parsed.toString();
}

/**
 * Code-unit order: the same on every machine. `localeCompare` orders by the process's locale (its environment's
 * LANG), so two engines of one fleet could give one URL two forms; and its first call loads ICU's collation data.
 */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Resolves an attribute value against the page, keeping only http(s) results. */
export function resolveUrl(href: string | undefined, base: string): string | null {
  if (!href) return null;
  const trimmed = href.trim();
  if (trimmed === '' || /^(javascript|mailto|tel|data):/i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.href.includes('#')) url.hash = '';
    return url.toString();
  } catch {
    return null;
  }
}

/** `resolveUrl` with the base bound: the reader of one page asks it for every link, often more than once. */
export type UrlResolver = (href: string | undefined) => string | null;

/**
 * Resolves against one page's base, each distinct href once: the page's links are resolved for its link list and
 * again for its markdown, and a navigation repeats many. The fragment is dropped from the answer, so hrefs that differ
 * only in it share one: a link within the page (`#section`) resolves to the page itself, and a documentation page's
 * hundreds of links into one module's page (`reader.html#nltk.corpus.reader.words`) to that page.
 */
export function urlResolver(base: string): UrlResolver {
  const known = new Map<string, string | null>();
  return (href) => {
    if (!href) return null;
    const hash = href.indexOf('#');
    const before = hash === -1 ? href : href.slice(0, hash);
    const key = hash !== -1 && before.trim() === '' ? '#' : before;
    let url = known.get(key);
    if (url === undefined) known.set(key, (url = resolveUrl(key, base)));
    return url;
  };
}

export function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}
