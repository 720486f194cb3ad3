export { parseHtml, takeTree, type ParsedPage, type ReadOptions } from './parse.js';
export { ParsePool } from './parse-pool.js';
export { normalizeUrl, resolveUrl, hostOf } from './url.js';
export type { PageLink, LinkRegion } from './links.js';
export type { MicrodataItem } from './metadata.js';
