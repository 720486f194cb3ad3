import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { InvalidArgumentError } from 'commander';

/** yaml is loaded on first use: every command's start paid about 20 ms for it, and only workflow options read YAML. */
const parse = (text: string): unknown => (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);

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
