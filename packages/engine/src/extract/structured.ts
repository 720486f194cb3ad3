import type { MicrodataItem, ParsedPage } from '../html/index.js';
import type { Concept } from './concepts.js';

/** A raw value found for a field, before coercion, with how much its source is trusted. */
export interface Candidate {
  value: unknown;
  source: 'json_ld' | 'microdata' | 'rdfa' | 'meta' | 'dom_label' | 'dom_selector' | 'text_pattern' | 'text_sentence';
  confidence: number;
}

const MAIN_ENTITY = /product|article|posting|recipe|event|business|restaurant|store|course|book|movie|review|question|howto|softwareapplication|vehicle|place|person|hotel|offer/i;
const PERIPHERAL = /^(website|webpage|organization|breadcrumblist|sitenavigationelement|imageobject|searchaction|listitem|wpheader|wpfooter|readaction)$/i;

const typesOf = (item: Record<string, unknown>): string => {
  const t = item['@type'];
  return Array.isArray(t) ? t.join(' ') : typeof t === 'string' ? t : '';
};

/** JSON-LD items, the page's main entity first (a product page's Product before its Organization). */
function rankItems(items: Record<string, unknown>[], preferred?: RegExp, named?: RegExp): Record<string, unknown>[] {
  const rank = (item: Record<string, unknown>) => {
    const type = typesOf(item);
    if (named?.test(type)) return -1;
    if (preferred?.test(type)) return 0;
    if (MAIN_ENTITY.test(type) && !PERIPHERAL.test(type)) return 1;
    if (PERIPHERAL.test(type)) return 3;
    return 2;
  };
  return items.map((item, i) => ({ item, i, r: rank(item) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.item);
}

/** A JSON-LD leaf as text or a list: names of things, addresses joined, @id of references. */
function leafValue(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) {
    const parts = value.map(leafValue).filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
    return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : parts.map(String);
  }
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (/postaladdress/i.test(typesOf(obj)) || 'streetAddress' in obj || 'addressLocality' in obj) {
      const parts = ['streetAddress', 'addressLocality', 'addressRegion', 'postalCode', 'addressCountry']
        .map((k) => leafValue(obj[k]))
        .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
      return parts.length > 0 ? parts.join(', ') : undefined;
    }
    for (const key of ['name', 'value', 'url', 'contentUrl', '@id', 'text']) {
      const inner = leafValue(obj[key]);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** Yoast and others point at graph nodes by @id ("author": {"@id": "#/schema/person/1"}): follow those. */
function resolver(items: Record<string, unknown>[]): (value: unknown) => unknown {
  const byId = new Map<string, Record<string, unknown>>();
  for (const item of items) if (typeof item['@id'] === 'string' && Object.keys(item).length > 1) byId.set(item['@id'], item);
  const resolve = (value: unknown, depth = 0): unknown => {
    if (depth > 4 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => resolve(v, depth + 1));
    const obj = value as Record<string, unknown>;
    const target = typeof obj['@id'] === 'string' && Object.keys(obj).length <= 2 && !('name' in obj) ? byId.get(obj['@id']) : undefined;
    return target ?? obj;
  };
  return resolve;
}

function atResolvedPath(value: unknown, path: string[], resolve: (v: unknown) => unknown): unknown {
  const current = resolve(value);
  if (path.length === 0) return current;
  if (Array.isArray(current)) {
    for (const element of current) {
      const found = atResolvedPath(element, path, resolve);
      if (found !== undefined && found !== null) return found;
    }
    return undefined;
  }
  if (current === null || typeof current !== 'object') return undefined;
  return atResolvedPath((current as Record<string, unknown>)[path[0]!], path.slice(1), resolve);
}

/**
 * @param typeWords words of the field name that may name a schema.org type ("recipe_name" → Recipe),
 * whose items are read first.
 */
export function fromJsonLd(page: ParsedPage, concept: Concept | undefined, genericKeys: string[], typeWords: string[] = []): Candidate | undefined {
  const named = typeWords.length > 0 ? new RegExp(`^(${typeWords.map((w) => w.replace(/[^a-z]/g, '')).filter(Boolean).join('|')})`, 'i') : undefined;
  const items = rankItems(page.jsonLd, concept?.ldTypes, named);
  const resolve = resolver(page.jsonLd);
  const paths = concept ? concept.ld : [];
  for (const item of items) {
    for (const path of paths) {
      const value = leafValue(atResolvedPath(item, path.split('.'), resolve));
      if (present(value)) return { value, source: 'json_ld', confidence: 0.95 };
    }
  }
  // A field no concept knows: a same-named property, or a PropertyValue in additionalProperty.
  for (const item of items) {
    for (const [key, raw] of Object.entries(item)) {
      if (genericKeys.includes(normalizeKey(key))) {
        const value = leafValue(raw);
        if (present(value)) return { value, source: 'json_ld', confidence: 0.9 };
      }
    }
    const props = item.additionalProperty;
    for (const prop of Array.isArray(props) ? props : []) {
      const p = prop as Record<string, unknown>;
      if (typeof p.name === 'string' && genericKeys.includes(normalizeKey(p.name))) {
        const value = leafValue(p.value);
        if (present(value)) return { value, source: 'json_ld', confidence: 0.9 };
      }
    }
  }
  return undefined;
}

export const normalizeKey = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

export function fromMicrodata(page: ParsedPage, concept: Concept | undefined, genericKeys: string[]): Candidate | undefined {
  const items = [...page.microdata].sort((a, b) => microRank(a, concept) - microRank(b, concept));
  const wanted = concept ? concept.microdata : [];
  for (const name of wanted) {
    for (const item of items) {
      const value = findProp(item, (prop) => prop === name);
      if (present(value)) return { value, source: 'microdata', confidence: 0.9 };
    }
  }
  for (const item of items) {
    const value = findProp(item, (prop) => genericKeys.includes(normalizeKey(prop)));
    if (present(value)) return { value, source: 'microdata', confidence: 0.85 };
  }
  for (const [key, raw] of Object.entries(page.rdfa)) {
    const prop = key.split(':').pop() ?? key;
    if (wanted.includes(prop) || genericKeys.includes(normalizeKey(prop))) {
      if (present(raw.trim())) return { value: raw.trim(), source: 'rdfa', confidence: 0.85 };
    }
  }
  return undefined;
}

function microRank(item: MicrodataItem, concept: Concept | undefined): number {
  const type = item.type ?? '';
  if (concept?.ldTypes?.test(type)) return 0;
  if (MAIN_ENTITY.test(type) && !PERIPHERAL.test(type)) return 1;
  return PERIPHERAL.test(type) ? 3 : 2;
}

/** Breadth first, so an item's own property wins over one of a nested item. */
function findProp(item: MicrodataItem, test: (prop: string) => boolean): unknown {
  const queue: MicrodataItem[] = [item];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const [prop, values] of Object.entries(current.properties)) {
      if (!test(prop)) continue;
      const found = values.map((v) => (typeof v === 'string' ? v.trim() : leafValue(microToObject(v)))).filter(present);
      if (found.length === 1) return found[0];
      if (found.length > 1) return found.map(String);
    }
    for (const values of Object.values(current.properties)) for (const v of values) if (typeof v !== 'string') queue.push(v);
  }
  return undefined;
}

function microToObject(item: MicrodataItem): Record<string, unknown> {
  const out: Record<string, unknown> = { '@type': item.type ?? '' };
  for (const [prop, values] of Object.entries(item.properties)) {
    const first = values[0];
    out[prop] = typeof first === 'string' ? first : first ? microToObject(first) : undefined;
  }
  return out;
}

export function fromMeta(page: ParsedPage, concept: Concept | undefined, genericKeys: string[]): Candidate | undefined {
  for (const key of concept?.meta ?? []) {
    const value = page.meta[key];
    if (value && value.trim()) return { value: value.trim(), source: 'meta', confidence: 0.85 };
  }
  for (const [key, value] of Object.entries(page.meta)) {
    const last = key.split(/[:.]/).pop() ?? key;
    if (genericKeys.includes(normalizeKey(last)) && value.trim()) return { value: value.trim(), source: 'meta', confidence: 0.75 };
  }
  return undefined;
}
