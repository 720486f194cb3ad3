import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeUrl, resolveUrl, urlResolver } from './url.js';
import { parseHtml, takeTree } from './parse.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('parseHtml on a manual made by DocBook', () => {
  // DocBook's XSL stylesheets (the PostgreSQL manual, many Linux projects' docs) put a table of Prev / Up / Home / Next
  // links above and below every section, in divs classed navheader and navfooter.
  const nav = (cls: string) =>
    `<div class="${cls}"><table summary="Navigation"><tr><td><a accesskey="p" href="prev.html">Prev</a></td><td><a accesskey="u" href="chapter.html">Up</a></td><td><a accesskey="h" href="index.html">Home</a></td><td><a accesskey="n" href="next.html">Next</a></td></tr></table></div>`;
  const page = parseHtml(
    `<html><head><title>26.5. Hot Standby</title></head><body>${nav('navheader')}<div class="sect1"><h2 class="title">26.5. Hot Standby</h2>` +
      '<p>Hot standby is the term used to describe the ability to connect to the server and run read-only queries while the server is in archive recovery or standby mode.</p>' +
      `<p>Queries see the data as of the last replayed transaction; see <a href="standby-settings.html">the standby settings</a>.</p></div>${nav('navfooter')}</body></html>`,
    'https://docs.example/hot-standby.html',
  );

  it('reads the navigation tables as navigation: their links are of the nav region and their words are not the text', () => {
    expect(page.links.filter((l) => ['Prev', 'Up', 'Home', 'Next'].includes(l.text)).map((l) => l.region)).toEqual(Array.from({ length: 8 }, () => 'nav'));
    expect(page.links.find((l) => l.text === 'the standby settings')?.region).toBe('main');
    expect(page.text).toContain('run read-only queries');
    expect(page.text).not.toMatch(/\b(Prev|Up|Next)\b/);
  });
});

describe('parseHtml on a news article', () => {
  const page = parseHtml(fixture('news-article.html'), 'https://coastal.example/news/harbour-bridge-reopens?utm_source=x');

  it('reads metadata from JSON-LD, OpenGraph and meta tags', () => {
    expect(page).toMatchObject({
      title: 'Harbour bridge reopens after repairs',
      description: 'The harbour bridge reopened on Monday after six months of repairs.',
      language: 'en',
      publishedDate: '2026-02-14T07:30:00.000Z',
      modifiedDate: '2026-02-14T10:00:00.000Z',
      author: 'Mara Lindqvist',
      canonical: 'https://coastal.example/news/harbour-bridge-reopens',
      feeds: ['https://coastal.example/feed.xml'],
      favicon: 'https://coastal.example/static/favicon.png',
      themeColor: '#0a3d62',
    });
    expect(page.jsonLd).toHaveLength(1);
    expect(page.openGraph.type).toBe('article');
  });

  it('keeps the article and drops navigation, cookie banner, related stories and footer', () => {
    expect(page.text).toContain('six months after engineers closed it');
    expect(page.text).toContain('All 48 suspension cables were replaced.');
    for (const boilerplate of ['We use cookies', 'Sport', 'Related stories', 'All rights reserved', 'Tunnel plans']) {
      expect(page.text).not.toContain(boilerplate);
    }
    expect(page.wordCount).toBeGreaterThan(60);
  });

  it('renders markdown with headings, lists, emphasis and absolute links', () => {
    expect(page.markdown).toContain('# Harbour bridge reopens after repairs');
    expect(page.markdown).toContain('## What changed');
    expect(page.markdown).toContain('- A new **cycle lane** runs along the eastern side.');
    expect(page.markdown).toContain('[ferry services](https://coastal.example/news/ferry-timetable)');
  });

  it('lists links with anchor text, rel, region and context', () => {
    const byText = (text: string) => page.links.find((l) => l.text === text);
    expect(byText('Sport')).toMatchObject({ url: 'https://coastal.example/sport', region: 'nav' });
    expect(byText('council report')).toMatchObject({ nofollow: true, rel: ['nofollow'], region: 'main' });
    expect(byText('ferry services')?.context).toContain('Commuters welcomed the news');
    expect(byText('Contact us')?.region).toBe('footer');
    expect(byText('Tunnel plans shelved')?.region).toBe('aside');
    expect(page.headings.map((h) => h.level)).toEqual([1, 2, 3]);
  });

  it('leaves the links\' context out when asked to, and reads everything else the same', () => {
    const lean = parseHtml(fixture('news-article.html'), 'https://coastal.example/news/harbour-bridge-reopens?utm_source=x', { linkContext: false });
    expect(lean.links.map((l) => l.context)).toEqual(page.links.map(() => ''));
    expect({ ...lean, links: lean.links.map(({ context: _, ...l }) => l) }).toEqual({ ...page, links: page.links.map(({ context: _, ...l }) => l) });
  });
});

describe('parseHtml: headings, links and the next page in document order', () => {
  const page = parseHtml(
    `<html><body><h1>Guide</h1><h2>Install</h2><p>Get it from <a href="/download">the download page</a>.</p>` +
      `<h3>On Linux</h3><map name="m"><area href="/linux" alt="Linux builds"></map><h2>Use</h2><h3>Options</h3>` +
      `<p><a href="/options">Every option</a>, then <a href="/guide/2">Next</a> or <a href="/guide/3" rel="next">the third part</a>.</p></body></html>`,
    'https://docs.example/guide/1',
  );

  it('lists the headings of every level, and links of both tags, in the order the page has them', () => {
    expect(page.headings.map((h) => `h${h.level} ${h.text}`)).toEqual(['h1 Guide', 'h2 Install', 'h3 On Linux', 'h2 Use', 'h3 Options']);
    expect(page.links.map((l) => l.text)).toEqual(['the download page', 'Linux builds', 'Every option', 'Next', 'the third part']);
  });

  it('takes the first link that reads as the next page', () => {
    expect(page.nextPage).toBe('https://docs.example/guide/2');
  });
});

describe('parseHtml: lists', () => {
  const page = parseHtml(
    `<!doctype html><html><body><main><h1>Packing</h1><p>What goes in the bag for a night out on the hill, in the order it is packed, with the heavy things low.</p>
    <ol><li><p>Shelter</p><p>Tent and <em>pegs</em></p><ul><li>Inner</li><li>Fly<ol><li>Poles</li></ol></li></ul></li><li>Stove</li><li></li><li>Food<ul><li>Oats</li></ul></li></ol>
    <p>Check the weather before leaving, and tell someone where you are going and when you will be back.</p></main></body></html>`,
    'https://hill.example/packing',
  );

  it("writes an item's own blocks on its line and the lists inside it on the lines under it, indented a level each", () => {
    expect(page.markdown).toContain('1. Shelter Tent and _pegs_\n  - Inner\n  - Fly\n    1. Poles\n2. Stove\n4. Food\n  - Oats\n\nCheck');
  });

  it("gives each of an item's blocks, and each item inside it, a line of the text", () => {
    expect(page.text).toContain('low.\n\nShelter\nTent and pegs\nInner\nFly\nPoles\nStove\nFood\nOats\n\nCheck');
  });
});

describe('parseHtml on a product page', () => {
  const page = parseHtml(fixture('product.html'), 'https://shop.example/catalog/aria-pro');

  it('expands @graph JSON-LD and reads nested microdata', () => {
    expect(page.jsonLd.map((i) => i['@type'])).toEqual(['Organization', 'Product']);
    const [product] = page.microdata;
    expect(product?.type).toBe('Product');
    expect(product?.properties.name).toEqual(['Aria Pro Wireless Headphones']);
    const offer = product?.properties.offers?.[0];
    expect(offer).toMatchObject({ type: 'Offer', properties: { price: ['249.00'], priceCurrency: ['EUR'], availability: ['https://schema.org/InStock'] } });
    expect(product?.properties.image).toEqual(['https://shop.example/catalog/aria.jpg']);
  });

  it('resolves links against <base href>, finds the next page and renders the spec table', () => {
    expect(page.links.map((l) => l.url)).toContain('https://shop.example/catalog/accessories/case');
    expect(page.nextPage).toBe('https://shop.example/catalog/?page=2');
    expect(page.markdown).toContain('| Weight | 250 g |');
    expect(page.text).toContain('Active noise cancelling');
    expect(page.text).not.toContain('Cart');
  });
});

describe('parseHtml on broken HTML', () => {
  it('reads what it can without throwing and never treats script output as text', () => {
    const page = parseHtml(fixture('broken.html'), 'https://broken.example/');
    expect(page.text).toContain('First paragraph that never closes');
    expect(page.text).not.toContain('not content');
    expect(page.links[0]?.url).toBe('https://broken.example/x');
  });

  it('survives empty and enormous input', () => {
    expect(parseHtml('', 'https://x.example/').text).toBe('');
    const deep = `${'<div>'.repeat(5000)}deep text here${'</div>'.repeat(5000)}`;
    expect(parseHtml(deep, 'https://x.example/').text).toContain('deep text here');
  });
});

describe('parseHtml on markup as browsers read it', () => {
  it('names a link and a heading by their visible text, never by script, style or noscript content', () => {
    const page = parseHtml(
      `<html><body><h2>Slashdot<script>var viewname = "stories";</script></h2>
       <a href="/home"><noscript><img src="/logo.png" alt="Logo"></noscript>Home page<style>.x{}</style></a>
       <p>A paragraph long enough to be the main text of this small page, read as prose by the reader.</p></body></html>`,
      'https://site.example/',
    );
    expect(page.headings).toEqual([{ level: 2, text: 'Slashdot' }]);
    expect(page.links.find((l) => l.url === 'https://site.example/home')?.text).toBe('Home page');
  });

  it('keeps the slash that ends an unquoted attribute value, and decodes attribute entities only where browsers do', () => {
    const page = parseHtml(
      `<body><a href=https://site.example/post/>The post</a> and <a href="/q?id=1&sectionId=2&amp;x=3">the query</a></body>`,
      'https://site.example/',
    );
    // An unquoted value ends at white space or '>': the slash is the URL's, not a self-closing mark (the link keeps its text).
    expect(page.links[0]).toMatchObject({ url: 'https://site.example/post/', text: 'The post' });
    // "&sect" followed by a letter is not the section sign inside an attribute; "&amp;" is an ampersand.
    expect(page.links[1]?.url).toBe('https://site.example/q?id=1&sectionId=2&x=3');
  });

  it('leaves out soft hyphens, shown only where a line breaks, from every text it reads', () => {
    // As news sites write them: as the character itself and as `&shy;`, by the hundred, in long words.
    const page = parseHtml(
      `<html><head><title>Gesund&shy;heits&shy;politik</title></head><body><h1>La can\u00addi\u00adda\u00adture</h1>
       <p>En réac&shy;tion à la can\u00addi\u00adda\u00adture du conseiller, les cher&shy;cheurs ont écrit une lettre ouverte
       que <a href="/lettre">la rédac&shy;tion</a> publie en entier, avec la liste de ses signa&shy;taires.</p></body></html>`,
      'https://site.example/',
    );
    expect(page.text).toContain('En réaction à la candidature du conseiller, les chercheurs');
    expect(page.markdown).toContain('[la rédaction](https://site.example/lettre)');
    expect(page.headings).toEqual([{ level: 1, text: 'La candidature' }]);
    expect(page.title).toBe('Gesundheitspolitik');
    expect(page.links.find((l) => l.url === 'https://site.example/lettre')?.text).toBe('la rédaction');
    expect(JSON.stringify(page)).not.toMatch(/\u00ad|\\u00ad/);
  });
});

describe('normalizeUrl', () => {
  it.each([
    ['HTTPS://Example.COM:443/a/./b/../c?b=2&a=1#frag', 'https://example.com/a/c?a=1&b=2'],
    ['http://example.com:80/?utm_source=x&fbclid=y&id=3', 'http://example.com/?id=3'],
    ['/relative/path', 'https://base.example/relative/path'],
    ['https://user:pw@example.com/', 'https://example.com/'],
    // Query keys in code-unit order, whatever the machine's locale: capitals before small letters, accents last.
    ['https://example.com/?b=1&%C3%A4=4&a=3&B=2&a=0', 'https://example.com/?B=2&a=0&a=3&b=1&%C3%A4=4'],
  ])('normalises %s', (input, expected) => expect(normalizeUrl(input, 'https://base.example/dir/')).toBe(expected));

  it('refuses non-http schemes and junk', () => {
    expect(normalizeUrl('mailto:a@b.c')).toBeNull();
    expect(normalizeUrl('javascript:void(0)')).toBeNull();
    expect(normalizeUrl('not a url')).toBeNull();
  });
});

describe('takeTree', () => {
  const html = fixture('news-article.html');
  const url = 'https://coastal.example/news/harbour-bridge-reopens';

  it('hands over the whole document, with the scripts and furniture the main text left out', () => {
    const page = parseHtml(html, url);
    const root = takeTree(page, html);
    expect(root).not.toBeNull();
    expect(page.text).not.toContain('Related stories');
    // The related-stories aside sits inside <main>, the part the main text was rendered from.
    expect(root!.querySelector('main > aside.related')?.text).toContain('Related stories');
    expect(root!.text).toContain('We use cookies');
    expect(root!.querySelectorAll('script[type="application/ld+json"]')).toHaveLength(2);
  });

  it('hands the tree over once, only for the HTML the page was parsed from, and never in JSON', () => {
    const page = parseHtml(html, url);
    expect(JSON.stringify(page)).toBe(JSON.stringify({ ...page }));
    expect(takeTree(page, `${html} `)).toBeNull();
    expect(takeTree(page, html)).not.toBeNull();
    expect(takeTree(page, html)).toBeNull();
  });
});

describe('urlResolver', () => {
  it('answers as resolveUrl does against its base, whatever the fragment, an in-page link being the page itself', () => {
    const base = 'https://docs.example/api/page.html?v=2#top';
    const resolve = urlResolver(base);
    const hrefs = ['#a', '#b ', '  #', 'other.html#x', 'other.html#x', 'other.html#y', ' other.html ', 'other.html', 'other.html#', '?q=1#f', '?q=1', '../up/', '../up/#z', 'javascript:go("#x")', 'mailto:a@b.c#x', '', undefined, 'HTTP://Example.com'];
    expect(hrefs.map(resolve)).toEqual(hrefs.map((href) => resolveUrl(href, base)));
    expect(resolve('#section')).toBe('https://docs.example/api/page.html?v=2');
    expect(urlResolver('not a base')('#a')).toBeNull();
  });
});

describe('parseHtml on a long page', () => {
  // More blocks than the renderer joins in one chunk, and empty ones among them: every block kept once, in order,
  // one blank line apart, wherever the chunks end.
  const sections = Array.from({ length: 101 }, (_, i) => `<h2>Part ${i}</h2><p>Paragraph ${i} of the long reference page, with a <a href="/ref/${i}">link</a> in it.</p><p> </p>`);
  const page = parseHtml(`<html><body><main>${sections.join('')}</main></body></html>`, 'https://docs.example/long');

  it('keeps every block apart by one blank line, in document order', () => {
    const expected = Array.from({ length: 101 }, (_, i) => `Part ${i}\n\nParagraph ${i} of the long reference page, with a link in it.`).join('\n\n');
    expect(page.text).toBe(expected);
    const markdown = page.markdown.split('\n\n');
    expect(markdown).toHaveLength(202);
    expect(markdown[200]).toBe('## Part 100');
    expect(markdown[201]).toBe('Paragraph 100 of the long reference page, with a [link](https://docs.example/ref/100) in it.');
  });
});
