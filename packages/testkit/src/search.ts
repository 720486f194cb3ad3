import type { Handler, Reply } from './server.js';
import { CATEGORIES } from './sites/categories.js';
import { categoryVocabulary } from './sites/catalogue-model.js';
import type { LocalWebTruth, Origins } from './truth.js';

/** SearXNG result categories the local web maps its sites to. */
export type SearchCategory = 'general' | 'news' | 'it';
export const RESULTS_PER_PAGE = 10;

export interface SearchDocument {
  url: string;
  title: string;
  content: string;
  engine: 'catalogue' | 'news' | 'docs';
  category: SearchCategory;
  publishedDate: string | null;
}

export interface SearxngResult extends SearchDocument {
  engines: string[];
  positions: number[];
  score: number;
  parsed_url: string[];
  template: 'default.html';
}

export interface SearxngResponse {
  query: string;
  number_of_results: number;
  results: SearxngResult[];
  answers: string[];
  corrections: string[];
  infoboxes: unknown[];
  suggestions: string[];
  unresponsive_engines: [string, string][];
}

const STOPWORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'best', 'by', 'for', 'from', 'how', 'i', 'in', 'is', 'it', 'of', 'on', 'or', 'the', 'to', 'what', 'with']);
const stem = (word: string) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);
export const tokens = (text: string) => (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(stem);
export const queryTerms = (query: string) => [...new Set((query.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOPWORDS.has(w)).map(stem))];

/**
 * Relevance: a query term in the title is worth 2, in the content 1, summed over terms and divided by the maximum,
 * so a page matching every term in both scores 1. Ties break on the URL, so the order is total and deterministic.
 */
export function relevance(terms: readonly string[], title: string, content: string): number {
  if (terms.length === 0) return 0;
  const inTitle = new Set(tokens(title));
  const inContent = new Set(tokens(content));
  let score = 0;
  for (const term of terms) score += (inTitle.has(term) ? 2 : 0) + (inContent.has(term) ? 1 : 0);
  return Math.round((score / (3 * terms.length)) * 10_000) / 10_000;
}

const VOCABULARY = new Map(CATEGORIES.map((c) => [c.slug, new Set([...categoryVocabulary(c)].map(stem))]));

/** Every searchable content page of the current version whose words could match the terms, computed from the generators. */
export function* searchDocuments(truth: LocalWebTruth, origins: Origins, terms: readonly string[]): Generator<SearchDocument> {
  const catalogue = truth.models.catalogue();
  const anyNumber = terms.some((t) => /^\d+$/.test(t));
  for (const category of catalogue.categories) {
    // only categories whose vocabulary holds a query term can produce a match: skip walking the others
    if (!anyNumber && !terms.some((t) => VOCABULARY.get(category.slug)!.has(t))) continue;
    const members = catalogue.members(category.slug)!;
    for (let k = 0; k < members.count; k++) {
      const p = catalogue.product(members.id(k))!;
      yield { url: origins.catalogue + p.path, title: p.name, content: p.description.slice(0, 150), engine: 'catalogue', category: 'general', publishedDate: null };
    }
  }
  const news = truth.models.news();
  for (let id = news.count; id >= 1; id--) {
    const a = news.article(id)!;
    yield { url: origins.news + a.path, title: a.headline, content: a.description, engine: 'news', category: 'news', publishedDate: a.published };
  }
  const docs = truth.models.docs();
  for (const path of docs.paths()) {
    const d = docs.page(path)!;
    yield { url: origins.docs + d.path, title: d.title, content: d.description, engine: 'docs', category: 'it', publishedDate: null };
  }
}

const json = (status: number, body: unknown): Reply => ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });

/** A SearXNG-compatible search over the local web; only the json format is enabled, as on a typical instance. */
export function searchSite(truth: LocalWebTruth, origins: () => Origins): Handler {
  return (url) => {
    if (url.pathname === '/healthz') return { headers: { 'content-type': 'text/plain' }, body: 'OK' };
    if (url.pathname === '/config') return json(200, { categories: ['general', 'news', 'it'], engines: ['catalogue', 'news', 'docs'].map((name) => ({ name, enabled: true })), instance_name: 'wvr local web' });
    if (url.pathname === '/') return { body: '<!doctype html><title>SearXNG</title><form action="/search"><input name="q"></form>' };
    if (url.pathname !== '/search') return { status: 404, body: 'Not found' };
    // SearXNG answers 403 for a format the instance has not enabled
    const format = url.searchParams.get('format') ?? 'html';
    if (format !== 'json') return { status: 403, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><title>403 Forbidden</title><h1>Forbidden</h1>' };
    const query = (url.searchParams.get('q') ?? '').trim();
    if (!query) return json(400, { error: 'No query' });
    const pageno = Number(url.searchParams.get('pageno') ?? '1');
    if (!Number.isInteger(pageno) || pageno < 1) return json(400, { error: 'Invalid value "pageno"' });
    const categories = (url.searchParams.get('categories') ?? '').split(',').map((c) => c.trim()).filter(Boolean);
    return json(200, search(truth, origins(), query, pageno, categories));
  };
}

export function search(truth: LocalWebTruth, origins: Origins, query: string, pageno = 1, categories: readonly string[] = []): SearxngResponse {
  const terms = queryTerms(query);
  const keep = pageno * RESULTS_PER_PAGE;
  // the best `keep` results so far, best first; a full sort of every match would hold the whole catalogue
  const top: { doc: SearchDocument; score: number }[] = [];
  let total = 0;
  for (const doc of searchDocuments(truth, origins, terms)) {
    if (categories.length > 0 && !categories.includes(doc.category)) continue;
    const score = relevance(terms, doc.title, doc.content);
    if (score === 0) continue;
    total++;
    if (top.length === keep && !better(score, doc.url, top[keep - 1]!)) continue;
    let at = top.length;
    while (at > 0 && better(score, doc.url, top[at - 1]!)) at--;
    top.splice(at, 0, { doc, score });
    if (top.length > keep) top.pop();
  }
  const results = top.slice((pageno - 1) * RESULTS_PER_PAGE).map(({ doc, score }, i): SearxngResult => {
    const parsed = new URL(doc.url);
    return { ...doc, engines: [doc.engine], positions: [(pageno - 1) * RESULTS_PER_PAGE + i + 1], score, parsed_url: [parsed.protocol.slice(0, -1), parsed.host, parsed.pathname, '', parsed.search.slice(1), ''], template: 'default.html' };
  });
  const suggestions = CATEGORIES.filter((c) => c.intent !== query.toLowerCase() && terms.some((t) => tokens(c.intent).includes(t))).map((c) => c.intent).slice(0, 5);
  return { query, number_of_results: total, results, answers: [], corrections: [], infoboxes: [], suggestions, unresponsive_engines: [] };
}

const better = (score: number, url: string, than: { doc: SearchDocument; score: number }) =>
  score > than.score || (score === than.score && url < than.doc.url);
