import { createRequire } from 'node:module';
import type nlpType from 'compromise';
import { domainOf } from '../search/text.js';
import type { SessionContextState } from './schemas.js';

/**
 * compromise costs about half a second and 45 MB to load; most engines never analyse a session,
 * so it is loaded on first use (Node's module cache keeps it from then on).
 */
const nlp = (text: string) => (createRequire(import.meta.url)('compromise') as typeof nlpType)(text);

export interface ContextDocument {
  url: string;
  title?: string | null;
  text?: string | null;
  document_type?: string | null;
  content_type?: string | null;
}

const RECENT_QUERIES = 20;
/** Counters are bounded so a long session's row stays small; the rarest entries go first. */
const MAX_COUNTER_ENTRIES = 200;
/** Enough text to find a page's topics without parsing whole documents on every operation. */
const TEXT_PER_DOCUMENT = 4000;
const MIN_KEYWORD_LENGTH = 3;

export const emptyContext = (): SessionContextState => ({
  recent_queries: [],
  domains: {},
  entities: {},
  keywords: {},
  document_types: {},
  content_types: {},
  documents_seen: 0,
});

/** Folds one finished operation into the context. Pure: returns a new state. */
export function accumulate(state: SessionContextState, input: { query?: string | null; documents: ContextDocument[] }): SessionContextState {
  const next: SessionContextState = structuredClone(state);
  if (input.query) {
    next.recent_queries = [...next.recent_queries.filter((q) => q !== input.query), input.query].slice(-RECENT_QUERIES);
  }
  const texts: string[] = input.query ? [input.query] : [];
  for (const doc of input.documents) {
    const domain = domainOf(doc.url);
    if (domain) bump(next.domains, domain);
    if (doc.document_type) bump(next.document_types, doc.document_type);
    if (doc.content_type) bump(next.content_types, doc.content_type.split(';')[0]!.trim().toLowerCase());
    texts.push([doc.title, doc.text?.slice(0, TEXT_PER_DOCUMENT)].filter(Boolean).join('. '));
  }
  next.documents_seen += input.documents.length;
  const found = analyse(texts.filter((t) => t.length > 0).join('\n'));
  for (const entity of found.entities) bump(next.entities, entity);
  for (const keyword of found.keywords) bump(next.keywords, keyword);
  for (const key of ['domains', 'entities', 'keywords', 'document_types', 'content_types'] as const) next[key] = bounded(next[key]);
  return next;
}

/** Named things (people, places, organizations) and common-noun keywords, found by compromise's tagger. */
export function analyse(text: string): { entities: string[]; keywords: string[] } {
  if (!text.trim()) return { entities: [], keywords: [] };
  const doc = nlp(text);
  const entities = doc
    .topics()
    .json()
    .map((match: TermsJson) => match.terms.map((t) => t.text).join(' ').trim())
    .filter((e: string) => e.length > 1);
  // root gives the singular of plural nouns, so "benchmarks" and "benchmark" count together
  doc.compute('root');
  const keywords: string[] = [];
  for (const sentence of doc.json() as TermsJson[]) {
    for (const term of sentence.terms) {
      const tags = new Set(term.tags);
      if (!tags.has('Noun') || ['Pronoun', 'ProperNoun', 'Value', 'Possessive'].some((tag) => tags.has(tag))) continue;
      const word = (term.root ?? term.normal).replace(/[^\p{L}\p{N}-]/gu, '');
      if (word.length >= MIN_KEYWORD_LENGTH) keywords.push(word);
    }
  }
  return { entities, keywords };
}

interface TermsJson {
  terms: { text: string; normal: string; root?: string; tags: string[] }[];
}

export interface Ranked {
  value: string;
  count: number;
}

export const top = (counter: Record<string, number>, n: number): Ranked[] =>
  Object.entries(counter)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([value, count]) => ({ value, count }));

function bump(counter: Record<string, number>, key: string): void {
  counter[key] = (counter[key] ?? 0) + 1;
}

function bounded(counter: Record<string, number>): Record<string, number> {
  const entries = Object.entries(counter);
  if (entries.length <= MAX_COUNTER_ENTRIES) return counter;
  return Object.fromEntries(top(counter, MAX_COUNTER_ENTRIES).map((r) => [r.value, r.count]));
}
