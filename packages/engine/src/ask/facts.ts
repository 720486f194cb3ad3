import { parseHtml } from '../html/index.js';
import { textPage, type Classification, type ExtractionInput, type ExtractionService, type FieldValue } from '../extract/index.js';
import type { AskedAttributes, Attribute } from './attributes.js';
import { extractionSchema } from './attributes.js';
import type { AskDocument } from './compose.js';

/** What ask uses of engine.extraction. */
export type FactReader = Pick<ExtractionService, 'extract' | 'classify'>;

/** Facts one page states, each with the extraction's confidence. */
export interface PageFacts {
  name: string;
  values: Partial<Record<Attribute | 'currency' | 'review_count', string | number>>;
  confidence: number;
}

/** Below this the extraction is a guess, not a fact to state. */
const MIN_CONFIDENCE = 0.4;
/** Facts that only describe one product, never a listing or an article that mentions a price. */
const PRODUCT_FACTS: readonly string[] = ['price', 'currency', 'availability', 'rating', 'review_count', 'brand'];
const ARTICLE_FACTS: readonly string[] = ['date_published', 'author'];
/** A sentence of the text is an answer to a question, not a stated fact. */
const TRUSTED_SOURCES = new Set(['json_ld', 'microdata', 'rdfa', 'meta', 'dom_label', 'dom_selector', 'text_pattern', 'llm']);

/**
 * Reads the asked attributes of one page with the extraction layer: from its HTML when ask
 * fetched it, else from the indexed text (the extractor's text path). Product facts are kept
 * only on product pages and article facts only off them, so a listing's first price is never
 * stated as the listing's own.
 */
export async function readFacts(reader: FactReader, doc: AskDocument, asked: AskedAttributes): Promise<PageFacts | null> {
  const input = extractionInput(doc);
  const [kind, result] = await Promise.all([reader.classify(input), reader.extract(input, extractionSchema(asked.attributes))]);
  const values: PageFacts['values'] = {};
  const confidences: number[] = [];
  for (const [key, value] of Object.entries(result.extracted_data)) {
    if (key === 'name' || !applies(key, kind)) continue;
    const confidence = result.extraction_metadata.confidence_scores[key] ?? 0;
    const source = result.extraction_metadata.sources[key] ?? null;
    const fact = factValue(value);
    if (fact === null || confidence < MIN_CONFIDENCE || !source || !TRUSTED_SOURCES.has(source)) continue;
    values[key as keyof PageFacts['values']] = fact;
    if (key !== 'currency' && key !== 'review_count') confidences.push(confidence);
  }
  if (!asked.attributes.some((a) => values[a] !== undefined)) return null;
  const name = typeof result.extracted_data.name === 'string' && result.extracted_data.name.trim() ? result.extracted_data.name.trim() : doc.title;
  return { name, values, confidence: Math.min(...confidences) };
}

function applies(key: string, kind: Classification): boolean {
  if (PRODUCT_FACTS.includes(key)) return kind.label === 'product';
  if (ARTICLE_FACTS.includes(key)) return kind.label !== 'product' && kind.label !== 'listing';
  return true;
}

function factValue(value: FieldValue): string | number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return value.trim() || null;
  if (Array.isArray(value)) return value.join(', ') || null;
  return null;
}

/** Text-only pages become paragraphs so the extractor's DOM and text patterns both apply. */
function extractionInput(doc: AskDocument): ExtractionInput {
  if (doc.html) return { page: parseHtml(doc.html, doc.url), html: doc.html };
  const input = textPage(doc.text, doc.url, doc.title);
  // Set on the page itself, not a copy, so the extractor still gets the parsed tree (takeTree).
  input.page.publishedDate ??= doc.publishedDate;
  return input;
}
