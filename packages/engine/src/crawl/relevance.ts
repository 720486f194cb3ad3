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

/** Words joined by hyphens in the intent ("write-ahead", "state-of-the-art"): one term, not several. */
const COMPOUND = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu;

/**
 * The intent's query terms. A hyphenated compound counts as one term, matched only where its
 * words stand next to each other (hyphenated or not), so "write-ahead logging" does not make every
 * link that says "Writing ..." relevant. Its parts are not terms of their own.
 */
export function intentTerms(intent: string): { terms: string[]; compounds: string[][] } {
  const compounds: string[][] = [];
  const rest = intent.replace(COMPOUND, (phrase) => {
    const parts = tokenize(phrase.replace(/-/g, ' '));
    if (parts.length < 2) return phrase;
    compounds.push(parts);
    return ' ';
  });
  return { terms: [...tokenize(rest), ...compounds.map((c) => c.join('+'))], compounds };
}

export class IntentScorer {
  private readonly corpus: Bm25Corpus;
  private readonly compounds: string[][];

  constructor(intent: string | undefined) {
    const { terms: query, compounds } = intentTerms(intent ?? '');
    this.corpus = new Bm25Corpus(query);
    this.compounds = compounds;
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
    // Without an intent every score is 0: the candidate's text need not be tokenized to say so.
    if (!this.active) return 0;
    const s = this.corpus.score(this.tokens(candidate));
    return s / (s + 2);
  }

  private tokens(c: CandidateText): string[] {
    return [
      ...c.anchors.flatMap((a) => {
        const t = this.withCompounds(tokenize(a));
        return [...t, ...t];
      }),
      ...this.withCompounds(urlTokens(c.url)),
      ...this.withCompounds(tokenize(c.context)),
    ];
  }

  /** The tokens, plus one compound term wherever all of a compound's words occur in a row. */
  private withCompounds(tokens: string[]): string[] {
    if (this.compounds.length === 0) return tokens;
    const found: string[] = [];
    for (const parts of this.compounds) {
      for (let i = 0; i + parts.length <= tokens.length; i++) {
        if (parts.every((p, j) => tokens[i + j] === p)) found.push(parts.join('+'));
      }
    }
    return found.length ? [...tokens, ...found] : tokens;
  }
}

const DETAIL_WORDS = /\b(individual|specific|details?)\b/i;

/** The spec's default link depth: 1, 2 with an intent, 3 when the intent asks for individual, specific or detail pages. */
export function defaultDepth(intent: string | undefined): number {
  if (!intent) return 1;
  return DETAIL_WORDS.test(intent) ? 3 : 2;
}
