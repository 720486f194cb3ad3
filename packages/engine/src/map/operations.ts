import { creditsText, pricing } from '../credits/pricing.js';
import { defineOperation } from '../accounts/operation.js';
import { MapRequestBody, MapResultSchema } from './schemas.js';
import type { MapService } from './service.js';

type Services = { map: MapService };

export const mapOperations = {
  site: defineOperation({
    scope: 'crawl',
    tag: 'map',
    id: 'mapSite',
    summary: `List a site’s URLs from its sitemaps and links, without fetching its pages (${creditsText(pricing.map().credits)})`,
    description:
      'Reads the sitemaps robots.txt names (or /sitemap.xml): nested indexes, gzipped files, with lastmod; when they list little, ' +
      'reads the links of a few pages too. URLs are normalised as crawls normalise them, deduplicated, kept on the site and out of ' +
      `robots.txt Disallow, and filtered by url_patterns, exclude_patterns or search. ${creditsText(pricing.map().credits)} per call, charged only when the map was made.`,
    body: MapRequestBody,
    output: MapResultSchema,
    run: (s: Services, principal, { body }) => s.map.site(principal, body),
  }),
};
