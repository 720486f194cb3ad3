import { domainMatches } from './text.js';

export type ResultType = 'academic' | 'commercial' | 'news' | 'community';

export interface TypeEvidence {
  url: string;
  domain: string;
  title: string;
  description: string;
  schemaTypes: string[];
}

/** Domains whose pages are of one type whatever they say; also the authorities for reranking. */
const AUTHORITY_DOMAINS: Record<ResultType, string[]> = {
  academic: ['arxiv.org', 'doi.org', 'nature.com', 'science.org', 'sciencedirect.com', 'springer.com', 'ieee.org', 'acm.org', 'nih.gov', 'jstor.org', 'plos.org', 'semanticscholar.org'],
  news: ['reuters.com', 'apnews.com', 'bbc.co.uk', 'bbc.com', 'nytimes.com', 'theguardian.com', 'ft.com', 'bloomberg.com', 'wsj.com', 'economist.com', 'npr.org'],
  community: ['reddit.com', 'stackoverflow.com', 'stackexchange.com', 'news.ycombinator.com', 'quora.com', 'discourse.org', 'lobste.rs'],
  commercial: ['amazon.com', 'ebay.com', 'etsy.com', 'shopify.com', 'walmart.com', 'bestbuy.com'],
};

const SCHEMA_TYPES: Record<ResultType, RegExp> = {
  academic: /^(ScholarlyArticle|MedicalScholarlyArticle|Thesis|Dataset|Report)$/i,
  news: /^(NewsArticle|ReportageNews|AnalysisNewsArticle|OpinionNewsArticle|LiveBlogPosting)$/i,
  community: /^(DiscussionForumPosting|QAPage|Question|Answer|SocialMediaPosting|Comment)$/i,
  commercial: /^(Product|ProductGroup|Offer|AggregateOffer|Store|OnlineStore|LocalBusiness)$/i,
};

const URL_CUES: Record<ResultType, RegExp> = {
  academic: /\/(abs|paper|papers|doi|publications?|journal|proceedings)\/|\.pdf$/i,
  news: /\/(news|article|articles|story|stories)\/|\/20\d\d\/\d\d\/(\d\d\/)?/i,
  community: /\/(forum|forums|thread|threads|questions|discussion|discussions|community|t|r)\//i,
  commercial: /\/(product|products|shop|store|p|item|pricing|cart|buy|catalogue|catalog)\//i,
};

const TEXT_CUES: Record<ResultType, RegExp> = {
  academic: /\b(abstract|et al\.|peer[- ]reviewed|doi:|journal|preprint|university)\b/i,
  news: /\b(reported|reporters?|breaking|press release|announced|said on (monday|tuesday|wednesday|thursday|friday))\b/i,
  community: /\b(asked|upvotes?|replies|thread|posted by|forum|answers?)\b/i,
  commercial: /(add to (cart|basket)|in stock|free shipping|buy now|\$\s?\d|€\s?\d|£\s?\d|\bprice\b)/i,
};

const TYPES: ResultType[] = ['academic', 'news', 'community', 'commercial'];

/**
 * Decides a result's source type from weighted cues: a known domain (4) or academic TLD (4),
 * a JSON-LD type (3), a URL pattern (2), a text cue in title or description (1). The highest
 * total wins; no cue at all, or a tie at the top, is `mixed`.
 */
export function classifySource(e: TypeEvidence): ResultType | 'mixed' {
  const scores = TYPES.map((type) => {
    let score = 0;
    if (AUTHORITY_DOMAINS[type].some((d) => domainMatches(e.domain, d))) score += 4;
    if (type === 'academic' && /\.(edu|ac\.[a-z]{2})$/.test(e.domain)) score += 4;
    if (e.schemaTypes.some((t) => SCHEMA_TYPES[type].test(t))) score += 3;
    if (URL_CUES[type].test(safePath(e.url))) score += 2;
    if (TEXT_CUES[type].test(`${e.title} ${e.description}`)) score += 1;
    return { type, score };
  }).sort((a, b) => b.score - a.score);
  const [best, second] = scores;
  if (!best || best.score === 0 || (second && second.score === best.score)) return 'mixed';
  return best.type;
}

/** True when the domain is an authority for the type (any type when none is wanted). */
export function isAuthority(domain: string, wanted: ResultType | undefined): boolean {
  const types = wanted ? [wanted] : TYPES;
  return (
    types.some((t) => AUTHORITY_DOMAINS[t].some((d) => domainMatches(domain, d))) ||
    ((wanted === undefined || wanted === 'academic') && /\.(edu|gov|ac\.[a-z]{2})$/.test(domain))
  );
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
