import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collapse, leadingText, parseDocument, textOf } from './dom.js';
import { TextMeasure } from './text-stats.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** What the stats stand for, computed the slow way: each element's own text. */
function expected(el: ReturnType<typeof parseDocument>) {
  const text = collapse(el.text);
  const linked = el.querySelectorAll('a').reduce((sum, a) => sum + collapse(a.text).length, 0);
  return { length: text.length, commas: text.match(/,/g)?.length ?? 0, linked };
}

describe('TextMeasure', () => {
  const tricky = [
    '<div> <p>a, b</p>  <p> c </p><a href="/x">  link,  text </a>x<br>y</div>',
    '<div><span> </span><span>lead</span><b></b><i> </i>tail <a href="#"><a href="#">nested</a></a>&nbsp;&amp;,</div>',
    '<section>\n\n<div></div>\t<pre>  code\n  more </pre><table><tr><td>one, two</td><td><a href="/">three</a></td></tr></table></section>',
  ];

  it('gives every element the length, commas and link text of collapse(el.text)', () => {
    const pages = [...tricky, ...readdirSync(fixtures).filter((f) => f.endsWith('.html')).map((f) => readFileSync(join(fixtures, f), 'utf8'))];
    for (const html of pages) {
      const root = parseDocument(html);
      const measure = new TextMeasure();
      for (const el of root.querySelectorAll('*')) {
        const { length, commas, linked } = measure.of(el);
        expect({ length, commas, linked }).toEqual(expected(el));
      }
    }
  });

  it('reads a leading text sample equal to the start of the whole text, without reading all of it', () => {
    const body = `<body>${Array.from({ length: 3000 }, (_, i) => `<p> word${i}  &amp; <b>more</b>\n</p>`).join('')}</body>`;
    const root = parseDocument(body);
    expect(leadingText(root, 5000)).toBe(textOf(root).slice(0, 5000));
    expect(leadingText(parseDocument('<p> short <br>text </p>'), 5000)).toBe('short text');
  });
});
