import { creditsText, pricing } from '../credits/pricing.js';
import { defineOperation } from '../accounts/operation.js';
import { ExtractionPreviewSchema, PreviewExtractionBody } from './schemas.js';
import type { ExtractionService } from './service.js';

type Services = { extraction: ExtractionService };

export const extractionOperations = {
  preview: defineOperation({
    scope: 'crawl',
    tag: 'crawls',
    id: 'previewExtraction',
    summary: `Try an extraction schema on one URL (${creditsText(pricing.extractionPreview().credits)})`,
    description:
      'Fetches the page, runs the schema and returns extracted_data, extraction_metadata, the title and a text excerpt. ' +
      'Charged only when the page was fetched; a fetch failure answers 502 with nothing charged. ' +
      `A page rendered in headless Chromium (render, a wvr extension) costs ${creditsText(pricing.renderedRead().credits)}, the advanced tier.`,
    body: PreviewExtractionBody,
    output: ExtractionPreviewSchema,
    run: (s: Services, principal, { body }) => s.extraction.preview(principal, body),
  }),
};
