import { creditsText, pricing } from '@wvr/engine/vocabulary';
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import type { ExtractionPreview } from '@wvr/engine';
import { contextOf, withClient } from '../context.js';
import { balanceText, emit } from '../output/print.js';

/**
 * `--schema FILE|JSON`: inline JSON when the value starts with `{`, else a path to a JSON file.
 * The shape rules (keys, 20 fields, 10-character instructions) are the engine's, so its 400 says what is wrong.
 */
export function schemaArgument(value: string): Record<string, string> {
  let text = value.trim();
  if (!text.startsWith('{')) {
    try {
      text = readFileSync(value, 'utf8');
    } catch {
      throw new InvalidArgumentError(`expected inline JSON or a readable JSON file, and cannot read ${value}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidArgumentError(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string')) {
    throw new InvalidArgumentError('expected a JSON object of field name to instruction string');
  }
  return parsed as Record<string, string>;
}

export function extractCommand(): Command {
  return new Command('extract')
    .description(`try an extraction schema on one page (${creditsText(pricing.extractionPreview().credits)})`)
    .argument('<url>', 'the page to extract from')
    .requiredOption('--schema <file|json>', 'field name to instruction, as inline JSON or a JSON file', schemaArgument)
    .action(async (url: string, opts: { schema: Record<string, string> }, command: Command) => {
      const ctx = contextOf(command);
      const result = await withClient(ctx, (client) => client.extraction.preview({ url, extraction_schema: opts.schema }));
      emit(ctx.output, result as ExtractionPreview, render);
    });
}

function render(r: ExtractionPreview): string {
  const width = Math.max(...Object.keys(r.extracted_data).map((k) => k.length));
  const lines = [`${r.title ?? '(untitled)'} — ${r.final_url}`, ''];
  for (const [field, value] of Object.entries(r.extracted_data)) {
    const confidence = r.extraction_metadata.confidence_scores[field] ?? 0;
    const source = r.extraction_metadata.sources[field];
    const shown = value === null ? '—' : Array.isArray(value) ? value.join(', ') : String(value);
    lines.push(`  ${field.padEnd(width)}  ${shown}${value === null ? '' : `  (${confidence.toFixed(2)}, ${source})`}`);
  }
  const meta = r.extraction_metadata;
  const fallback = meta.fallback_reason_code ? `, model fallback: ${meta.fallback_reason_code}` : '';
  lines.push('', `${meta.fields_extracted}/${meta.fields_requested} fields · ${meta.method} (${meta.provider}${fallback}) · ${r.credits.consumed} credit, ${balanceText(r.credits.balance_after)}`);
  return lines.join('\n');
}
