import type { LocalWeb } from '@wvr/testkit';

/**
 * Links every contender leaves out: the catalogue's junk (login, cart, share, print, session
 * ids, tracking parameters, the robots-disallowed /private/). wvr drops them itself (smart
 * crawl's junk rule); Crawlee is told to, so both fetch the same kind of page.
 */
export const JUNK: RegExp[] = [/\/login/, /\/cart/, /\/share/, /\/print\//, /sessionid=/, /utm_/, /\/private\//];

/** Category hub URLs, the seeds every crawler starts from. */
export function seeds(web: LocalWeb): string[] {
  return web.truth.categories.map((c) => `${web.catalogue}/category/${c.slug}`);
}

/** The pages a crawler from the seeds discovers, listing pages first, for the raw loop to GET. */
export function pageList(web: LocalWeb, pages: number): string[] {
  const listings: string[] = [];
  for (const c of web.truth.categories) {
    const first = web.truth.listing(c.slug, 1);
    if (!first) continue;
    for (let page = 1; page <= first.pages; page++) listings.push(web.truth.listing(c.slug, page)!.url);
  }
  return [...listings, ...web.truth.productUrls()].slice(0, pages);
}

/** Splits the seeds into `parts` groups, one crawl each. */
export function split<T>(items: readonly T[], parts: number): T[][] {
  const groups: T[][] = Array.from({ length: parts }, () => []);
  items.forEach((item, i) => groups[i % parts]!.push(item));
  return groups.filter((g) => g.length > 0);
}
