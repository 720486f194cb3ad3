/** Okapi BM25 with the usual constants, idf = ln(1 + (N - df + 0.5) / (df + 0.5)). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * A BM25 collection for one query that grows as documents are seen: add() counts a document into
 * the frequencies, score() rates any document against what has been seen so far (a document not
 * yet added is scored as if the collection had at least one). Documents are token lists, made by
 * the caller (usually with terms() from ./tokens).
 */
export class Bm25Corpus {
  private readonly query: string[];
  private readonly df = new Map<string, number>();
  private docs = 0;
  private totalLength = 0;

  constructor(queryTerms: readonly string[]) {
    this.query = [...new Set(queryTerms)];
  }

  /** False when the query has no terms: every score is 0. */
  get active(): boolean {
    return this.query.length > 0;
  }

  get size(): number {
    return this.docs;
  }

  add(doc: readonly string[]): void {
    this.docs++;
    this.totalLength += doc.length;
    // Only query terms are ever scored, so only their frequencies are kept.
    for (const term of new Set(doc)) if (this.query.includes(term)) this.df.set(term, (this.df.get(term) ?? 0) + 1);
  }

  score(doc: readonly string[]): number {
    if (doc.length === 0 || !this.active) return 0;
    const avg = this.docs > 0 && this.totalLength > 0 ? this.totalLength / this.docs : doc.length;
    const n = Math.max(this.docs, 1);
    const tf = new Map<string, number>();
    for (const t of doc) tf.set(t, (tf.get(t) ?? 0) + 1);
    let s = 0;
    for (const term of this.query) {
      const f = tf.get(term) ?? 0;
      if (f === 0) continue;
      const df = Math.min(this.df.get(term) ?? 0, n);
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      s += (idf * f * (BM25_K1 + 1)) / (f + BM25_K1 * (1 - BM25_B + (BM25_B * doc.length) / avg));
    }
    return s;
  }
}

/** BM25 of each document against the query, the documents being their own collection. */
export function bm25Scores(queryTerms: readonly string[], docs: readonly (readonly string[])[]): number[] {
  const corpus = new Bm25Corpus(queryTerms);
  for (const d of docs) corpus.add(d);
  return docs.map((d) => corpus.score(d));
}
