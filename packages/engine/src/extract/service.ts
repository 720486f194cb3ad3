import { z } from 'zod';
import type { Principal } from '../accounts/schemas.js';
import { requireScope } from '../accounts/scopes.js';
import type { AiService } from '../ai/index.js';
import { parseInput } from '../core/validate.js';
import type { CreditsService } from '../credits/service.js';
import { pricing, type Price } from '../credits/pricing.js';
import { parseHtml, type ParsedPage } from '../html/index.js';
import type { PageEnricher, PageEnrichment } from './enrichment.js';
import type { FetchedPage, PageFetcher } from '../web/types.js';
import { assertUsable } from '../web/usable.js';
import { classifyPage, DOCUMENT_TYPES, type Classification } from './classify.js';
import { applyClassifiers, ClassifierConfig, validateClassifiers, type ClassifierInput } from './classifiers.js';
import type { FieldValue } from './coerce.js';
import { extractHeuristic, type ExtractionInput } from './heuristic.js';
import { intentFromSchema } from './intent.js';
import { extractWithModel } from './llm.js';
import { PreviewExtractionBody, type ExtractionMetadata, type ExtractionPreview } from './schemas.js';
import { summarizeCrawl, summarizeText } from './summary.js';
import { textPage } from './text-page.js';

export interface ExtractionDeps {
  credits: CreditsService;
  web: PageFetcher;
  ai: AiService;
}

/** What the crawler asks for each page. */
export interface PageExtractionConfig {
  extraction_schema?: Record<string, string> | undefined;
  classify_documents?: boolean | undefined;
  generate_summary?: boolean | undefined;
  /** Validated with validateClassifiers first. */
  classifiers?: readonly ClassifierConfig[] | undefined;
  intent?: string | undefined;
}

export interface PageExtraction {
  extracted_data?: Record<string, FieldValue>;
  extraction_metadata?: ExtractionMetadata;
  /** Present when classify_documents is on or a classifier needs it. */
  classification?: Classification;
  summary?: string;
  keep: boolean;
  dropped_reason: string | null;
}

const EXCERPT_CHARS = 500;
const Classified = z.strictObject({ label: z.enum(DOCUMENT_TYPES), confidence: z.number().min(0).max(1) });

/**
 * `engine.extraction`: extraction schemas, document classification, classifiers and summaries
 * for crawled pages, and the one-page preview.
 */
export class ExtractionService implements PageEnricher {
  constructor(private readonly deps: ExtractionDeps) {}

  /** `POST /v1/crawls/preview-extraction`: 1 credit, charged only when the page was fetched. */
  async preview(principal: Principal, body: unknown): Promise<ExtractionPreview> {
    requireScope(principal, 'crawl');
    const input = parseInput(PreviewExtractionBody, body);
    this.deps.web.assertRenderAvailable?.(input.render);
    const price = input.render === 'always' ? pricing.renderedRead() : pricing.extractionPreview();
    const reservation = await this.deps.credits.reserve(principal.userId, price.credits, 'extraction_preview');
    let page: FetchedPage;
    let parsed: ParsedPage;
    try {
      page = await this.deps.web.fetch({ url: input.url, ignoreRobots: true, render: input.render });
      assertUsable(page, input.url);
      parsed = toParsed(page);
    } catch (error) {
      await this.deps.credits.release(reservation.id);
      throw error;
    }
    const { extracted_data, extraction_metadata } = await this.extract({ page: parsed, html: page.body ?? '' }, input.extraction_schema);
    const credits = await this.settle(principal, reservation.id, price, page.rendering?.rendered === true);
    return {
      url: input.url,
      final_url: page.url,
      status: page.status,
      title: parsed.title,
      text_excerpt: excerpt(parsed.text),
      extracted_data,
      extraction_metadata,
      ...(page.rendering ? { rendering: page.rendering } : {}),
      credits,
    };
  }

  /** Charges the preview: its price, or the rendered price when `auto` found an application shell and rendered it. */
  private async settle(principal: Principal, reservationId: string, price: Price, rendered: boolean) {
    if (!rendered || price.credits >= pricing.renderedRead().credits) {
      await this.deps.credits.use(reservationId, price.credits);
      return this.deps.credits.commit(reservationId, rendered ? pricing.renderedRead() : price);
    }
    await this.deps.credits.release(reservationId);
    return this.deps.credits.charge(principal.userId, pricing.renderedRead(), 'extraction_preview');
  }

  /** Runs a schema over one page: the model when configured (heuristic fallback), else heuristics. */
  async extract(input: ExtractionInput, schema: Record<string, string>): Promise<{ extracted_data: Record<string, FieldValue>; extraction_metadata: ExtractionMetadata }> {
    const heuristic = extractHeuristic(input, schema);
    const result = await extractWithModel(this.deps.ai, input, schema, heuristic);
    const fieldsExtracted = Object.values(result.data).filter((v) => v !== null).length;
    return {
      extracted_data: result.data,
      extraction_metadata: {
        fields_extracted: fieldsExtracted,
        fields_requested: Object.keys(schema).length,
        confidence_scores: result.confidence,
        sources: result.sources,
        method: result.method,
        provider: result.provider,
        ...(result.fallbackReason ? { fallback_reason_code: result.fallbackReason } : {}),
      },
    };
  }

  /** The document type with its confidence: heuristic evidence, or the model when configured. */
  async classify(input: ExtractionInput): Promise<Classification> {
    const heuristic = classifyPage(input.page, input.html);
    if (!this.deps.ai.usesModel) return heuristic;
    const answer = await this.deps.ai.object({
      name: 'document_type',
      schema: Classified,
      system: `Classify the web page as one of: ${DOCUMENT_TYPES.join(', ')}. Give your confidence from 0 to 1.`,
      prompt: `URL: ${input.page.url}\nTitle: ${input.page.title ?? ''}\nRule-based guess: ${heuristic.label} (${heuristic.confidence})\n\n${input.page.text.slice(0, 4_000)}`,
      heuristic: () => heuristic,
    });
    return answer.value;
  }

  /** A document's summary: extractive under `heuristic`, generated by the model otherwise. */
  async summarize(page: ParsedPage): Promise<string> {
    const extractive = () => summarizeText(page.text);
    if (!this.deps.ai.usesModel || !page.text) return extractive();
    const answer = await this.deps.ai.text({
      system: 'Summarise the web page in at most three sentences, plainly, using only what it says.',
      prompt: `Title: ${page.title ?? ''}\n\n${page.text.slice(0, 8_000)}`,
      maxTokens: 200,
      heuristic: extractive,
    });
    return answer.value;
  }

  /** The crawl-level summary from documents ordered by importance (most important first). */
  async summarizeCrawl(docs: { url: string; title: string | null; summary: string }[]): Promise<string> {
    const extractive = () => summarizeCrawl(docs);
    if (!this.deps.ai.usesModel || docs.length === 0) return extractive();
    const answer = await this.deps.ai.text({
      system: 'Summarise what a set of crawled web pages says, in at most five sentences, using only the page summaries given.',
      prompt: docs.slice(0, 30).map((d) => `- ${d.title ?? d.url}: ${d.summary}`).join('\n'),
      maxTokens: 300,
      heuristic: extractive,
    });
    return answer.value;
  }

  /**
   * Everything the crawler needs for one page: extraction, classification, summary and the
   * classifiers' verdict. Never throws for a page's content; model trouble falls back.
   */
  async forPage(input: ExtractionInput, config: PageExtractionConfig): Promise<PageExtraction> {
    const out: PageExtraction = { keep: true, dropped_reason: null };
    const classifiers = config.classifiers ?? [];
    if (config.classify_documents || classifiers.some((c) => c.type === 'document_type')) out.classification = await this.classify(input);
    if (classifiers.length > 0) {
      const verdict = applyClassifiers(classifiers, input.page, out.classification ?? classifyPage(input.page, input.html), config.intent);
      out.keep = verdict.keep;
      out.dropped_reason = verdict.dropped_reason;
      if (!verdict.keep) return out;
    }
    if (config.extraction_schema) Object.assign(out, await this.extract(input, config.extraction_schema));
    if (config.generate_summary) out.summary = await this.summarize(input.page);
    return out;
  }

  /** The crawl runner's PageEnricher (enrichment.ts). */
  async enrich(request: Parameters<PageEnricher['enrich']>[0]): Promise<PageEnrichment & { keep: boolean; dropped_reason: string | null }> {
    const parsed = request.parsed ?? (request.page.body ? toParsed(request.page) : null);
    if (!parsed) return { keep: true, dropped_reason: null };
    const result = await this.forPage(
      { page: parsed, html: request.page.kind === 'html' ? (request.page.body ?? '') : '' },
      {
        extraction_schema: request.extractionSchema,
        classify_documents: request.classify,
        // Validated when the crawl was created; here a malformed one is skipped rather than failing the page.
        classifiers: (request.classifiers ?? []).flatMap((c) => {
          const parsed = ClassifierConfig.safeParse(c);
          return parsed.success ? [parsed.data] : [];
        }),
        intent: request.intent,
        generate_summary: request.summarize,
      },
    );
    return {
      ...(result.extracted_data ? { extracted_data: result.extracted_data } : {}),
      ...(result.extraction_metadata ? { extraction_metadata: result.extraction_metadata } : {}),
      ...(result.classification ? { classification: result.classification } : {}),
      ...(result.summary ? { summary: result.summary } : {}),
      keep: result.keep,
      dropped_reason: result.dropped_reason,
    };
  }

  /** `auto_generate_intent`. */
  intentFromSchema(schema: Record<string, string>): string {
    return intentFromSchema(schema);
  }

  /** For crawl validation: 400 on an unknown classifier type, listing the valid ones. */
  validateClassifiers(classifiers: readonly ClassifierInput[] | undefined, crawl: { intent?: string | undefined } = {}): ClassifierConfig[] {
    return validateClassifiers(classifiers, crawl);
  }
}

/** HTML is parsed as is; text and PDF text become paragraphs so the same extraction applies. */
function toParsed(page: FetchedPage): ParsedPage {
  const body = page.body ?? '';
  if (page.kind === 'html' || page.kind === 'xml') return parseHtml(body, page.url);
  return textPage(body, page.url).page;
}

function excerpt(text: string): string {
  if (text.length <= EXCERPT_CHARS) return text;
  const cut = text.slice(0, EXCERPT_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), EXCERPT_CHARS - 40))}…`;
}
