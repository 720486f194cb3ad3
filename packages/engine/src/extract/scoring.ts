import type { FieldValue } from './coerce.js';

/** Field-level agreement between an extraction and the known truth, for tests and benchmarks. */
export interface FieldScore {
  truePositives: number;
  /** Fields that got a value: the precision denominator. */
  predicted: number;
  /** Fields whose truth has a value: the recall denominator. */
  expected: number;
  misses: { field: string; expected: unknown; got: unknown }[];
}

export const emptyScore = (): FieldScore => ({ truePositives: 0, predicted: 0, expected: 0, misses: [] });

export function scoreFields(got: Record<string, FieldValue>, truth: Record<string, unknown>, into: FieldScore = emptyScore(), label = ''): FieldScore {
  for (const [field, expected] of Object.entries(truth)) {
    const value = got[field] ?? null;
    const hasTruth = expected !== null && expected !== undefined;
    if (value !== null) into.predicted += 1;
    if (hasTruth) into.expected += 1;
    if (value !== null && hasTruth && agrees(value, expected)) into.truePositives += 1;
    else if (value !== null || hasTruth) into.misses.push({ field: label ? `${label}.${field}` : field, expected, got: value });
  }
  return into;
}

export const precision = (s: FieldScore) => (s.predicted === 0 ? 1 : s.truePositives / s.predicted);
export const recall = (s: FieldScore) => (s.expected === 0 ? 1 : s.truePositives / s.expected);

const norm = (v: unknown) => String(v).toLowerCase().replace(/\s+/g, ' ').trim();

function agrees(value: FieldValue, expected: unknown): boolean {
  if (typeof expected === 'number') return typeof value === 'number' && Math.abs(value - expected) <= Math.max(0.011, Math.abs(expected) * 0.001);
  if (typeof expected === 'boolean') return value === expected;
  if (Array.isArray(expected)) {
    const got = (Array.isArray(value) ? value : [value]).map(norm);
    const hits = expected.filter((e) => got.includes(norm(e))).length;
    return hits >= Math.ceil(expected.length * 0.8) && got.length <= expected.length * 2;
  }
  const e = norm(expected);
  const g = norm(Array.isArray(value) ? value.join(', ') : value);
  if (/^\d{4}-\d{2}-\d{2}/.test(e)) return g.slice(0, 10) === e.slice(0, 10);
  // Long text (descriptions) counts when one contains the other.
  if (e.length > 40) return g.includes(e.slice(0, 40)) || (e.includes(g) && g.length >= e.length * 0.6);
  return g === e;
}
