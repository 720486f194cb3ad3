import type { components } from '../generated/openapi.js';

/** The API's named schemas, generated from openapi.json. */
export type Schemas = components['schemas'];

/** Paths under one collection: `itemPath('/v1/crawls')('c 1', '/share')` is `/v1/crawls/c%201/share`. */
export const itemPath =
  (collection: string) =>
  (id: string, rest = ''): string =>
    `${collection}/${encodeURIComponent(id)}${rest}`;
