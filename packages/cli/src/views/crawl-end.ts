import type { CrawlDetail } from './crawl-progress.js';

/**
 * Why a finished crawl fetched fewer pages than its budget, in the flags that change it; null when
 * it used its budget or did not complete. Read from the final crawl: the expansion it ran with, the
 * depth its pages reached, whether those pages linked further, and the failures (robots.txt among them).
 */
export function whyEnded(detail: CrawlDetail): string | null {
  const { stats } = detail;
  if (detail.status !== 'completed' || stats.pages_crawled >= stats.max_pages) return null;
  const head = `Ended at ${stats.pages_crawled} of ${stats.max_pages} pages`;
  const expansion = detail.configuration.expansion;
  if (expansion === undefined || expansion === 'none') {
    return `${head}: only the seed URLs are fetched without link expansion; add --expansion internal to follow the site's links.`;
  }
  const reasons: string[] = [];
  if (linksBeyondDepth(detail, expansion)) {
    reasons.push(`pages at the depth limit (${stats.max_depth}) link further; raise --max-depth (up to 10)`);
  } else {
    reasons.push(`no more links to follow within --max-depth ${stats.max_depth}${expansion === 'internal' ? ' on the seed sites; --expansion both also follows other sites' : ''}`);
  }
  if (stats.last_failure?.includes('robots.txt')) reasons.push(`robots.txt disallows some pages (${stats.last_failure})`);
  else if (stats.pages_failed > 0) reasons.push(`${stats.pages_failed} page(s) failed, the last: ${stats.last_failure ?? 'no reason given'}`);
  if (stats.pages_filtered > 0) reasons.push(`${stats.pages_filtered} page(s) dropped by classifiers`);
  return `${head}: ${reasons.join('; ')}.`;
}

/** Whether a page at the depth limit links to a page the crawl did not fetch that its expansion would follow. */
function linksBeyondDepth(detail: CrawlDetail, expansion: unknown): boolean {
  const fetched = new Set(detail.documents.flatMap((d) => [d.url, d.final_url]));
  return detail.documents
    .filter((d) => d.depth >= detail.stats.max_depth)
    .some((d) => {
      const origin = originOf(d.final_url || d.url);
      return d.links.some((link) => {
        if (fetched.has(link.url)) return false;
        const same = originOf(link.url) === origin;
        return expansion === 'both' || (expansion === 'internal' ? same : !same);
      });
    });
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
