import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asciiOutput, toAscii } from './ascii-output.js';

/** The value of a one-expression module, as written and as rewritten: the same code, now all ASCII. */
function both(code: string): { before: unknown; after: unknown; ascii: string } {
  const ascii = toAscii(code, 'test.js');
  expect(ascii).toMatch(/^[\x00-\x7f]*$/);
  return { before: (0, eval)(code), after: (0, eval)(ascii), ascii };
}

describe('toAscii', () => {
  it('leaves an all-ASCII module as it is', () => {
    const code = 'const a = /x+/g; // plain\nexport { a };';
    expect(toAscii(code, 'a.js')).toBe(code);
  });

  it('escapes regular expressions so that they match exactly what they matched', () => {
    const cases: [string, string[]][] = [
      ['(/^[€£¥]\\s?\\d+$/)', ['€ 12', '£3', '$4', 'x']],
      ['(/(?:руб|₽|zł)$/i)', ['10 РУБ', '5 ₽', '7 zł', '7 zl']],
      ['(/^😀+$/u)', ['😀😀', '😀', ':)']],
      ['(/^[😀-😂]$/u)', ['😁', '😃', '\ud83d']],
      ['(/^😀$/)', ['😀', '\ud83d']],
      ['(/^.$/u)', ['😀', 'é']],
      ['(/\\é/)', ['é', '\\é']],
      ['(/[\\p{Lu}"“]/u)', ['“', 'A', 'a']],
    ];
    for (const [code, inputs] of cases) {
      const { before, after } = both(code);
      for (const input of inputs) expect((after as RegExp).test(input), `${code} on ${input}`).toBe((before as RegExp).test(input));
    }
  });

  it('escapes comments, which read nothing', () => {
    const { before, after, ascii } = both('/* café — crème */ 1 + // “quoted”\n 2');
    expect(after).toBe(before);
    expect(ascii).toContain('caf\\u00e9');
  });

  it('refuses a character anywhere a \\u escape could change the code', () => {
    expect(() => toAscii('String.raw`€`', 'raw.js')).toThrow(/raw\.js:1: "€" is outside a regular expression or comment/);
    expect(() => toAscii('const s = 1;\nconst t = "é";', 'string.js')).toThrow(/string\.js:2/);
  });
});

describe('asciiOutput', () => {
  it('rewrites only the JavaScript files that need it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wvr-ascii-'));
    try {
      writeFileSync(join(dir, 'a.js'), 'export const a = /é/;\n');
      writeFileSync(join(dir, 'b.js'), 'export const b = 1;\n');
      writeFileSync(join(dir, 'c.json'), '{"c":"é"}');
      expect(asciiOutput(dir)).toEqual([join(dir, 'a.js')]);
      expect(readFileSync(join(dir, 'a.js'), 'utf8')).toBe('export const a = /\\u00e9/;\n');
      expect(readFileSync(join(dir, 'c.json'), 'utf8')).toBe('{"c":"é"}');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
