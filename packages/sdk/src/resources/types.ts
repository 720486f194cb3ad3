import type { components } from '../generated/openapi.js';

/** The API's named schemas, generated from openapi.json. */
export type Schemas = components['schemas'];
