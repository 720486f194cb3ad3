import { z } from 'zod';
import { HttpUrl } from '../core/schemas.js';
import { CreditsInfoSchema } from '../credits/schemas.js';
import { LinkExtractionConfig } from '../crawl/schemas.js';

/** Upper bound of `limit`: a map answers in one response, and 100,000 URLs is about 10 MB of JSON. */
export const MAX_MAP_URLS = 100_000;
/**
 * 100000 as "100,000". Not `toLocaleString('en')`: its first call loads ICU's number formats, 6 to 20 ms of every
 * process that imports the engine (a CLI command, a server's start), for one description.
 */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');
/** Upper bound of `max_discovery_pages`: link discovery is a fallback, not a crawl. */
export const MAX_DISCOVERY_PAGES = 100;

export const MapSitemapMode = z.enum(['include', 'only', 'skip']);

export const MapRequestBody = z
  .strictObject({
    url: HttpUrl.describe('A page of the site to map, usually its home page'),
    search: z.string().trim().min(1).max(1000).optional().describe('Keep only URLs whose host or path words match one of these words, best matches first'),
    url_patterns: LinkExtractionConfig.shape.url_patterns.describe('Keep only URLs matching one of these globs (as in crawls: `/blog/*`, or a whole URL with `://`)'),
    exclude_patterns: LinkExtractionConfig.shape.exclude_patterns.describe('Drop URLs matching any of these globs'),
    sitemap: MapSitemapMode.default('include').describe(
      'include: sitemaps, then link discovery when they list little; only: sitemaps alone; skip: link discovery alone',
    ),
    include_subdomains: z.boolean().default(false).describe('Also keep URLs on subdomains of the site'),
    max_discovery_pages: z
      .number()
      .int()
      .min(0)
      .max(MAX_DISCOVERY_PAGES)
      .default(10)
      .describe(`Pages read for their links when link discovery runs, 0 to ${MAX_DISCOVERY_PAGES}`),
    limit: z.number().int().min(1).max(MAX_MAP_URLS).default(5_000).describe(`URLs returned at most, 1 to ${grouped(MAX_MAP_URLS)}`),
  })
  .meta({ id: 'MapRequest' });
export type MapInput = z.output<typeof MapRequestBody>;

export const MapUrlSchema = z
  .object({
    url: z.string().describe('Absolute, normalised as crawls normalise URLs'),
    lastmod: z.string().nullable().describe('The sitemap’s <lastmod>, as written; null when it has none'),
    source: z.enum(['sitemap', 'links']).describe('Where the URL was found'),
  })
  .meta({ id: 'MapUrl' });

export const MapSitemapReportSchema = z
  .object({
    url: z.string(),
    kind: z.enum(['urlset', 'sitemapindex', 'text']).nullable().describe('null when the document was not a sitemap'),
    status: z.enum(['ok', 'partial', 'failed', 'skipped']).describe('partial: cut off or malformed, the entries before the fault were read'),
    urls: z.number().int().describe('Entries listed (URLs for a urlset, sitemaps for an index)'),
    error: z.string().nullable().describe('Why it failed, was partial or was skipped'),
  })
  .meta({ id: 'MapSitemapReport' });

export const MapResultSchema = z
  .object({
    url: z.string().describe('The start URL, normalised'),
    urls: z.array(MapUrlSchema),
    truncated: z.boolean().describe('More URLs were found than limit allowed'),
    stats: z.object({
      sitemaps_read: z.number().int(),
      sitemap_urls: z.number().int().describe('URL entries read from sitemaps, before any filtering'),
      discovery_pages: z.number().int().describe('Pages read for their links'),
      discovered_urls: z.number().int().describe('Links seen on those pages, before any filtering'),
      duplicates: z.number().int().describe('Entries that normalised to a URL already listed'),
      invalid: z.number().int().describe('Entries that are not http(s) URLs'),
      off_site: z.number().int().describe('URLs on another site (or a subdomain, unless include_subdomains)'),
      disallowed: z.number().int().describe('URLs robots.txt disallows for our user agent'),
      filtered: z.number().int().describe('URLs dropped by url_patterns, exclude_patterns or search'),
      elapsed_ms: z.number().int(),
    }),
    sitemaps: z.array(MapSitemapReportSchema).describe('Every sitemap tried, in the order they were found'),
    credits: CreditsInfoSchema,
  })
  .meta({ id: 'MapResult' });
export type MapResult = z.infer<typeof MapResultSchema>;
export type MapUrl = z.infer<typeof MapUrlSchema>;
export type MapSitemapReport = z.infer<typeof MapSitemapReportSchema>;
