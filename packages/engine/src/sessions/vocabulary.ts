/**
 * The sessions' closed vocabularies as plain lists: the schemas build their enums from them, and the
 * CLI lists them in --help through the light `@wvr/engine/vocabulary` entry without loading the engine.
 */
export { INTENT_TYPES } from '../search/intent.js';
export const SESSION_STATUSES = ['active', 'completed', 'archived'] as const;
export const DOMAIN_CONTEXTS = ['general', 'academic', 'news', 'technical'] as const;
