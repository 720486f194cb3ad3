/** A light entry (no database, no zod): closed vocabularies for tools that list them before loading the engine. */
export { INTENT_TYPES, SESSION_STATUSES, DOMAIN_CONTEXTS } from './sessions/vocabulary.js';
/** The pricing table, for help texts that quote prices without loading the engine. */
export { pricing, creditsText } from './credits/pricing.js';
/** Bounds of the engine's options, for flags that set them on a local engine. */
export { MAX_PER_HOST_CONCURRENCY } from './core/fetch-limits.js';
