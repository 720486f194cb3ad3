import type { z } from 'zod';
import { errors } from './errors.js';

export interface FieldProblem {
  path: string;
  code: string;
  message: string;
}

/**
 * Parse untrusted input against a schema. Every rule failure becomes a stable,
 * machine-readable code: an explicit `params.code` on the check wins, otherwise the
 * code is derived from the field name and the kind of rule (see docs/errors.md).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'request body'): z.output<S> {
  const refusal = firstRefusal(input);
  if (refusal) {
    const path = refusal.path.join('.');
    return failWith([{ path, code: refusal.code, message: refusal.message }], `Invalid ${what}: ${path || 'body'} ${refusal.message}.`, refusal.code);
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => describeIssue(issue, input));
  const [first] = problems;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  return failWith(problems, `Invalid ${what}: ${first?.path || 'body'} ${first?.message ?? 'is invalid'}${more}.`, first?.code);
}

/**
 * Free-form fields (metadata, configs) are stored as JSON; nesting past this overflows the
 * stack while serializing, and no real request comes close to it.
 */
export const MAX_NESTING = 32;

// With the u flag a surrogate class matches only unpaired halves; JSON.parse lets "\ud800" through,
// and SQLite would store it as U+FFFD, silently changing what the caller sent.
const LONE_SURROGATE = /\p{Surrogate}/u;

interface Refusal {
  path: (string | number)[];
  code: 'body_too_deep' | 'string_invalid_unicode';
  message: string;
}

/**
 * One walk over the input for what no schema can express: nesting past `MAX_NESTING` and strings
 * (values or keys) that are not valid Unicode. Returns the first found; stops descending there.
 */
function firstRefusal(value: unknown, path: (string | number)[] = []): Refusal | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? invalidUnicode(path) : null;
  if (value === null || typeof value !== 'object') return null;
  if (path.length >= MAX_NESTING) return { path, code: 'body_too_deep', message: `nests deeper than ${MAX_NESTING} levels` };
  for (const [key, child] of Object.entries(value)) {
    if (LONE_SURROGATE.test(key)) return invalidUnicode(path, 'has a key that');
    const found = firstRefusal(child, [...path, Array.isArray(value) ? Number(key) : key]);
    if (found) return found;
  }
  return null;
}

const invalidUnicode = (path: (string | number)[], subject = ''): Refusal => ({
  path,
  code: 'string_invalid_unicode',
  message: `${subject ? `${subject} ` : ''}contains a lone UTF-16 surrogate, which is not valid Unicode`,
});

function failWith(problems: FieldProblem[], message: string, code = 'invalid_request'): never {
  throw errors.validation(code, message, {
    details: { fields: problems },
    suggestions: [
      ...problems.slice(0, 5).map((p) => `Fix ${p.path || 'the body'}: it ${p.message}.`),
      'The full request schema is in GET /v1/openapi.json.',
    ],
  });
}

type Issue = z.core.$ZodIssue;

function describeIssue(issue: Issue, input: unknown): FieldProblem {
  const path = issue.path.map(String).join('.');
  const field = [...issue.path].reverse().find((p): p is string => typeof p === 'string') ?? 'body';
  const explicit = (issue as { params?: { code?: unknown } }).params?.code;
  const { code, message } = classify(issue, field, input);
  return { path, code: typeof explicit === 'string' ? explicit : code, message };
}

function classify(issue: Issue, field: string, input: unknown): { code: string; message: string } {
  switch (issue.code) {
    case 'invalid_type': {
      if (valueAt(input, issue.path) === undefined) return { code: `${field}_required`, message: 'is required' };
      return { code: `${field}_invalid_type`, message: `must be ${article(issue.expected)}` };
    }
    case 'too_big':
    case 'too_small': {
      const big = issue.code === 'too_big';
      const bound = big ? issue.maximum : issue.minimum;
      const inclusive = issue.inclusive !== false;
      if (issue.origin === 'string') {
        return {
          code: big ? `${field}_too_long` : `${field}_too_short`,
          message: `must be ${big ? 'at most' : 'at least'} ${String(bound)} character${bound === 1 ? '' : 's'}`,
        };
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return {
          code: `${field}_count_out_of_range`,
          message: `must have ${big ? 'at most' : 'at least'} ${String(bound)} item${bound === 1 ? '' : 's'}`,
        };
      }
      const cmp = big ? (inclusive ? 'at most' : 'less than') : inclusive ? 'at least' : 'greater than';
      return { code: `${field}_out_of_range`, message: `must be ${cmp} ${String(bound)}` };
    }
    case 'invalid_value':
      return {
        code: `${field}_invalid`,
        message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'invalid_format':
      return { code: `${field}_invalid_format`, message: `must be a valid ${issue.format}` };
    case 'unrecognized_keys':
      return { code: 'unknown_field', message: `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}` };
    case 'not_multiple_of':
      return { code: `${field}_invalid`, message: `must be a multiple of ${String(issue.divisor)}` };
    default:
      return { code: `${field}_invalid`, message: lowerFirst(issue.message) };
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
