import { STOPWORDS, words } from '../text/tokens.js';
import { queryTerms } from './text.js';

export interface SuggestionSource {
  title: string;
  description: string;
}

const MAX_SUGGESTIONS = 5;

/**
 * Follow-up queries from the results: entities (runs of capitalised words in titles) and
 * salient terms (words found in several results but not in the query, weighted by how many
 * results use them). Deterministic: ties break alphabetically.
 */
export function suggestQueries(query: string, results: SuggestionSource[]): string[] {
  const asked = new Set(queryTerms(query));
  const base = query.trim();
  const entities = rankedEntities(results, asked).slice(0, 2).map((e) => `${e} ${base}`);
  const terms = salientTerms(results, asked).slice(0, MAX_SUGGESTIONS).map((t) => `${base} ${t}`);
  return [...new Set([...entities, ...terms])].slice(0, MAX_SUGGESTIONS);
}

export function salientTerms(results: SuggestionSource[], exclude: Set<string>): string[] {
  const docFreq = new Map<string, number>();
  for (const r of results) {
    for (const w of new Set(words(`${r.title} ${r.description}`))) {
      if (w.length < 3 || STOPWORDS.has(w) || exclude.has(w) || /^\d+$/.test(w)) continue;
      docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
    }
  }
  return [...docFreq.entries()]
    .filter(([, n]) => n >= 2 || results.length < 3)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([w]) => w);
}

function rankedEntities(results: SuggestionSource[], exclude: Set<string>): string[] {
  const counts = new Map<string, number>();
  for (const r of results) {
    // Skip the title's first word: it is capitalised by position, not because it names something.
    const matches = r.title.match(/(?<!^)\b[A-Z][\p{L}\d]+(?:\s+[A-Z][\p{L}\d]+)+/gu) ?? [];
    for (const m of new Set(matches)) {
      if (words(m).every((w) => exclude.has(w))) continue;
      counts.set(m, (counts.get(m) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([e]) => e);
}
