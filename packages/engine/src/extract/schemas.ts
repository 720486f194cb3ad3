import { z } from 'zod';
import { HttpUrl } from '../core/schemas.js';
import { CreditsInfoSchema } from '../credits/schemas.js';
import { RenderInfoSchema, renderField } from '../web/render/schema.js';

const FIELD_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
export const MAX_SCHEMA_FIELDS = 20;
export const MIN_INSTRUCTION_LENGTH = 10;

/** Field name to a plain-language instruction saying what to extract. */
export const ExtractionSchema = z
  .record(z.string(), z.string())
  .superRefine((schema, ctx) => {
    const keys = Object.keys(schema);
    if (keys.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'must have at least one field', path: [], params: { code: 'extraction_schema_empty' } });
    }
    if (keys.length > MAX_SCHEMA_FIELDS) {
      ctx.addIssue({
        code: 'custom',
        message: `must have at most ${MAX_SCHEMA_FIELDS} fields (has ${keys.length})`,
        path: [],
        params: { code: 'extraction_schema_too_many_fields' },
      });
    }
    for (const key of keys) {
      if (!FIELD_NAME.test(key)) {
        ctx.addIssue({
          code: 'custom',
          message: 'is not a valid field name (letters, digits and _; not starting with a digit)',
          path: [key],
          params: { code: 'extraction_schema_invalid_key' },
        });
      }
      if (schema[key]!.trim().length < MIN_INSTRUCTION_LENGTH) {
        ctx.addIssue({
          code: 'custom',
          message: `needs an instruction of at least ${MIN_INSTRUCTION_LENGTH} characters`,
          path: [key],
          params: { code: 'extraction_instruction_too_short' },
        });
      }
    }
  })
  .describe('Field name ([a-zA-Z_][a-zA-Z0-9_]*) to an instruction of at least 10 characters; at most 20 fields')
  .meta({ id: 'ExtractionSchema' });

export const PreviewExtractionBody = z
  .strictObject({ url: HttpUrl.describe('The page to try the schema on'), extraction_schema: ExtractionSchema, render: renderField() })
  .meta({ id: 'PreviewExtractionRequest' });

const FieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);

export const ExtractionMetadataSchema = z
  .object({
    fields_extracted: z.number().int().describe('Fields that got a value'),
    fields_requested: z.number().int(),
    confidence_scores: z.record(z.string(), z.number().min(0).max(1)).describe('Per field, 0 when nothing was found'),
    sources: z.record(z.string(), z.string().nullable()).describe('Per field: json_ld, microdata, rdfa, meta, dom_label, dom_selector, text_pattern, text_sentence or llm'),
    method: z.enum(['heuristic', 'llm']),
    provider: z.string(),
    fallback_reason_code: z.enum(['timeout', 'parse_error', 'provider_error', 'rate_limited']).optional().describe('Why the model was not used, when one is configured'),
  })
  .meta({ id: 'ExtractionMetadata' });

export const ExtractionPreviewSchema = z
  .object({
    url: z.string().describe('The URL asked for'),
    final_url: z.string().describe('Where redirects ended'),
    status: z.number().int().describe('HTTP status of the page'),
    title: z.string().nullable(),
    text_excerpt: z.string().describe('The start of the main text, up to 500 characters'),
    extracted_data: z.record(z.string(), FieldValueSchema),
    extraction_metadata: ExtractionMetadataSchema,
    rendering: RenderInfoSchema.optional().describe('Present when the page was HTML and render was not never: whether it was rendered, and why'),
    credits: CreditsInfoSchema,
  })
  .meta({ id: 'ExtractionPreview' });
export type ExtractionPreview = z.infer<typeof ExtractionPreviewSchema>;
export type ExtractionMetadata = z.infer<typeof ExtractionMetadataSchema>;
