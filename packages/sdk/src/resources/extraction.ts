import type { Request } from '../transport.js';
import { operationCaller, type Body, type Output } from './types.js';

/**
 * A validator the caller already has, such as a zod object: its fields (each `.describe(...)`d
 * with an instruction) become the extraction schema, and its `parse` types and checks the answer.
 */
export interface ExtractionModel<T> {
  shape: Record<string, { description?: string | undefined }>;
  parse(data: unknown): T;
}

export type ExtractionPreview = Output<'previewExtraction'>;
export type TypedExtractionPreview<T> = Omit<ExtractionPreview, 'extracted_data'> & { extracted_data: T };

/** `{ price: z.number().describe('the product price') }` → `{ price: 'the product price' }`. */
export function extractionSchemaOf(model: ExtractionModel<unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(model.shape).map(([field, value]) => {
      if (!value.description) throw new TypeError(`Field ${field} needs .describe('what to extract') to be an extraction instruction.`);
      return [field, value.description];
    }),
  );
}

export const extractionResource = (request: Request) => {
  const call = operationCaller(request);
  const preview = (body: Body<'previewExtraction'>) => call('previewExtraction', { body });
  return {
    /** Try an extraction schema on one URL: `POST /v1/crawls/preview-extraction`. `extracted_data` is untyped. */
    preview,
    /**
     * Extract from one URL with a zod (or like) object: `extracted_data` comes back as the model's type,
     * checked with its `parse` (a field the page lacks is null, so mark such fields `.nullable()`).
     */
    extract: async <T>(url: string, model: ExtractionModel<T>): Promise<TypedExtractionPreview<T>> => {
      const answer = await preview({ url, extraction_schema: extractionSchemaOf(model) });
      return { ...answer, extracted_data: model.parse(answer.extracted_data) };
    },
  };
};
