import { creditsText, pricing } from '../credits/pricing.js';
import { defineOperation } from '../accounts/operation.js';
import { BrandDesignSystemSchema, BrandRequestBody } from './schemas.js';
import type { BrandService } from './service.js';

type Services = { brand: BrandService };

export const brandOperations = {
  designSystem: defineOperation({
    scope: 'crawl',
    tag: 'brand',
    id: 'getBrandDesignSystem',
    summary: `Read a site’s brand system: name, tagline, logo, colours and fonts (${creditsText(pricing.brandDesignSystem().credits)})`,
    description:
      'Fetches the page and up to six of its stylesheets. Charged only when the page could be read; ' +
      `a page rendered in headless Chromium (render, a wvr extension) costs ${creditsText(pricing.renderedRead().credits)}, the advanced tier.`,
    body: BrandRequestBody,
    output: BrandDesignSystemSchema,
    run: (s: Services, principal, { body }) => s.brand.designSystem(principal, body),
  }),
};
