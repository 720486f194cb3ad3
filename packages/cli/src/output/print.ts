import { CliError } from './errors.js';
import { terminalJson, terminalText } from './terminal-text.js';
import { cliSuggestions } from './cli-words.js';

export interface Output {
  json: boolean;
  out: (text: string) => void;
  /** A piece of a long stdout document; resolves once stdout can take more, so a large output is never held in memory. */
  write: (chunk: string) => Promise<void>;
  err: (text: string) => void;
}

/** Whatever is written goes through `terminalText` (or `terminalJson` with --json): it may carry text from the web. */
export const consoleOutput = (json: boolean): Output => {
  const safe = json ? terminalJson : terminalText;
  return {
    json,
    out: (text) => process.stdout.write(`${safe(text)}\n`),
    write: (chunk) => new Promise((resolve) => (process.stdout.write(safe(chunk)) ? resolve() : process.stdout.once('drain', resolve))),
    err: (text) => process.stderr.write(`${safe(text)}\n`),
  };
};

/** With --json, exactly one JSON document on stdout; otherwise the human rendering. */
export function emit<T>(output: Output, value: T, human: (value: T) => string): void {
  output.out(output.json ? JSON.stringify(value, null, 2) : human(value));
}

export interface TableOptions {
  /** Fit every line in this many characters; default: the terminal's width when stdout is one, else no limit. */
  width?: number | undefined;
}

/**
 * Pads columns to line up. When the table is wider than `width`, the widest text columns (those
 * with spaces or slashes: titles, URLs, sentences) are shortened with an ellipsis, never below
 * MIN_TEXT_WIDTH, so ids, numbers and times stay whole. Without a width (piped output) every value
 * is printed in full.
 */
export function table(rows: Record<string, unknown>[], columns: string[], { width = terminalWidth() }: TableOptions = {}): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((row) => columns.map((c) => formatCell(row[c])));
  const natural = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const widths = width === undefined ? natural : fitWidths(natural, columns, cells, width);
  const line = (values: string[]) => values.map((v, i) => ellipsize(v, widths[i]!).padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n');
}

const MIN_TEXT_WIDTH = 12;

function fitWidths(natural: number[], columns: string[], cells: string[][], width: number): number[] {
  const widths = [...natural];
  const floors = columns.map((c, i) => (cells.some((r) => /[\s/]/.test(r[i]!)) ? Math.max(c.length, MIN_TEXT_WIDTH) : Infinity));
  let excess = widths.reduce((a, b) => a + b, 0) + 2 * (columns.length - 1) - width;
  while (excess > 0) {
    let widest = -1;
    for (const [i, w] of widths.entries()) if (w > floors[i]! && (widest < 0 || w > widths[widest]!)) widest = i;
    if (widest < 0) break;
    widths[widest] = widths[widest]! - 1;
    excess -= 1;
  }
  return widths;
}

export const ellipsize = (value: string, width: number): string => (value.length > width ? `${value.slice(0, width - 1)}…` : value);

/** What a dry run tells about the balance: "balance 40", or "balance 4 — not enough" when it would not cover the cost. */
/** The local plan counts usage down from 0 and is never refused: a balance below 0 is what was used. */
export const balanceText = (balance: number): string => (balance < 0 ? `${-balance} used on the local plan` : `balance ${balance}`);
export const balanceNote = (balance: number, covered: boolean): string => `${balanceText(balance)}${covered ? '' : ' — not enough'}`;

/** The terminal's width when stdout is one; scripts reading a pipe get full values. */
export const terminalWidth = (): number | undefined => (process.stdout.isTTY ? process.stdout.columns : undefined);

const formatCell = (value: unknown): string =>
  value === null || value === undefined ? '-' : Array.isArray(value) ? value.join(',') : String(value);

/** Prints any failure the way a person or a script can act on, and returns the exit code. */
export function reportError(output: Output, error: unknown): number {
  const body = errorBody(error);
  const suggestions = cliSuggestions(body.body.code, body.body.suggestions);
  if (suggestions?.length) body.body.suggestions = suggestions;
  if (output.json) {
    output.err(JSON.stringify(body.body));
  } else {
    output.err(`error: ${body.body.message}${body.body.code ? ` (${body.body.code})` : ''}`);
    for (const s of body.body.suggestions ?? []) output.err(`  - ${s}`);
  }
  return body.exitCode;
}

function errorBody(error: unknown): { exitCode: number; body: { error: string; message: string; code?: string; suggestions?: string[]; details?: unknown } } {
  // Matched by name, not instanceof, so that reporting an error never loads the engine or the SDK.
  if (isNamed<EngineError>(error, 'WvrError')) return { exitCode: 1, body: error.toBody() };
  if (isNamed<ApiError>(error, 'WvrApiError')) {
    return {
      exitCode: 1,
      body: { error: error.error, message: error.message, code: error.code, suggestions: error.suggestions, details: error.details },
    };
  }
  if (error instanceof CliError) {
    return { exitCode: error.exitCode, body: { error: error.type, message: error.message, code: error.code, suggestions: error.suggestions } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: 1, body: { error: 'internal_error', message } };
}

type ErrorBody = { error: string; message: string; code?: string; suggestions?: string[]; details?: unknown };
interface EngineError extends Error {
  toBody(): ErrorBody;
}
interface ApiError extends Error {
  error: string;
  code: string | undefined;
  suggestions: string[];
  details: Record<string, unknown> | undefined;
}

const isNamed = <T extends Error>(error: unknown, name: string): error is T => error instanceof Error && error.name === name;
