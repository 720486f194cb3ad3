import { z } from 'zod';
import type { ModelProvider } from '../ai/provider.js';
import type { ResultChanges, ResultItem } from './changes.js';
import { coverage, uniqueTerms } from './lexical.js';
import type { StopCondition } from './schemas.js';

export type StopConditionInput = z.output<typeof StopCondition>;

export interface StopEvaluation {
  condition_met: boolean;
  type: StopConditionInput['type'];
  reason: string;
  /** natural_language and threshold: how sure the judge is, 0..1. */
  confidence?: number;
  judged_by?: 'llm' | 'heuristic';
  evidence_url?: string;
}

export interface StopMaterial {
  results: ResultItem[];
  changes: ResultChanges;
  /** Used by `threshold` when it carries no description of its own. */
  intent: string;
}

type Scalar = string | number | boolean;

/** field_value fields that compare an execution with the previous one. */
const CHANGE_FIELDS = new Set(['net_new_count', 'dropped_count', 'retained_count', 'change_rate']);

export async function evaluateStopCondition(
  condition: StopConditionInput,
  material: StopMaterial,
  provider: ModelProvider | undefined,
): Promise<StopEvaluation> {
  const { type } = condition;
  switch (condition.type) {
    case 'always':
    case 'none':
      return { condition_met: false, type, reason: `${type} never stops a workflow automatically` };
    case 'result_count': {
      const count = material.results.length;
      const met = compare(count, condition.operator, condition.value);
      return { condition_met: met, type, reason: `${count} results ${met ? 'satisfy' : 'do not satisfy'} ${condition.operator} ${condition.value}` };
    }
    case 'contains_url': {
      const hit = material.results.find((r) => r.url.includes(condition.url));
      return hit
        ? { condition_met: true, type, reason: `result ${hit.url} matches ${condition.url}`, evidence_url: hit.url }
        : { condition_met: false, type, reason: `no result matches ${condition.url}` };
    }
    case 'field_value':
      // The first execution is the baseline: every result in it is new, so a change field says nothing yet.
      if (CHANGE_FIELDS.has(condition.field) && material.changes.previous_execution_id === null && !condition.evaluate_on_first_run) {
        return { condition_met: false, type, reason: `${condition.field} is not judged on the first execution, the baseline every later one is compared with (evaluate_on_first_run: false)` };
      }
    // falls through
    case 'extracted_field': {
      const candidates = fieldCandidates(condition.type, condition.field, material);
      const hit = candidates.find((c) => compare(c.value, condition.operator, condition.value));
      return hit
        ? { condition_met: true, type, reason: `${condition.field} = ${JSON.stringify(hit.value)} satisfies ${condition.operator} ${JSON.stringify(condition.value)}`, ...(hit.url ? { evidence_url: hit.url } : {}) }
        : { condition_met: false, type, reason: `no ${condition.field} value among ${candidates.length} satisfies ${condition.operator} ${JSON.stringify(condition.value)}` };
    }
    case 'natural_language':
      return judge(condition.type, condition.description, condition.confidence_threshold, material, provider);
    case 'threshold':
      return judge(condition.type, condition.description ?? material.intent, condition.confidence_threshold, material, provider);
  }
}

/**
 * field_value looks at the execution summary (result_count and the change counts) and at
 * each result's fields; extracted_field looks at each result's extracted_data (dotted paths).
 */
function fieldCandidates(kind: 'field_value' | 'extracted_field', field: string, m: StopMaterial): { value: Scalar; url?: string }[] {
  const out: { value: Scalar; url?: string }[] = [];
  if (kind === 'field_value') {
    const summary: Record<string, Scalar> = {
      result_count: m.results.length,
      net_new_count: m.changes.net_new_count,
      dropped_count: m.changes.dropped_count,
      retained_count: m.changes.retained_count,
      change_rate: m.changes.change_rate,
    };
    if (field in summary) out.push({ value: summary[field]! });
  }
  for (const r of m.results) {
    const source = kind === 'field_value' ? (r as unknown as Record<string, unknown>) : (r.extracted_data ?? {});
    const value = pick(source, field);
    if (isScalar(value)) out.push({ value, url: r.url });
    if (Array.isArray(value)) for (const v of value) if (isScalar(v)) out.push({ value: v, url: r.url });
  }
  return out;
}

function pick(source: Record<string, unknown>, path: string): unknown {
  let current: unknown = source;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

function compare(actual: Scalar, op: string, expected: Scalar): boolean {
  if (op === 'contains') return String(actual).toLowerCase().includes(String(expected).toLowerCase());
  const a = toComparable(actual, expected);
  const b = toComparable(expected, actual);
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return a > b;
    case '<':
      return a < b;
    case '>=':
      return a >= b;
    case '<=':
      return a <= b;
    default:
      return false;
  }
}

/** "19.99" compares as a number against a number; everything else as text. */
function toComparable(value: Scalar, other: Scalar): number | string {
  if (typeof other === 'number' && typeof value !== 'number') {
    const n = Number(String(value).replace(/[^0-9.+-]/g, ''));
    if (Number.isFinite(n) && String(value).trim() !== '') return n;
  }
  if (typeof value === 'boolean') return String(value);
  return typeof value === 'number' ? value : value.toLowerCase();
}

const Verdict = z.object({ met: z.boolean(), confidence: z.number().min(0).max(1), reason: z.string(), evidence_url: z.string().nullable() });

/**
 * The judge asks the model whether the results show the described event. The heuristic
 * (the offline default and the fallback) reads lexical evidence: the confidence is the best
 * share of the description's content words that one result carries.
 */
async function judge(
  type: 'natural_language' | 'threshold',
  description: string,
  threshold: number,
  m: StopMaterial,
  provider: ModelProvider | undefined,
): Promise<StopEvaluation> {
  const heuristic = () => lexicalVerdict(description, m.results);
  let verdict = heuristic();
  let judgedBy: 'llm' | 'heuristic' = 'heuristic';
  if (provider && provider.name !== 'heuristic') {
    const answer = await provider.generateObject({
      name: 'stop_condition_verdict',
      schema: Verdict,
      system: 'You decide whether web monitoring results show that a described condition has happened. Answer with a confidence between 0 and 1.',
      prompt: `Condition: ${description}\n\nResults:\n${m.results.slice(0, 20).map((r) => `- ${r.url} | ${r.title} | ${r.description}`).join('\n')}`,
      heuristic,
    });
    if (answer.ok) {
      verdict = answer.value;
      judgedBy = 'llm';
    }
  }
  const met = verdict.confidence >= threshold;
  return {
    condition_met: met,
    type,
    confidence: verdict.confidence,
    judged_by: judgedBy,
    reason: `${verdict.reason} (confidence ${verdict.confidence.toFixed(2)} ${met ? '>=' : '<'} threshold ${threshold})`,
    ...(met && verdict.evidence_url ? { evidence_url: verdict.evidence_url } : {}),
  };
}

function lexicalVerdict(description: string, results: ResultItem[]): z.output<typeof Verdict> {
  const wanted = uniqueTerms(description);
  let best = { score: 0, found: [] as string[], url: null as string | null };
  for (const r of results) {
    const c = coverage(wanted, `${r.title} ${r.description} ${r.text ?? ''}`);
    if (c.score > best.score) best = { score: c.score, found: c.found, url: r.url };
  }
  const confidence = Math.round(best.score * 100) / 100;
  return {
    met: confidence > 0,
    confidence,
    reason: best.url ? `best evidence ${best.url} carries ${best.found.length}/${wanted.length} key terms (${best.found.join(', ')})` : 'no result carries the condition’s key terms',
    evidence_url: best.url,
  };
}
