import type { Request } from '../transport.js';
import type { Schemas } from './types.js';

export const extractionResource = (request: Request) => ({
  /** Try an extraction schema on one URL: `POST /v1/crawls/preview-extraction`, 1 credit. */
  preview: (body: Schemas['PreviewExtractionRequest']) =>
    request<Schemas['ExtractionPreview']>('POST', '/v1/crawls/preview-extraction', { body }),
});
