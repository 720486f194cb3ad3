import { z } from 'zod';
import type { AiService } from '../ai/index.js';
import type { FallbackReason } from '../ai/index.js';
import { coerce, type FieldValue } from './coerce.js';
import { planField } from './field.js';
import type { ExtractionInput, HeuristicExtraction } from './heuristic.js';

export interface ModelExtraction {
  data: Record<string, FieldValue>;
  confidence: Record<string, number>;
  sources: Record<string, string | null>;
  method: 'heuristic' | 'llm';
  provider: string;
  fallbackReason?: FallbackReason;
}

const FieldValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);
const MAX_TEXT = 12_000;

/**
 * Asks the configured model for the fields, with the heuristic's findings as hints, and coerces
 * its answers to the types the instructions imply. Under `heuristic`, or when the model fails,
 * the heuristic's answer stands.
 */
export async function extractWithModel(ai: AiService, input: ExtractionInput, schema: Record<string, string>, heuristic: HeuristicExtraction): Promise<ModelExtraction> {
  const keys = Object.keys(schema);
  const heuristicAnswer = (): ModelExtraction => ({
    data: heuristic.data,
    confidence: Object.fromEntries(keys.map((k) => [k, heuristic.fields[k]!.confidence])),
    sources: Object.fromEntries(keys.map((k) => [k, heuristic.fields[k]!.source])),
    method: 'heuristic',
    provider: 'heuristic',
  });
  if (!ai.usesModel) return heuristicAnswer();

  const answer = await ai.object({
    name: 'extracted_data',
    schema: z.strictObject(Object.fromEntries(keys.map((k) => [k, FieldValue]))),
    system:
      'You extract structured data from one web page. Answer every field from the page only; use null when the page does not state it. ' +
      'Numbers as numbers without currency symbols, dates as ISO 8601, yes/no questions as booleans, lists as arrays of strings.',
    prompt: promptFor(input, schema, heuristic),
    heuristic: () => heuristic.data,
  });
  if (answer.source !== 'llm') return { ...heuristicAnswer(), provider: answer.provider, ...(answer.fallbackReason ? { fallbackReason: answer.fallbackReason } : {}) };

  const data: Record<string, FieldValue> = {};
  const confidence: Record<string, number> = {};
  const sources: Record<string, string | null> = {};
  for (const key of keys) {
    const value = coerce(answer.value[key], planField(key, schema[key]!).type);
    const found = heuristic.fields[key]!;
    data[key] = value;
    sources[key] = value === null ? null : 'llm';
    // Agreement with structured data is the best evidence a model answer is right.
    confidence[key] = value === null ? 0 : JSON.stringify(value) === JSON.stringify(found.value) ? Math.max(0.95, found.confidence) : found.value === null ? 0.8 : 0.75;
  }
  return { data, confidence, sources, method: 'llm', provider: answer.provider };
}

function promptFor(input: ExtractionInput, schema: Record<string, string>, heuristic: HeuristicExtraction): string {
  const { page } = input;
  const structured = JSON.stringify({ jsonLd: page.jsonLd, openGraph: page.openGraph }).slice(0, 4_000);
  return [
    `URL: ${page.url}`,
    `Title: ${page.title ?? ''}`,
    `Fields (name: instruction):\n${Object.entries(schema).map(([k, v]) => `- ${k}: ${v}`).join('\n')}`,
    `Values a rule-based reader found (may be wrong or missing): ${JSON.stringify(heuristic.data)}`,
    `Structured data on the page: ${structured}`,
    `Page text:\n${page.text.slice(0, MAX_TEXT)}`,
  ].join('\n\n');
}
