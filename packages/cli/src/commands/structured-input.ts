import { existsSync, readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { parse } from 'yaml';

/**
 * Reads a JSON or YAML document given inline or as a file path (YAML is a superset of JSON, so
 * one parser reads both). Inline text wins only when no file of that name exists.
 */
export function loadStructured(arg: string, what: string): unknown {
  const fromFile = !arg.trimStart().startsWith('{') && existsSync(arg);
  const text = fromFile ? readFileSync(arg, 'utf8') : arg;
  try {
    return parse(text);
  } catch (error) {
    const source = fromFile ? `file ${arg}` : 'inline text';
    throw new InvalidArgumentError(`${what}: ${source} is not valid JSON or YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  }
}
