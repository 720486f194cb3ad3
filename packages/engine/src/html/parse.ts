import { charCode, collapse, headingLevel, isWhiteSpace, parseDocument, tagOf, textOf, type HTMLElement } from './dom.js';
import { renderMain } from './content.js';
import { readLinks, type PageLink } from './links.js';
import { readMetadata, type PageMetadata } from './metadata.js';
import { resolveUrl, urlResolver, type UrlResolver } from './url.js';
import { TreeIndex } from './tree-index.js';
import type { NodePool } from './node-pool.js';

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
    read = parseTree(flattened(html, error), pageUrl, options);
  }
  // Not enumerable: JSON, spreads and equality of a page never see the tree.
  Object.defineProperty(read.page, TREE, { value: { html, root: read.root } satisfies TreeHandle, enumerable: false, configurable: true });
  return read.page;
}

/**
 * `parseHtml` for a reader that keeps no tree (a crawl's reader thread): the page's tree is built of `nodes`, which an
 * earlier reading left, and given back to them at the end. The page carries no tree (see `takeTree`).
 */
export function parseHtmlWith(nodes: NodePool, html: string, pageUrl: string, options: ReadOptions = {}): ParsedPage {
  try {
    return parseTree(html, pageUrl, options, nodes).page;
  } catch (error) {
    nodes.release();
    return parseTree(flattened(html, error), pageUrl, options, nodes).page;
  } finally {
    nodes.release();
  }
}

/**
 * Pathologically deep nesting overflows any recursive walk; wrappers carry no meaning, so a page nested that deep is
 * read again without them. The overflow is a RangeError, but not always as it reaches the caller: under a module loader
 * that reads imports through getters (vitest's), a call that ran out of stack there fails as a TypeError. So the
 * page's wrappers' nesting decides as well; any other error is thrown on.
 */
function flattened(html: string, error: unknown): string {
  if (!(error instanceof RangeError) && wrapperDepth(html) < DEEP_WRAPPERS) throw error;
  return html.replace(WRAPPER_TAG, ' ');
}

const WRAPPER_TAG = /<\/?(div|span|section|font|center)\b[^>]*>/gi;
/** Far deeper than a real page's (tens), far shallower than what exhausts the stack (thousands). */
const DEEP_WRAPPERS = 1_000;

/** The deepest the wrapper tags nest, counting each start tag in and each end tag out. */
function wrapperDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const [tag] of html.matchAll(WRAPPER_TAG)) {
    depth = tag.charCodeAt(1) === 47 /* / */ ? Math.max(0, depth - 1) : depth + 1;
    if (depth > deepest) deepest = depth;
  }
  return deepest;
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

function parseTree(html: string, pageUrl: string, options: ReadOptions, nodes?: NodePool): { page: ParsedPage; root: HTMLElement } {
  const root = parseDocument(html, nodes);
  // One walk indexes the elements every reader below looks up.
  const index = new TreeIndex(root);
  const baseHref = index.tag('base').find((b) => b.getAttribute('href') !== undefined)?.getAttribute('href');
  const base = (baseHref && resolveUrl(baseHref, pageUrl)) || pageUrl;
  const resolve = urlResolver(base);
  const { links, next } = readLinks(resolve, index, options.linkContext ?? true);
  const headings = index
    .tags(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'])
    .map((h) => ({ level: headingLevel(tagOf(h)), text: textOf(h) }))
    .filter((h) => h.text);
  const images = index
    .tag('img')
    .filter((img) => img.getAttribute('src') !== undefined)
    .map((img) => ({ src: resolve(img.getAttribute('src')), alt: collapse(img.getAttribute('alt') ?? '') }))
    .filter((i): i is { src: string; alt: string } => i.src !== null);
  const nextPage = nextPageOf(index, next, resolve);
  // The text and markdown last: on a large page they are objects of their own (over 128 KB), and made before the links
  // they were alive through the links' garbage, so the young collection it brought moved them into the old generation,
  // which grew by their size every other read until a full collection (docs/benchmarks.md).
  const { text, markdown } = renderMain(root, resolve, index);
  const metadata = readMetadata(root, base, index, text);
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

/** The page the document declares next (`<link rel="next">`), or else the one its links lead to. */
function nextPageOf(index: TreeIndex, next: string | null, resolve: UrlResolver): string | null {
  const declared = index.tag('link').find((l) => l.getAttribute('rel') === 'next')?.getAttribute('href');
  if (declared) return resolve(declared);
  return next;
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
