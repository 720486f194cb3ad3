import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_NESTING, parseInput } from './validate.js';
import { expectRejected } from '../testing/validation.js';
import type { WvrError } from './errors.js';

const Body = z.object({ name: z.string(), metadata: z.record(z.string(), z.unknown()).optional() });
function fieldsOf(fn: () => unknown): { code: string | undefined; message: string; fields: unknown } {
  try {
    fn();
  } catch (e) {
    const error = e as WvrError;
    return { code: error.code, message: error.message, fields: error.details?.fields };
  }
  throw new Error('expected parseInput to refuse the input');
}
const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}"leaf"${']'.repeat(depth)}`);

describe('parseInput', () => {
  it('refuses free-form JSON nested past MAX_NESTING with 400 body_too_deep naming where', () => {
    expectRejected(Body, { name: 'n', metadata: { x: nested(10_000) } }, 'body_too_deep');
    let message = '';
    try {
      parseInput(Body, { name: 'n', metadata: { x: nested(MAX_NESTING) } });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^Invalid request body: metadata\.x\.0\.0/);
  });
  it('refuses a lone UTF-16 surrogate in a string with 400 string_invalid_unicode naming the path', () => {
    const input = JSON.parse('{"name":"n","metadata":{"tags":["ok","bad \\ud800 half"]}}') as unknown;
    expect(fieldsOf(() => parseInput(Body, input))).toEqual({
      code: 'string_invalid_unicode',
      message: 'Invalid request body: metadata.tags.1 contains a lone UTF-16 surrogate, which is not valid Unicode.',
      fields: [{ path: 'metadata.tags.1', code: 'string_invalid_unicode', message: 'contains a lone UTF-16 surrogate, which is not valid Unicode' }],
    });
  });
  it('refuses a lone surrogate in a key, naming the object that holds it', () => {
    const input = JSON.parse('{"name":"n","metadata":{"\\udc00":1}}') as unknown;
    expect(fieldsOf(() => parseInput(Body, input))).toMatchObject({ code: 'string_invalid_unicode', fields: [{ path: 'metadata', message: 'has a key that contains a lone UTF-16 surrogate, which is not valid Unicode' }] });
  });
  it('refuses a lone surrogate in a top-level string input, naming the body', () => {
    expect(fieldsOf(() => parseInput(z.string(), '\ud800'))).toMatchObject({ code: 'string_invalid_unicode', message: /^Invalid request body: body contains/ });
  });
  it('accepts paired surrogates (emoji) and other non-ASCII text unchanged', () => {
    const input = { name: 'café 🚀 日本', metadata: { '🔑': ['𝄞'] } };
    expect(parseInput(Body, input)).toEqual(input);
  });
  it('accepts nesting up to the limit', () => {
    const metadata = { x: nested(MAX_NESTING - 3) };
    expect(parseInput(Body, { name: 'n', metadata })).toEqual({ name: 'n', metadata });
  });
});
