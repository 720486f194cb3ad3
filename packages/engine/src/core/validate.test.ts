import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_NESTING, parseInput } from './validate.js';
import { expectRejected } from '../testing/validation.js';

const Body = z.object({ name: z.string(), metadata: z.record(z.string(), z.unknown()).optional() });
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
  it('accepts nesting up to the limit', () => {
    const metadata = { x: nested(MAX_NESTING - 3) };
    expect(parseInput(Body, { name: 'n', metadata })).toEqual({ name: 'n', metadata });
  });
});
