import { charCode, collapse, isWhiteSpace, parseDocument, tagOf, textOf, type HTMLElement } from './dom.js';
import { renderMain } from './content.js';
import { readLinks, type PageLink } from './links.js';
import { readMetadata, type PageMetadata } from './metadata.js';
import { resolveUrl, urlResolver, type UrlResolver } from './url.js';
import { TreeIndex } from './tree-index.js';

export interface ParsedPage extends PageMetadata {
  url: string;
  headings: { level: number; text: string }[];
  links: PageLink[];
  /** Main content without navigation and boilerplate; paragraphs separated by blank lines. */
  text: string;
  markdown: string;
  wordCount: number;
  nextPage: string | null;
  images: { src: string; alt: string }[];
}

/** What a caller may leave out of the reading. */
export interface ReadOptions {
  /**
   * Each link's context, the words around it (default true). Only a reader judging links by what
   * surrounds them asks for it, a crawl with an intent; finding it is a seventh of a documentation
   * page's reading.
   */
  linkContext?: boolean;
}

const TREE = Symbol('parsed tree');

interface TreeHandle {
  /** The HTML parseHtml was given; the tree only stands for that page. */
  html: string;
  root: HTMLElement;
}

/** Everything wvr reads from an HTML page. Never throws: bad HTML gives what could be read. */
export function parseHtml(html: string, pageUrl: string, options: ReadOptions = {}): ParsedPage {
  let read: { page: ParsedPage; root: HTMLElement };
  try {
    read = parseTree(html, pageUrl, options);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // Pathologically deep nesting overflows any recursive walk; wrappers carry no meaning, so flatten them.
    read = parseTree(html.replace(/<\/?(div|span|section|font|center)\b[^>]*>/gi, ' '), pageUrl, options);
  }
  // Not enumerable: JSON, spreads and equality of a page never see the tree.
  Object.defineProperty(read.page, TREE, { value: { html, root: read.root } satisfies TreeHandle, enumerable: false, configurable: true });
  return read.page;
}

/**
 * The whole document tree `page` was read from, so a later reader of the same HTML (extraction's
 * DOM patterns) need not parse it again. Handed over once, because the taker may change it, and so
 * the page stops holding it; null when `page` was not parsed from this `html` or was taken already.
 */
export function takeTree(page: ParsedPage, html: string): HTMLElement | null {
  const holder = page as ParsedPage & { [TREE]?: TreeHandle };
  const handle = holder[TREE];
  if (!handle || handle.html !== html) return null;
  delete holder[TREE];
  return handle.root;
}

function parseTree(html: string, pageUrl: string, options: ReadOptions): { page: ParsedPage; root: HTMLElement } {
  const root = parseDocument(html);
  // One walk indexes the elements every reader below looks up.
  const index = new TreeIndex(root);
  const baseHref = index.tag('base').find((b) => b.getAttribute('href') !== undefined)?.getAttribute('href');
  const base = (baseHref && resolveUrl(baseHref, pageUrl)) || pageUrl;
  const resolve = urlResolver(base);
  const { text, markdown } = renderMain(root, resolve);
  const metadata = readMetadata(root, base, index, text);
  const links = readLinks(root, resolve, index, options.linkContext ?? true);
  const headings = index
    .tags(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'])
    .map((h) => ({ level: Number(tagOf(h).slice(1)), text: textOf(h) }))
    .filter((h) => h.text);
  const images = index
    .tag('img')
    .filter((img) => img.getAttribute('src') !== undefined)
    .map((img) => ({ src: resolve(img.getAttribute('src')), alt: collapse(img.getAttribute('alt') ?? '') }))
    .filter((i): i is { src: string; alt: string } => i.src !== null);
  const nextPage = nextPageOf(index, links, resolve);
  const page: ParsedPage = {
    url: pageUrl,
    ...metadata,
    headings,
    links,
    text,
    markdown,
    wordCount: countWords(text),
    nextPage,
    images,
  };
  return { page, root };
}

function nextPageOf(index: TreeIndex, links: PageLink[], resolve: UrlResolver): string | null {
  const declared = index.tag('link').find((l) => l.getAttribute('rel') === 'next')?.getAttribute('href');
  if (declared) return resolve(declared);
  return links.find((l) => l.rel.includes('next') || /^(next( page)?|›|»|→|next ›|next »)$/i.test(l.text))?.url ?? null;
}

/** As `text.split(/\s+/).length` for a non-empty text, without building the array of words (a 2 MB page has 300,000). */
function countWords(text: string): number {
  if (!text) return 0;
  let words = 1;
  let inSpace = false;
  for (let i = 0, length = text.length; i < length; i++) {
    const space = isWhiteSpace(charCode(text, i));
    if (space && !inSpace) words++;
    inSpace = space;
  }
  return words;
}
