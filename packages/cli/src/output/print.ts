import { WvrError } from '@wvr/engine';
import { WvrApiError } from '@wvr/sdk';
import { CliError } from './errors.js';

export interface Output {
  json: boolean;
  out: (text: string) => void;
  err: (text: string) => void;
}

export const consoleOutput = (json: boolean): Output => ({
  json,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});

/** With --json, exactly one JSON document on stdout; otherwise the human rendering. */
export function emit<T>(output: Output, value: T, human: (value: T) => string): void {
  output.out(output.json ? JSON.stringify(value, null, 2) : human(value));
}

export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((row) => columns.map((c) => formatCell(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n');
}

const formatCell = (value: unknown): string =>
  value === null || value === undefined ? '-' : Array.isArray(value) ? value.join(',') : String(value);

/** Prints any failure the way a person or a script can act on, and returns the exit code. */
export function reportError(output: Output, error: unknown): number {
  const body = errorBody(error);
  if (output.json) {
    output.err(JSON.stringify(body.body));
  } else {
    output.err(`error: ${body.body.message}${body.body.code ? ` (${body.body.code})` : ''}`);
    for (const s of body.body.suggestions ?? []) output.err(`  - ${s}`);
  }
  return body.exitCode;
}

function errorBody(error: unknown): { exitCode: number; body: { error: string; message: string; code?: string; suggestions?: string[]; details?: unknown } } {
  if (error instanceof WvrError) return { exitCode: 1, body: error.toBody() };
  if (error instanceof WvrApiError) {
    return {
      exitCode: 1,
      body: { error: error.error, message: error.message, code: error.code, suggestions: error.suggestions, details: error.details },
    };
  }
  if (error instanceof CliError) {
    return { exitCode: error.exitCode, body: { error: 'cli_error', message: error.message, code: error.code, suggestions: error.suggestions } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: 1, body: { error: 'internal_error', message } };
}
