import { z } from 'zod';
import { HttpUrl } from '../core/schemas.js';

export const EXTRACTION_FIELD_KEY = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
export const MAX_EXTRACTION_FIELDS = 20;
export const MIN_INSTRUCTION_LENGTH = 10;

/**
 * Field name -> natural-language instruction. The rules are checked by hand rather than by
 * key and length checks so that each failure carries its own code and the offending key in
 * its path; the metadata keeps them visible in the JSON Schema.
 */
export const ExtractionSchema = z
  .record(
    z.string(),
    z
      .string()
      .meta({ minLength: MIN_INSTRUCTION_LENGTH })
      .describe('What to extract for this field, at least 10 characters.'),
  )
  .superRefine((schema, ctx) => {
    const keys = Object.keys(schema);
    if (keys.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'must define at least one field',
        params: { code: 'extraction_schema_empty' },
      });
    }
    if (keys.length > MAX_EXTRACTION_FIELDS) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `must define at most ${MAX_EXTRACTION_FIELDS} fields (got ${keys.length})`,
        params: { code: 'extraction_schema_too_many_fields' },
      });
    }
    for (const key of keys.filter((k) => !EXTRACTION_FIELD_KEY.test(k))) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: 'is not a valid field name: use letters, digits and underscores, not starting with a digit',
        params: { code: 'extraction_schema_invalid_key' },
      });
    }
    for (const [key, instruction] of Object.entries(schema)) {
      if (instruction.length < MIN_INSTRUCTION_LENGTH) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `must be an instruction of at least ${MIN_INSTRUCTION_LENGTH} characters`,
          params: { code: 'extraction_instruction_too_short' },
        });
      }
    }
  })
  .meta({
    id: 'ExtractionSchema',
    description: 'Field name to extraction instruction; at most 20 fields, names match [a-zA-Z_][a-zA-Z0-9_]*.',
    propertyNames: { pattern: EXTRACTION_FIELD_KEY.source },
    minProperties: 1,
    maxProperties: MAX_EXTRACTION_FIELDS,
  });

export const PreviewExtractionBody = z
  .strictObject({
    url: HttpUrl.describe('The page to try the extraction schema on.'),
    extraction_schema: ExtractionSchema,
  })
  .meta({ id: 'PreviewExtractionRequest', description: 'Tries an extraction schema on one URL (1 credit).' });

export type ExtractionSchema = z.output<typeof ExtractionSchema>;
export type PreviewExtractionBody = z.output<typeof PreviewExtractionBody>;
