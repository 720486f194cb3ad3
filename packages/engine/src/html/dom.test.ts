import { describe, expect, it } from 'vitest';
import { collapse, headingLevel, leadingText, parseDocument, textOf } from './dom.js';

describe('leadingText', () => {
  it('reads a leading text sample equal to the start of the whole text, without reading all of it', () => {
    const body = `<body>${Array.from({ length: 3000 }, (_, i) => `<p> word${i}  &amp; <b>more</b>\n</p>`).join('')}</body>`;
    const root = parseDocument(body);
    expect(leadingText(root, 5000)).toBe(textOf(root).slice(0, 5000));
    expect(leadingText(parseDocument('<p> short <br>text </p>'), 5000)).toBe('short text');
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
