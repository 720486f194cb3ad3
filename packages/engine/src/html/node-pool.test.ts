import { describe, expect, it } from 'vitest';
import { parseDocument } from './dom.js';
import { NodePool } from './node-pool.js';
import { parseHtml, parseHtmlWith, takeTree } from './parse.js';
import { isElement, nextNode, type HTMLElement, type Node } from './tree.js';

const nodesOf = (root: HTMLElement): Node[] => {
  const out: Node[] = [];
  for (let node = root.firstChild; node !== null; node = nextNode(node, root)) out.push(node);
  return out;
};

const prose = (topic: string) =>
  `<p>A paragraph about ${topic}, long enough to be read as prose: it has words, commas, and a full stop at its end.</p>`;

describe('NodePool', () => {
  it('reads every page as parseHtml does, each tree built of the last one nodes', () => {
    const pages = [
      // A form that wraps the page (it holds the h1) is read as content...
      `<body><form><h1>Wrapped &amp; kept</h1>${prose('the wrapped page')}</form></body>`,
      // ...and at the next reading the same element object is a sign-in form, left out.
      `<body><form><h2>Sign in</h2><p>Sign in with your account name and password here.</p></form><article><h1>Article</h1>${prose('the article')}${prose('its second part')}</article></body>`,
      `<html lang="fr"><head><title>Liens</title><base href="/docs/"></head><body><nav><a href="a.html">A</a> <a href="b.html">B</a></nav><main>${prose('links')}<a href="c.html" rel="next">Next</a></main></body></html>`,
      `${'<div>'.repeat(5000)}deep text here${'</div>'.repeat(5000)}`,
      `<body><pre><span class="k">import</span> os &lt;3</pre>${prose('code')}<table><tr><td>1</td><td>2</td></tr></table></body>`,
    ];
    const nodes = new NodePool();
    for (const round of [1, 2]) {
      for (const [i, html] of pages.entries()) {
        const url = `https://site.example/${round}/${i}.html`;
        const read = parseHtmlWith(nodes, html, url);
        expect(read).toEqual(parseHtml(html, url));
        // No tree goes with such a page: its nodes are the next reading's.
        expect(takeTree(read, html)).toBeNull();
      }
    }
    const signIn = parseHtmlWith(nodes, pages[1]!, 'https://site.example/sign-in.html');
    expect(signIn.text).toContain('the article');
    expect(signIn.text).not.toContain('Sign in with');
  });

  it('lets go of the page at each release, and keeps at most `keep` nodes of each kind', () => {
    const nodes = new NodePool();
    const first = nodesOf(parseDocument('<div class="a"><p>one</p><p>two</p><p>three</p></div>', nodes));
    const elements = first.filter(isElement);
    expect(elements.map((el) => el.name)).toEqual(['div', 'p', 'p', 'p']);
    nodes.release(2);
    // What a caller still holds of the last tree holds nothing of its page.
    for (const node of first) {
      expect(node.parentNode).toBeNull();
      expect(node.nextSibling).toBeNull();
      if (isElement(node)) expect([node.rawAttrs, node.firstChild]).toEqual(['', null]);
      else expect([node.rawText, node.text]).toEqual(['', '']);
    }
    const second = nodesOf(parseDocument('<ul><li>a</li><li>b</li><li>c</li></ul>', nodes)).filter(isElement);
    expect(second.map((el) => [el.name, el.index])).toEqual([['ul', 1], ['li', 2], ['li', 3], ['li', 4]]);
    // The two kept are the first two taken again; the others are new.
    expect(second[0]).toBe(elements[0]);
    expect(second[1]).toBe(elements[1]);
    expect(elements).not.toContain(second[2]);
    expect(elements).not.toContain(second[3]);
  });
});
