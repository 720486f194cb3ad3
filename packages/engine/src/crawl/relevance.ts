/**
 * BM25 relevance of a candidate URL to the crawl intent, before it is fetched. The candidate's
 * "document" is what links to it: anchor texts (counted twice: they are chosen words), the
 * tokens of its URL, and the words around the link. Document frequencies come from the
 * candidates this crawl has seen, so common navigation words score low on every site.
 */
const STOPWORDS = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were will with about find page pages site all any more most other some such than then there these they what when where which who why how get show me my our your i we you us want looking need information info'.split(' '),
);

const K1 = 1.2;
const B = 0.75;

/** Lowercase word stems: a light plural/suffix strip is enough to match "laptops" to "laptop". */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOPWORDS.has(raw) || /^\d+$/.test(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 3 && word.endsWith('es') && /(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export function urlTokens(url: string): string[] {
  try {
    const parsed = new URL(url);
    return tokenize(`${parsed.pathname} ${parsed.search}`.replace(/[-_/.=&?+]/g, ' '));
  } catch {
    return [];
  }
}

export interface CandidateText {
  url: string;
  anchors: readonly string[];
  context: string;
}

export class IntentScorer {
  private readonly terms: string[];
  private readonly df = new Map<string, number>();
  private docs = 0;
  private totalLength = 0;

  constructor(intent: string | undefined) {
    this.terms = [...new Set(tokenize(intent ?? ''))];
  }

  get active(): boolean {
    return this.terms.length > 0;
  }

  /** Counts a newly discovered candidate into the document frequencies. */
  observe(candidate: CandidateText): void {
    if (!this.active) return;
    const tokens = this.tokens(candidate);
    this.docs++;
    this.totalLength += tokens.length;
    for (const term of new Set(tokens)) if (this.terms.includes(term)) this.df.set(term, (this.df.get(term) ?? 0) + 1);
  }

  /** BM25 squashed into [0, 1) by s / (s + 2): comparable across crawls and ready to blend with graph scores. */
  score(candidate: CandidateText): number {
    if (!this.active) return 0;
    const tokens = this.tokens(candidate);
    if (tokens.length === 0) return 0;
    const avg = this.docs > 0 ? this.totalLength / this.docs : tokens.length;
    const n = Math.max(this.docs, 1);
    let s = 0;
    for (const term of this.terms) {
      let tf = 0;
      for (const t of tokens) if (t === term) tf++;
      if (tf === 0) continue;
      const df = Math.min(this.df.get(term) ?? 0, n);
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      s += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * tokens.length) / avg));
    }
    return s / (s + 2);
  }

  private tokens(c: CandidateText): string[] {
    return [...c.anchors.flatMap((a) => { const t = tokenize(a); return [...t, ...t]; }), ...urlTokens(c.url), ...tokenize(c.context)];
  }
}

const DETAIL_WORDS = /\b(individual|specific|details?)\b/i;

/** The spec's default link depth: 1, 2 with an intent, 3 when the intent asks for individual, specific or detail pages. */
export function defaultDepth(intent: string | undefined): number {
  if (!intent) return 1;
  return DETAIL_WORDS.test(intent) ? 3 : 2;
}
