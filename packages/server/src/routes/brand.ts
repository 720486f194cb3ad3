import { BrandDesignSystemSchema, BrandRequestBody } from '@wvr/engine';
import { defineRoute } from '../route.js';

export const brandRoutes = [
  defineRoute({
    operationId: 'getBrandDesignSystem',
    method: 'POST',
    path: '/brand/design-system',
    auth: 'crawl',
    tag: 'brand',
    summary: 'Read a site’s brand system: name, tagline, logo, colours and fonts (1 credit)',
    description: 'Fetches the page and up to six of its stylesheets. Charged only when the page could be read.',
    body: BrandRequestBody,
    response: BrandDesignSystemSchema,
    handler: ({ engine, principal, body }) => engine.brand.designSystem(principal, body),
  }),
];
