import { ExtractionPreviewSchema, PreviewExtractionBody } from '@wvr/engine';
import { defineRoute } from '../route.js';

export const extractionRoutes = [
  defineRoute({
    operationId: 'previewExtraction',
    method: 'POST',
    path: '/crawls/preview-extraction',
    auth: 'crawl',
    tag: 'crawls',
    summary: 'Try an extraction schema on one URL (1 credit)',
    description:
      'Fetches the page, runs the schema and returns extracted_data, extraction_metadata, the title and a text excerpt. ' +
      'Charged only when the page was fetched; a fetch failure answers 502 with nothing charged.',
    body: PreviewExtractionBody,
    response: ExtractionPreviewSchema,
    handler: ({ engine, principal, body }) => engine.extraction.preview(principal, body),
  }),
];
