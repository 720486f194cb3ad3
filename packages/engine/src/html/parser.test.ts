import { describe, expect, it } from 'vitest';
import { runWithNativesSyntax } from '../testing/natives.js';
import { parseTree } from './parser.js';
import { childElements, ElementMap, indexEnd, nextNode, TEXT, type HTMLElement, type Node } from './tree.js';

/** The tree as a compact string: elements as `tag[raw attributes](children)`, text quoted. */
function shape(node: Node): string {
  if (node.nodeType === TEXT) return JSON.stringify(node.rawText);
  const inner = childrenOf(node).map(shape).join(' ');
  if (node.rawTagName === null) return inner;
  return `${node.rawTagName}${node.rawAttrs ? `[${node.rawAttrs}]` : ''}(${inner})`;
}
const tree = (html: string): string => shape(parseTree(html));

/** The children by their links, each checked against the links back: its parent, and the parent's last child. */
function childrenOf(el: HTMLElement): Node[] {
  const out: Node[] = [];
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    expect(child.parentNode).toBe(el);
    out.push(child);
  }
  expect(el.lastChild).toBe(out.at(-1) ?? null);
  return out;
}

describe('parseTree', () => {
  it('reads elements, attributes and text, and keeps a `>` inside a quoted value', () => {
    expect(tree('<p class="a">one <b title="x > y">two</b></p>')).toBe('p[class="a"]("one " b[title="x > y"]("two"))');
    expect(tree("<a href='/x'>go</a>")).toBe(`a[href='/x']("go")`);
  });

  it('reads a `<` that starts no tag as text, and drops a tag the page is cut inside', () => {
    expect(tree('<p>1 < 2 and <3</p>')).toBe('p("1 < 2 and <3")');
    expect(tree('<p>text</p><li class="a')).toBe('p("text")');
  });

  it('reads a quote not followed by white space or the tag end as part of the value', () => {
    // The quote after `a ` is followed by `b`: it does not end the value, so the `>` after `b` is inside quotes.
    expect(tree('<i t="a "b>c" d>text</i>')).toBe('i[t="a "b>c" d]("text")');
    expect(parseTree('<i class="x id=1" id=k>t</i>').querySelector('i')!.getAttribute('id')).toBe('k');
  });

  it('closes what HTML closes implicitly', () => {
    expect(tree('<ul><li>a<li>b</ul>')).toBe('ul(li("a") li("b"))');
    expect(tree('<p>one<div>two</div>')).toBe('p("one") div("two")');
    expect(tree('<table><tr><td>a<td>b<tr><td>c</table>')).toBe('table(tr(td("a") td("b")) tr(td("c")))');
    expect(tree('<dl><dt>k<dd>v</dl>')).toBe('dl(dt("k") dd("v"))');
    expect(tree('<section><p>left open</section>')).toBe('section(p("left open"))');
  });

  it('reads void and self-closed elements as empty, but a slash ending an unquoted value as the value', () => {
    expect(tree('<p>a<br>b<img src=x>c</p>')).toBe('p("a" br() "b" img[src=x]() "c")');
    expect(tree('<div/><span>s</span>')).toBe('div() span("s")');
    expect(tree('<a href=https://site/post/>post</a>')).toBe('a[href=https://site/post/]("post")');
  });

  it('keeps the raw text of scripts, styles and text areas, and drops comments', () => {
    expect(tree('<script>if (a < b) x = "</p>";</script><p>after</p>')).toBe('script("if (a < b) x = \\"</p>\\";") p("after")');
    expect(tree('<style>  </style><textarea><b>raw</b></textarea>')).toBe('style() textarea("<b>raw</b>")');
    expect(tree('a<!-- <p>not read</p> -->b')).toBe('"a" "b"');
    expect(tree('<script>never closed <p>x</p>')).toBe('script("never closed <p>x</p>")');
  });

  it('ends a script or style at an end tag with junk before its >, as browsers do, and other raw text only at its own', () => {
    expect(tree('<script>a()</script\n<!-- note --><p>after</p>')).toBe('script("a()") p("after")');
    expect(tree('<STYLE>b{}</STYLE x><p>after</p>')).toBe('STYLE("b{}") p("after")');
    expect(tree('<textarea>t</textarea x><p>in</p></textarea>')).toBe('textarea("t</textarea x><p>in</p>")');
  });

  it('skips the span tags of a code listing up to its first </pre>, its text one text, and keeps spans elsewhere', () => {
    expect(tree('<pre class="py"><span class="k">def</span> <span title="a > b">f</span>(<a href="/x">x</a>)</pre><span>s</span>')).toBe(
      'pre[class="py"]("def f(" a[href="/x"]("x") ")") span("s")',
    );
    expect(tree('<PRE><SPAN>a</SPAN><!-- c -->b</pre >')).toBe('PRE("a" "b")');
    // A listing that is never closed is not one: its spans stay.
    expect(tree('<pre><span>a</span>')).toBe('pre(span("a"))');
  });

  it('keeps a CDATA section as text', () => {
    expect(tree('<x><![CDATA[a < b]]></x>')).toBe('x("<![CDATA[a < b]]>")');
  });

  it('gives the children of an element left open at the end to the element it was opened in', () => {
    // `</div>` closes the open `<b>` (an inline element ends with its div) but not the `<span>`.
    expect(tree('<div><span>a<b>b</div>')).toBe('div("a" b("b"))');
    expect(tree('<div><span>a<span>b<i>c')).toBe('div(span("a") "b" "c")');
    // Of two open elements with the same tag, the second closes the first: its children go up one more level.
    expect(tree('<main><font>a<font>b<font>c</main>')).toBe('main("a" font("b") "c")');
    expect(tree('<p><font>x<font>x<font>x<font>x')).toBe('p(font("x") "x" font("x") "x")');
  });

  it('reads thousands of unclosed tags, comments and CDATA sections', () => {
    const div = parseTree('<div>' + '<font>x'.repeat(20_000)).firstChild as HTMLElement;
    const children = childrenOf(div);
    expect(children.length).toBe(20_000);
    expect(children.slice(0, 2).map(shape)).toEqual(['font("x")', '"x"']);
    expect(tree('<p>' + '<!--'.repeat(20_000))).toBe(`p(${JSON.stringify('<!--'.repeat(20_000))})`);
    const cdata = parseTree('<![CDATA[ <x>'.repeat(20_000));
    expect(cdata.querySelectorAll('x').length).toBe(10_000);
  });

  it('keeps tag names as written and matches their end tags in the same case', () => {
    const root = parseTree('<DIV><P>x</P></DIV>');
    const div = childElements(root)[0]!;
    expect(div.rawTagName).toBe('DIV');
    expect(div.name).toBe('div');
    expect(tree('<DIV><P>x</P></DIV>')).toBe('DIV(P("x"))');
  });
});

describe('HTMLElement', () => {
  const page = parseTree(
    '<html><body><div id="main" class="post  wide"><h1 Title="T &amp; U">Head &amp; more</h1><p data-n=1 data-n=2>one</p>' +
      '<p>two<br>lines</p><ul><li><a href="/a?x=1&amp;y=2">A</a></li><li><a href="/b" disabled>B</a></li></ul></div></body></html>',
  );

  it('reads attributes by name in any case, decoded, the first of a name written twice', () => {
    const h1 = page.querySelector('h1')!;
    expect(h1.getAttribute('title')).toBe('T & U');
    expect(h1.getAttribute('TITLE')).toBe('T & U');
    expect(page.querySelector('p')!.getAttribute('data-n')).toBe('1');
    expect(page.querySelector('a[disabled]')!.getAttribute('disabled')).toBe('');
    expect(page.querySelector('a')!.getAttribute('href')).toBe('/a?x=1&y=2');
    expect(h1.getAttribute('missing')).toBeUndefined();
  });

  it('keeps a name’s first non-empty value, and of names differing only in case the last written', () => {
    const lower = parseTree('<b id="" class=a id=k class=b>t</b>').querySelector('b')!;
    expect([lower.getAttribute('id'), lower.getAttribute('class')]).toEqual(['k', 'a']);
    const mixed = parseTree('<b CLASS="" ID=x class=a CLASS=c id="" title=T>t</b>').querySelector('b')!;
    expect([mixed.getAttribute('class'), mixed.getAttribute('id'), mixed.getAttribute('title')]).toEqual(['a', '', 'T']);
    // A name first written before another case of it stays behind it when written again.
    expect(parseTree('<b Class=a class=b Class=c>t</b>').querySelector('b')!.getAttribute('class')).toBe('b');
    expect(parseTree('<b class="" CLASS=x class=y>t</b>').querySelector('b')!.getAttribute('class')).toBe('x');
    expect(parseTree('<b data-x="a &amp; b" data-X=c>t</b>').querySelector('b')!.getAttribute('DATA-x')).toBe('c');
  });

  it('reads several attributes in one pass as it reads each alone, whatever the order and case they are written in', () => {
    const names = ['role', 'aria-hidden', 'hidden', 'style', 'class', 'id', 'title'];
    const tags = [
      '<b>t</b>',
      '<b CLASS="" ID=x class=a CLASS=c id="" title=T ROLE=navigation>t</b>',
      '<b Class=a class=b Class=c hidden aria-hidden="true" style="display: none" id=menu-main>t</b>',
      '<b title="x &amp; y" data-id=1 idx=2 class2=3 [class]="z" role="">t</b>',
    ];
    for (const tag of tags) {
      const b = parseTree(tag).querySelector('b')!;
      const out: (string | undefined)[] = ['stale'];
      b.getAttributes(names, out);
      expect(out, tag).toEqual(names.map((name) => b.getAttribute(name)));
    }
    const out: (string | undefined)[] = [];
    parseTree('<b id=x hidden>t</b>').querySelector('b')!.getAttributes(['hidden', 'id', 'class'], out);
    expect(out).toEqual(['', 'x', undefined]);
  });

  it('reads templating names, unquoted values and spaces around `=`', () => {
    const el = parseTree(`<a [class]="x" (click)=go @on='y' data-v = "1 2" Data-W=A hidden>t</a>`).querySelector('a')!;
    expect(['[class]', '(click)', '@on', 'data-v', 'data-w', 'hidden', 'nope'].map((name) => el.getAttribute(name))).toEqual(['x', 'go', 'y', '1 2', 'A', '', undefined]);
  });

  it('answers CSS selectors through css-select', () => {
    expect(page.querySelectorAll('li a').map((a) => a.getAttribute('href'))).toEqual(['/a?x=1&y=2', '/b']);
    expect(page.querySelectorAll('.wide > p').length).toBe(2);
    expect(page.querySelector('li:nth-child(2) a')!.text).toBe('B');
    expect(page.querySelectorAll('a[href^="/b"]').length).toBe(1);
    expect(page.querySelectorAll('.post.wide, ul').length).toBe(2);
    expect(page.querySelector('div:has(> ul) h1')!.text).toBe('Head & more');
    expect(page.querySelector('#main')!.name).toBe('div');
  });

  it('gives its text decoded, a `<br>` as a line break', () => {
    const [, second] = page.querySelectorAll('p');
    expect(second!.text).toBe('two\nlines');
    expect(second!.rawText).toBe('two\nlines');
    expect(page.querySelector('h1')!.text).toBe('Head & more');
    expect(page.querySelector('h1')!.rawText).toBe('Head &amp; more');
  });

  it('is taken out of its parent by remove(), first, middle or last, its siblings linked around it', () => {
    const root = parseTree('<div><p>a</p><p>b</p></div>');
    root.querySelector('p')!.remove();
    expect(shape(root)).toBe('div(p("b"))');
    root.querySelector('p')!.remove();
    expect(shape(root)).toBe('div()');
    const list = parseTree('<ul><li>1</li><li>2</li><li>3</li><li>4</li></ul>');
    const [one, two, , four] = list.querySelectorAll('li');
    two!.remove();
    expect(shape(list)).toBe('ul(li("1") li("3") li("4"))');
    four!.remove();
    expect(shape(list)).toBe('ul(li("1") li("3"))');
    expect([two!.parentNode, two!.nextSibling, four!.parentNode]).toEqual([null, null, null]);
    one!.remove();
    expect(shape(list)).toBe('ul(li("3"))');
    // Not a child: nothing changes.
    list.querySelector('ul')!.removeChild(one!);
    expect(shape(list)).toBe('ul(li("3"))');
  });
});

describe('nextNode', () => {
  const order = (root: Node, enter: (node: Node) => boolean = () => true): string[] => {
    const seen: string[] = [];
    for (let node: Node | null = root; node !== null; node = nextNode(node, root, enter(node))) seen.push(node.nodeType === TEXT ? node.rawText : node.name);
    return seen;
  };
  const root = parseTree('<div><p>a<b>b</b></p><ul><li>c</li></ul>d</div><footer>e</footer>');
  const div = root.querySelector('div')!;

  it('walks a subtree in document order and stops at its end, not at the siblings after it', () => {
    expect(order(div)).toEqual(['div', 'p', 'a', 'b', 'b', 'ul', 'li', 'c', 'd']);
    expect(order(root)).toEqual(['', 'div', 'p', 'a', 'b', 'b', 'ul', 'li', 'c', 'd', 'footer', 'e']);
  });

  it('skips what is below a node it is told not to enter', () => {
    expect(order(div, (node) => node.nodeType === TEXT || node.name !== 'p')).toEqual(['div', 'p', 'ul', 'li', 'c', 'd']);
    expect(order(div, (node) => node !== div)).toEqual(['div']);
  });

  it('walks a nesting far deeper than the stack', () => {
    const deep = parseTree('<span>'.repeat(100_000) + 'x' + '</span>'.repeat(100_000) + 'y');
    const seen = order(deep);
    expect(seen.length).toBe(100_003);
    expect(seen.slice(-3)).toEqual(['span', 'x', 'y']);
  });
});

describe('ElementMap', () => {
  it('keeps a value for each element of a page', () => {
    const root = parseTree('<div><p>a</p><p>b</p><ul><li>c</li></ul></div>');
    const [div, first, second, ul, li] = root.querySelectorAll('*');
    const map = new ElementMap<number>();
    map.set(li!, 1).set(div!, 2).set(first!, 3).set(li!, 4);
    expect([li, div, first, second, ul].map((el) => map.get(el!))).toEqual([4, 2, 3, undefined, undefined]);
    expect([li, second].map((el) => map.has(el!))).toEqual([true, false]);
  });

  it('holds elements of a large page far apart, and nothing for the elements between them', () => {
    // 10,000 elements: their slots span three pages of the map, and the middle page is never made.
    const root = parseTree(`<main>${'<p>x</p>'.repeat(9_999)}</main>`);
    const elements = root.querySelectorAll('*');
    expect(elements).toHaveLength(10_000);
    const map = new ElementMap<string>();
    map.set(elements[9_999]!, 'last').set(elements[0]!, 'first');
    expect(map.get(elements[9_999]!)).toBe('last');
    expect(map.get(elements[0]!)).toBe('first');
    expect(elements.filter((el) => map.has(el))).toEqual([elements[0], elements[9_999]]);
  });
});

describe('indexEnd', () => {
  // The largest index any element of the tree has, plus one: what an array of facts by index needs room for.
  const end = (root: HTMLElement) => Math.max(root.index, ...root.querySelectorAll('*').map((el) => el.index)) + 1;

  it('is one past the largest element index, found down the last children', () => {
    const root = parseTree('<html><body><div><p>a</p><p>b <em>c</em> d</p></div><ul><li>e</li><li>f<br></li></ul>tail</body></html><!-- end -->');
    expect(indexEnd(root)).toBe(end(root));
    expect(indexEnd(root)).toBe(11);
  });

  it('holds for a page whose unclosed elements were folded into their parents, and for a page of text only', () => {
    for (const html of ['<div><p>a<p>b<span>c<div>d', '<table><tr><td>1<td>2</table><p>x<b>y', '<ul><li>a<ul><li>b</ul>', '']) {
      const root = parseTree(html);
      expect(indexEnd(root), html).toBe(end(root));
    }
    expect(indexEnd(parseTree('just text'))).toBe(1);
  });
});

describe('nodes', () => {
  it('are of one shape for each kind, linked or not: V8 compiles a walk for the shapes it meets', () => {
    const parser = new URL('./parser.ts', import.meta.url).href;
    const script = `
      const { parseTree } = await import(${JSON.stringify(parser)});
      const root = parseTree('<div><p>one</p><br><ul><li>a</li><li></li></ul><section></section>two</div>');
      const elements = [];
      const texts = [];
      const visit = (node) => {
        (node.nodeType === 1 ? elements : texts).push(node);
        for (let c = node.firstChild; c; c = c.nextSibling) visit(c);
      };
      visit(root);
      console.log(JSON.stringify({
        elements: elements.length,
        texts: texts.length,
        same: elements.every((n) => %HaveSameMap(n, elements[0])) && texts.every((n) => %HaveSameMap(n, texts[0])),
      }));
    `;
    const out = runWithNativesSyntax(script);
    expect(JSON.parse(out)).toEqual({ elements: 8, texts: 3, same: true });
  });
});
