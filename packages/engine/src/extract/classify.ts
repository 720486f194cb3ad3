import type { ParsedPage } from '../html/index.js';
import { PRICE_PATTERN } from './concepts.js';

export const DOCUMENT_TYPES = ['article', 'product', 'listing', 'documentation', 'forum', 'legal', 'homepage', 'other'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface Classification {
  label: DocumentType;
  confidence: number;
}

type Scores = Record<Exclude<DocumentType, 'other'>, number>;

/**
 * The kind of document a page is, from evidence any site shows: its declared schema.org type and
 * OpenGraph type, its URL, the shape of its content (prices and carts, bylines, runs of similar
 * links, code blocks, reply threads) and legal vocabulary. Confidence is the winning evidence's
 * share, capped by how strong it is.
 */
export function classifyPage(page: ParsedPage, html: string): Classification {
  const s: Scores = { article: 0, product: 0, listing: 0, documentation: 0, forum: 0, legal: 0, homepage: 0 };
  const types = [...page.jsonLd.map((i) => String(i['@type'] ?? '')), ...page.microdata.map((m) => m.type ?? '')].join(' ');
  const og = (page.openGraph.type ?? '').toLowerCase();
  const url = safeUrl(page.url);
  const path = url?.pathname.toLowerCase() ?? '';
  const title = (page.title ?? '').toLowerCase();

  if (/\b(Product|ProductGroup|IndividualProduct)\b/.test(types)) s.product += 4;
  if (/\bOffer\b/.test(types)) s.product += 1;
  if (og.includes('product')) s.product += 2;
  if (/add.to.(cart|basket|bag)|buy now|in den warenkorb|ajouter au panier/i.test(html)) s.product += 1.5;
  if (PRICE_PATTERN.test(page.text.slice(0, 3000))) s.product += 0.5;
  if (/\b(price|availability|sku|product code|item (no|number)|artikelnummer)\s*:/i.test(page.text)) s.product += 1;
  if (/\b(basket|cart|warenkorb|panier)\b/i.test(html)) s.product += 0.5;
  if (/\/(products?|item|p|dp|shop)\//.test(path)) s.product += 1;

  if (/\b(NewsArticle|BlogPosting|Article|ReportageNewsArticle|OpinionNewsArticle|AnalysisNewsArticle)\b/.test(types)) s.article += 4;
  if (og === 'article') s.article += 2;
  if (page.publishedDate) s.article += 1;
  if (page.author) s.article += 1;
  if (page.wordCount > 250) s.article += 1;
  if (/\/(news|article|articles|blog|posts?|story|\d{4}\/\d{2})\//.test(path)) s.article += 1;

  if (/\b(TechArticle|APIReference|SoftwareSourceCode)\b/.test(types)) s.documentation += 4;
  if (/\/(docs?|documentation|reference|api|guides?|manual|handbook|learn|tutorials?)(\/|$)/.test(path)) s.documentation += 3;
  const codeBlocks = (html.match(/<pre[\s>]/gi) ?? []).length + (html.match(/<code[\s>]/gi) ?? []).length / 4;
  if (codeBlocks >= 1) s.documentation += Math.min(2, codeBlocks);
  if (/\b(docs|documentation|reference|api)\b/.test(title)) s.documentation += 1;

  if (/\b(DiscussionForumPosting|QAPage|Question|Comment)\b/.test(types)) s.forum += 4;
  if (/\/(forums?|threads?|t|topic|questions|discussions?|community|board)\//.test(path)) s.forum += 2;
  const replies = (html.match(/\b(reply|replies|antworten|répondre)\b/gi) ?? []).length;
  if (replies >= 3) s.forum += 1.5;

  if (/(privacy|terms|cookie|legal|imprint|impressum|datenschutz|agb|gdpr|disclaimer|conditions|tos)/.test(path)) s.legal += 3;
  if (/(privacy policy|terms of (service|use)|cookie policy|impressum|datenschutz|terms and conditions|legal notice)/.test(title)) s.legal += 3;
  if ((page.text.match(/\b(shall|hereby|liability|pursuant|governing law|data controller|personal data)\b/gi) ?? []).length >= 4) s.legal += 1.5;

  if (path === '/' || /^\/(index\.(html?|php))?$/.test(path) || /^\/[a-z]{2}(-[a-z]{2})?\/?$/.test(path)) s.homepage += 4;
  if (/\b(WebSite)\b/.test(types) && !/\b(Product|Article|NewsArticle|BlogPosting)\b/.test(types)) s.homepage += 0.5;

  const similar = similarLinkRun(page);
  if (similar >= 8) s.listing += 2 + Math.min(2, similar / 20);
  if (page.nextPage) s.listing += 1.5;
  if (/\b(ItemList|CollectionPage|SearchResultsPage|OfferCatalog)\b/.test(types)) s.listing += 3;
  if (/\/(category|categories|collections?|tags?|topics?|search|archive|shop|c)(\/|$)/.test(path) || /[?&](page|p|q|s)=/.test(url?.search ?? '')) s.listing += 1.5;
  // A product page lists related products too; a listing rarely has a single price block and a cart button.
  if (s.product >= 4) s.listing -= 1.5;

  const ranked = (Object.entries(s) as [Exclude<DocumentType, 'other'>, number][]).sort((a, b) => b[1] - a[1]);
  const [best, bestScore] = ranked[0]!;
  const total = ranked.reduce((sum, [, v]) => sum + Math.max(0, v), 0);
  if (bestScore < 2) return { label: 'other', confidence: round(0.5 - bestScore / 5) };
  const share = bestScore / total;
  return { label: best, confidence: round(Math.min(0.98, share * Math.min(1, bestScore / 5) + 0.2)) };
}

/** Links in the content whose paths share the same first segment: the items of a listing. */
function similarLinkRun(page: ParsedPage): number {
  const counts = new Map<string, number>();
  const host = safeUrl(page.url)?.host;
  for (const link of page.links) {
    const url = safeUrl(link.url);
    if (link.region !== 'main' || url?.host !== host) continue;
    const first = url?.pathname.split('/').filter(Boolean)[0];
    if (first) counts.set(first, (counts.get(first) ?? 0) + 1);
  }
  return Math.max(0, ...counts.values());
}

const safeUrl = (url: string) => {
  try {
    return new URL(url);
  } catch {
    return null;
  }
};

const round = (n: number) => Math.round(n * 100) / 100;
