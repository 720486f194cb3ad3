import { z } from 'zod';
import { HttpUrl } from '../core/schemas.js';

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
  .strictObject({ url: HttpUrl.describe('The page to try the schema on'), extraction_schema: ExtractionSchema })
  .meta({ id: 'PreviewExtractionRequest' });
