import type { Request } from '../transport.js';
import type { Schemas } from './types.js';

export const brandResource = (request: Request) => ({
  designSystem: (body: Schemas['BrandDesignSystemRequest']) =>
    request<Schemas['BrandDesignSystem']>('POST', '/v1/brand/design-system', { body }),
});
