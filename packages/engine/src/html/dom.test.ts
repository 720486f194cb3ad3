import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { collapse, descendantsByTag, headingLevel, leadingText, parseDocument, textOf } from './dom.js';

describe('leadingText', () => {
  it('reads a leading text sample equal to the start of the whole text, without reading all of it', () => {
    const body = `<body>${Array.from({ length: 3000 }, (_, i) => `<p> word${i}  &amp; <b>more</b>\n</p>`).join('')}</body>`;
    const root = parseDocument(body);
    expect(leadingText(root, 5000)).toBe(textOf(root).slice(0, 5000));
    expect(leadingText(parseDocument('<p> short <br>text </p>'), 5000)).toBe('short text');
  });
});

describe('descendantsByTag', () => {
  it("finds what a selector of the same tag names finds: the element's descendants, in document order, not itself", () => {
    const root = parseDocument(
      '<table><tr><td><table><tr><td>inner</td></tr></table></td></tr><tbody><tr><th>h</th></tr></tbody></table>' +
        '<form><p><input name="q"><select><option>a</option></select></p><textarea></textarea><button>Go</button><input type="hidden"></form>',
    );
    const table = root.querySelector('table')!;
    expect(descendantsByTag(table, new Set(['tr']))).toEqual(table.querySelectorAll('tr'));
    expect(descendantsByTag(table, new Set(['tr']))).toHaveLength(3);
    expect(descendantsByTag(table, new Set(['table']))).toHaveLength(1);
    const form = root.querySelector('form')!;
    const controls = descendantsByTag(form, new Set(['input', 'select', 'textarea', 'button']));
    expect(controls.map((el) => el.name)).toEqual(['input', 'select', 'textarea', 'button', 'input']);
    expect(controls).toEqual(form.querySelectorAll('input, select, textarea, button'));
    expect(descendantsByTag(parseDocument('<p>text only</p>').querySelector('p')!, new Set(['p']))).toEqual([]);
  });

  it('leaves css-select unloaded in a process that reads pages with forms, tables and image links (a page reader starts without it)', async () => {
    // A process of its own: this test process has loaded css-select through other tests.
    const script = `
      const { parseHtml } = await import(${JSON.stringify(fileURLToPath(new URL('./parse.ts', import.meta.url)))});
      const page = parseHtml('<html><body><main><h1>Title</h1><p>' + 'Some words of prose, and more. '.repeat(20) + '</p>' +
        '<table><tr><th>a</th><td>b</td></tr></table><form><input name="q"><button>Go</button></form>' +
        '<a href="/x"><img alt="Pictured"></a><script type="application/ld+json">{"@type":"Article"}</script></main></body></html>', 'https://example.com/');
      const { createRequire } = await import('node:module');
      const loaded = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('css-select'));
      console.log(JSON.stringify({ text: page.text.length, links: page.links.map((l) => l.text), jsonLd: page.jsonLd.length, loaded }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('.', import.meta.url)) });
    const seen = JSON.parse(stdout) as { text: number; links: string[]; jsonLd: number; loaded: boolean };
    expect(seen.text).toBeGreaterThan(500);
    expect(seen.links).toEqual(['Pictured']);
    expect(seen.jsonLd).toBe(1);
    expect(seen.loaded).toBe(false);
  });
});

describe('parseDocument: code listings', () => {
  const highlighted =
    '<p>Before.</p><pre class="py"><span class="k">def</span> <span class="nf" title="a > b">tag</span><span class="p">(</span>' +
    '<a href="/api/tokens.html">tokens</a><span class="p">):</span>\n    <span class="k">return</span> <span class="s1">&#39;x &gt; y&#39;</span></pre>' +
    '<p><span class="note">After.</span></p>';

  it('drops the highlighting spans of a listing, keeping its text and links, and leaves spans elsewhere', () => {
    const root = parseDocument(highlighted);
    const pre = root.querySelector('pre')!;
    expect(pre.querySelectorAll('span')).toHaveLength(0);
    expect(pre.querySelector('a')?.getAttribute('href')).toBe('/api/tokens.html');
    expect(pre.text).toBe("def tag(tokens):\n    return 'x > y'");
    expect(root.querySelectorAll('span.note')).toHaveLength(1);
  });
});

describe('parseDocument: loose end tags', () => {
  it('ends a script at an end tag with junk before its >, and only there: a comment holding one stays a comment', () => {
    const root = parseDocument('<p>a<!-- <script src="x.js"></script --><script>s()</script\n>b</p>');
    expect(root.querySelector('script')?.rawText).toBe('s()');
    expect(textOf(root)).toBe('ab');
  });
});

describe('collapse', () => {
  it('folds each run of white space of any kind to one space and trims, as /\\s+/ and trim define it', () => {
    const pieces = ['word', 'x', ' ', '  ', '\n', '\r\n', '\t', '\u00a0', '\u2003', '\ufeff', '\u2028', ' \n '];
    const texts = ['', ' ', 'one two', ' lead', 'trail ', 'a\nb', 'a \u00a0b', '\t\ta  b\n'];
    // Every sequence of up to four pieces, so each kind of run meets each neighbour.
    for (const a of pieces) for (const b of pieces) for (const c of pieces) for (const d of pieces) texts.push(a + b + c + d);
    for (const text of texts) expect(collapse(text)).toBe(text.replace(/\s+/g, ' ').trim());
  });
});

describe('headingLevel', () => {
  it('reads h1 to h6 as their level and every other tag as 0', () => {
    expect(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map(headingLevel)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(['h0', 'h7', 'hr', 'head', 'header', 'th', 'p', ''].map(headingLevel)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
