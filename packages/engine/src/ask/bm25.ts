import { STOPWORDS, words } from '../search/text.js';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Content words, with plurals folded so "prices" matches "price" and "glasses" "glass". */
export function terms(text: string): string[] {
  return words(text)
    .filter((w) => !STOPWORDS.has(w))
    .map(singular);
}

function singular(w: string): string {
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/**
 * Okapi BM25 of each text against the query, with idf = ln(1 + (N - df + 0.5) / (df + 0.5))
 * computed over these texts (the passages of one answer are their own collection).
 */
export function bm25Scores(query: string, texts: string[]): number[] {
  const q = [...new Set(terms(query))];
  const docs = texts.map(terms);
  const avg = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(docs.length, 1) || 1;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };
  return docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    return q.reduce((score, t) => {
      const f = tf.get(t) ?? 0;
      if (f === 0) return score;
      return score + (idf(t) * f * (BM25_K1 + 1)) / (f + BM25_K1 * (1 - BM25_B + (BM25_B * d.length) / avg));
    }, 0);
  });
}
