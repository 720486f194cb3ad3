import { Command, Option } from 'commander';
import { creditsText, pricing } from '@wvr/engine/vocabulary';
import type { MapResult } from '@wvr/engine';
import { contextOf, withClient } from '../context.js';
import { balanceText, emit } from '../output/print.js';
import { commaList, nonNegativeInt, positiveInt } from './parse.js';

interface MapOptions {
  search?: string;
  include?: string[];
  exclude?: string[];
  sitemap?: 'include' | 'only' | 'skip';
  subdomains?: boolean;
  discoveryPages?: number;
  limit?: number;
}

export function mapCommand(): Command {
  return new Command('map')
    .description(`list a site’s URLs from its sitemaps and links, without fetching its pages (${creditsText(pricing.map().credits)})`)
    .argument('<url>', 'a page of the site, usually its home page')
    .option('--search <words>', 'keep URLs whose host or path words match, best matches first')
    .option('--include <globs>', 'keep only URLs matching these globs (`/blog/*`), comma-separated or repeated', commaList)
    .option('--exclude <globs>', 'drop URLs matching these globs, comma-separated or repeated', commaList)
    .addOption(new Option('--sitemap <mode>', 'include (default): sitemaps, then links when they list little; only; skip').choices(['include', 'only', 'skip']))
    .option('--subdomains', 'also keep URLs on subdomains of the site')
    .option('--discovery-pages <n>', 'pages read for their links when discovery runs, 0 to 100 (default 10)', nonNegativeInt)
    .option('--limit <n>', 'URLs at most, 1 to 100,000 (default 5,000)', positiveInt)
    .action(async (url: string, opts: MapOptions, command: Command) => {
      const ctx = contextOf(command);
      const body = {
        url,
        ...(opts.search !== undefined ? { search: opts.search } : {}),
        ...(opts.include ? { url_patterns: opts.include } : {}),
        ...(opts.exclude ? { exclude_patterns: opts.exclude } : {}),
        ...(opts.sitemap ? { sitemap: opts.sitemap } : {}),
        ...(opts.subdomains ? { include_subdomains: true } : {}),
        ...(opts.discoveryPages !== undefined ? { max_discovery_pages: opts.discoveryPages } : {}),
        ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
      };
      const result = await withClient(ctx, (client) => client.map(body));
      emit(ctx.output, result, render);
      // The summary goes to stderr so `wvr map URL > urls.txt` holds URLs only.
      if (!ctx.output.json) ctx.output.err(summary(result));
    });
}

/** One URL a line, its lastmod after a tab when the sitemap gave one: ready for grep, cut and xargs. */
const render = (r: MapResult): string => r.urls.map((u) => (u.lastmod ? `${u.url}\t${u.lastmod}` : u.url)).join('\n');

function summary(r: MapResult): string {
  const s = r.stats;
  const failed = r.sitemaps.filter((m) => m.status === 'failed' || m.status === 'partial').length;
  return [
    `${r.urls.length} URLs${r.truncated ? ' (truncated at the limit)' : ''} from ${s.sitemaps_read} sitemap(s)${failed ? `, ${failed} broken` : ''} and ${s.discovery_pages} page(s) read for links, in ${s.elapsed_ms} ms.`,
    `Dropped: ${s.duplicates} duplicate, ${s.off_site} off-site, ${s.invalid} invalid, ${s.disallowed} disallowed, ${s.filtered} filtered. ${r.credits.consumed} credit, ${balanceText(r.credits.balance_after)}.`,
  ].join('\n');
}
