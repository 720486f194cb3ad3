import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ERROR_CODES, FIELD_RULES } from './error-codes.js';

const page = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
const fieldCode = new RegExp(`^[a-z0-9_]+_(${FIELD_RULES.join('|')})$`);

/** Codes in the first column of the page's tables. */
const documented = page
  .split('\n')
  .filter((line) => line.startsWith('| `'))
  .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]!));

describe('the published error codes', () => {
  it('name every code docs/errors.md lists, and only those', () => {
    const published = new Set<string>(ERROR_CODES);
    const missing = documented.filter((code) => !published.has(code) && !fieldCode.test(code) && !/^[a-z_]+_error$|^not_found$|^conflict$/.test(code));
    expect(missing).toEqual([]);
    expect(ERROR_CODES.filter((code) => !page.includes(`\`${code}\``))).toEqual([]);
  });
});
