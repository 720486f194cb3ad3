import { sentences, words } from '../text/tokens.js';
import type { SearchSummary } from './schemas.js';
import { queryTerms } from './text.js';

export interface SummarySource {
  title: string;
  url: string;
  description: string;
}


const MAX_SENTENCES = 3;

/**
 * Extractive summary: the sentences of the results' descriptions that cover the most query
 * terms, at most one per result, in result order, each followed by its citation marker.
 */
export function summarize(query: string, results: SummarySource[]): SearchSummary | null {
  const terms = new Set(queryTerms(query));
  const picked = results
    .map((r, i) => {
      const best = sentences(r.description)
        .filter((s) => s.length >= 20)
        .map((s) => ({ s, hits: new Set(words(s).filter((w) => terms.has(w))).size }))
        .sort((a, b) => b.hits - a.hits)[0];
      return best ? { index: i, sentence: best.s, hits: best.hits } : null;
    })
    .filter((p): p is { index: number; sentence: string; hits: number } => p !== null)
    .sort((a, b) => b.hits - a.hits || a.index - b.index)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.index - b.index);
  if (picked.length === 0) return null;
  const text = picked.map((p) => `${p.sentence.replace(/[.…]*$/, '.')} [${p.index + 1}]`).join(' ');
  const citations = [...new Set(picked.map((p) => p.index))].map((i) => ({ marker: i + 1, url: results[i]!.url, title: results[i]!.title }));
  return { text, citations, method: 'extractive' };
}
