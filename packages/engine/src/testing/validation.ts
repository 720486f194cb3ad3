import { expect } from 'vitest';
import type { z } from 'zod';
import { WvrError } from '../core/errors.js';
import { parseInput, type FieldProblem } from '../core/validate.js';

/** Asserts that the input is refused with 400, this code, and (when given) this failing path. */
export function expectRejected(schema: z.ZodType, input: unknown, code: string, path?: string): void {
  let error: unknown;
  try {
    parseInput(schema, input);
  } catch (e) {
    error = e;
  }
  expect(error, `expected ${code}`).toBeInstanceOf(WvrError);
  const e = error as WvrError;
  expect(e.status).toBe(400);
  const fields = (e.details?.fields ?? []) as FieldProblem[];
  expect(fields.map((f) => f.code), JSON.stringify(fields)).toContain(code);
  if (path !== undefined) expect(fields.find((f) => f.code === code)?.path).toBe(path);
  expect(e.toBody()).toMatchObject({ error: 'validation_error', message: expect.any(String), code: expect.any(String) });
}

export type RejectionCase = [label: string, input: unknown, code: string, path?: string];
