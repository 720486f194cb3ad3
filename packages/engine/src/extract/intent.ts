import type { ParsedPage } from '../html/index.js';
import { contentTerms, planField } from './field.js';

/**
 * `auto_generate_intent`: a crawl goal in plain words from the schema's fields, e.g.
 * "Find pages that give price, currency and brand (the current selling price; …)". The crawler's
 * intent scoring reads its words, so the field names and the instructions' key terms are all in it.
 */
export function intentFromSchema(schema: Record<string, string>): string {
  const plans = Object.entries(schema).map(([key, instruction]) => planField(key, instruction));
  const subjects = [...new Set(plans.map((p) => p.nameWords.join(' ')).filter(Boolean))];
  const terms = [...new Set(plans.flatMap((p) => p.keywords))].filter((w) => !subjects.some((s) => s.split(' ').includes(w)));
  const list = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
  const kind = pageKind(plans.map((p) => p.concept?.id ?? p.hint?.id ?? ''));
  let intent = `Find ${kind} that state ${list(subjects)}`;
  if (terms.length > 0) intent += `; relevant terms: ${terms.slice(0, 30).join(', ')}`;
  intent += '.';
  return intent.length > 2000 ? `${intent.slice(0, 1999)}.` : intent.padEnd(10, '.');
}

function pageKind(concepts: string[]): string {
  const has = (...ids: string[]) => concepts.some((c) => ids.includes(c));
  if (has('price', 'sku', 'gtin', 'availability', 'brand', 'currency')) return 'product detail pages';
  if (has('author', 'date_published', 'date_modified', 'tags')) return 'articles';
  if (has('address', 'phone', 'email', 'hours', 'city')) return 'business and contact pages';
  if (has('ingredients', 'duration')) return 'recipe pages';
  return 'pages';
}

/**
 * Lexical relevance of a page to an intent, 0 to 1: the share of the intent's content words the
 * page uses, with its title and headings counting double.
 */
export function intentRelevance(intent: string, page: ParsedPage): number {
  const wanted = [...new Set(contentTerms(intent))];
  if (wanted.length === 0) return 0;
  const head = new Set(contentTerms(`${page.title ?? ''} ${page.headings.map((h) => h.text).join(' ')} ${page.description ?? ''}`));
  const body = new Set(contentTerms(page.text.slice(0, 20_000)));
  let score = 0;
  for (const w of wanted) score += head.has(w) ? 1 : body.has(w) ? 0.6 : 0;
  return Math.round((score / wanted.length) * 100) / 100;
}
