import type { components } from '../generated/openapi.js';

/** The API's named schemas, generated from openapi.json. */
export type Schemas = components['schemas'];

/** Paths under one collection: `itemPath('/v1/crawls')('c 1', '/share')` is `/v1/crawls/c%201/share`. */
export const itemPath =
  (collection: string) =>
  (id: string, rest = ''): string =>
    `${collection}/${encodeURIComponent(id)}${rest}`;

/**
 * An operation that takes `dry_run`: `dry_run: true` answers the estimate, no or `false` dry_run the
 * real result, and a `boolean` known only at run time either (narrow with `'dry_run' in result`).
 */
export interface DryRunAware<Body, Real, Dry, Before extends unknown[] = []> {
  (...args: [...Before, body: Body & { dry_run: true }]): Promise<Dry>;
  (...args: [...Before, body: Body & { dry_run?: false | undefined }]): Promise<Real>;
  (...args: [...Before, body: Body]): Promise<Real | Dry>;
}
