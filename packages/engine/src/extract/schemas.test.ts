import { describe, expect, it } from 'vitest';
import { parseInput } from '../core/validate.js';
import { expectRejected } from '../testing/validation.js';
import { ExtractionSchema, PreviewExtractionBody } from './schemas.js';

describe('extraction schema', () => {
  it('accepts field names with letters, digits and underscores and instructions of 10 characters', () => {
    expect(parseInput(ExtractionSchema, { _price2: 'the price now' })).toEqual({ _price2: 'the price now' });
  });
  it('names the offending key in details', () => {
    expectRejected(ExtractionSchema, { 'unit-price': 'the price per unit' }, 'extraction_schema_invalid_key', 'unit-price');
    expectRejected(ExtractionSchema, { price: 'cost' }, 'extraction_instruction_too_short', 'price');
    expectRejected(ExtractionSchema, {}, 'extraction_schema_empty');
  });
  it('refuses a preview of a non-http URL', () => {
    expectRejected(PreviewExtractionBody, { url: 'file:///etc/passwd', extraction_schema: { a: 'the main title' } }, 'url_invalid_format', 'url');
  });
});
