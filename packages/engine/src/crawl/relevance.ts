/**
 * BM25 relevance of a candidate URL to the crawl intent, before it is fetched. The candidate's
 * "document" is what links to it: anchor texts (counted twice: they are chosen words), the
 * tokens of its URL, and the words around the link. Document frequencies come from the
 * candidates this crawl has seen, so common navigation words score low on every site.
 */
import { Bm25Corpus } from '../text/bm25.js';
import { terms, withStopwords } from '../text/tokens.js';

const STOPWORDS = withStopwords('find page pages site get show want looking need information info'.split(' '));

/** Word stems without stopwords or bare numbers: the shared stem matches "laptops" to "laptop". */
export function tokenize(text: string): string[] {
  return terms(text, { stopwords: STOPWORDS, minLength: 2, dropNumbers: true });
}

function urlTokens(url: string): string[] {
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
  private readonly corpus: Bm25Corpus;

  constructor(intent: string | undefined) {
    this.corpus = new Bm25Corpus(tokenize(intent ?? ''));
  }

  get active(): boolean {
    return this.corpus.active;
  }

  /** Counts a newly discovered candidate into the document frequencies. */
  observe(candidate: CandidateText): void {
    if (this.active) this.corpus.add(this.tokens(candidate));
  }

  /** BM25 squashed into [0, 1) by s / (s + 2): comparable across crawls and ready to blend with graph scores. */
  score(candidate: CandidateText): number {
    const s = this.corpus.score(this.tokens(candidate));
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
