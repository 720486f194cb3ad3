/**
 * Makes a build's JavaScript plain ASCII. V8 keeps a script's source as one byte a character only when every
 * character fits in Latin-1; one "€" or "—" anywhere in a chunk and the whole chunk is held and scanned as UTF-16,
 * twice the memory, which on the machines these builds were measured on is first touched at 16 µs a 4 KB page
 * (docs/benchmarks.md). esbuild already writes strings, templates and names in ASCII; what it leaves are the
 * characters in regular expression literals and in the comments it keeps. Those are written as `\u` escapes, which
 * a regular expression reads as the same characters (a pair of surrogate escapes is one code point under the `u`
 * and `v` flags, two code units without them, as the character itself was) and a comment does not read at all.
 * Anywhere else (a `String.raw` template) the build fails rather than change what the code does.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'acorn';

/** Rewrites every `.js` file in `dir` that holds a character past ASCII; returns the files rewritten. */
export function asciiOutput(dir: string): string[] {
  const rewritten: string[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.js')) continue;
    const path = join(dir, name);
    const code = readFileSync(path, 'utf8');
    const ascii = toAscii(code, path);
    if (ascii === code) continue;
    writeFileSync(path, ascii);
    rewritten.push(path);
  }
  return rewritten;
}

/** The same module with its regular expressions' and comments' non-ASCII characters escaped (see above). */
export function toAscii(code: string, file: string): string {
  if (!/[^\x00-\x7f]/.test(code)) return code;
  // Where escapes may go: [start, end) of each regular expression literal and comment, in source order.
  const escapable: [number, number][] = [];
  parse(code, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    allowHashBang: true,
    onToken: (token) => {
      if (token.type.label === 'regexp') escapable.push([token.start, token.end]);
    },
    onComment: (_block, _text, start, end) => {
      escapable.push([start, end]);
    },
  });
  escapable.sort((a, b) => a[0] - b[0]);
  let out = '';
  let copied = 0;
  let range = 0;
  for (let i = 0; i < code.length; i++) {
    const unit = code.charCodeAt(i);
    if (unit < 0x80) continue;
    while (range < escapable.length && escapable[range]![1] <= i) range++;
    const inside = range < escapable.length && escapable[range]![0] <= i;
    if (!inside) {
      const line = code.slice(0, i).split('\n').length;
      throw new Error(`${file}:${line}: "${code[i]}" is outside a regular expression or comment, where a \\u escape could change what the code does`);
    }
    // A character escaped as itself (`/\é/`, an identity escape, only without the `u` flag) loses its backslash: a
    // `\u` escape after it would read as a backslash and the letter u.
    let backslashes = 0;
    while (code.charCodeAt(i - backslashes - 1) === 0x5c) backslashes++;
    const from = backslashes % 2 === 1 ? i - 1 : i;
    // UTF-16 units one by one: a character past U+FFFF is its surrogate pair, both escaped.
    out += `${code.slice(copied, from)}\\u${unit.toString(16).padStart(4, '0')}`;
    copied = i + 1;
  }
  return out + code.slice(copied);
}
