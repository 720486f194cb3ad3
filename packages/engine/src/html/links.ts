import { collapse, ElementMap, firstDescendant, tagOf, textOf, type HTMLElement } from './dom.js';
import { isChrome, readMarkup, ROLE } from './chrome.js';
import type { UrlResolver } from './url.js';
import type { TreeIndex } from './tree-index.js';

export type LinkRegion = 'main' | 'nav' | 'header' | 'footer' | 'aside';

export interface PageLink {
  url: string;
  text: string;
  rel: string[];
  nofollow: boolean;
  /** About twenty words around the link, for judging what it points at; empty when not asked for (see ReadOptions). */
  context: string;
  region: LinkRegion;
}

/** The page's links, and the first that reads as the way to the next page (`rel="next"` or a "Next ›" label). */
export interface ReadLinks {
  links: PageLink[];
  next: string | null;
}

/**
 * Every http(s) link on the page with what a crawler needs to judge it. Links share blocks and
 * ancestors (a source listing or an index holds thousands), so each block's words and each
 * ancestor's region are worked out once per page, not once per link. The next page's link is noted as the links
 * are made: looked for afterwards, a 2 MB page's 5,000 link objects were each read again out of the cache.
 */
export function readLinks(resolve: UrlResolver, index: TreeIndex, withContext = true): ReadLinks {
  const links: PageLink[] = [];
  let next: string | null = null;
  const regions = new ElementMap<LinkRegion>();
  const blocks = new ElementMap<BlockWords>();
  for (const a of index.tags(['a', 'area'])) {
    a.getAttributes(LINK_ATTRIBUTES, linkAttributes);
    const href = linkAttributes[0];
    const relation = linkAttributes[1];
    if (href === undefined) continue;
    const url = resolve(href);
    if (!url) continue;
    const rel = relation ? relation.toLowerCase().split(/\s+/).filter(Boolean) : [];
    const own = textOf(a);
    // An image map's area has no content: its alt text is its label.
    const text = own || a.getAttribute('aria-label') || a.getAttribute('title') || (tagOf(a) === 'area' ? a.getAttribute('alt') : firstDescendant(a, (el) => tagOf(el) === 'img')?.getAttribute('alt')) || '';
    const label = collapse(text);
    links.push({ url, text: label, rel, nofollow: rel.includes('nofollow'), context: withContext ? contextOf(a, own, blocks) : '', region: regionOf(a, regions) });
    if (next === null && (rel.includes('next') || (label.length <= NEXT_LABEL_CHARS && NEXT_LABEL.test(label)))) next = url;
  }
  return { links, next };
}

/** A link's attributes, read in one pass over its raw attributes, into one list for every link. */
const LINK_ATTRIBUTES = ['href', 'rel'] as const;
const linkAttributes: (string | undefined)[] = [];

const NEXT_LABEL = /^(next( page)?|›|»|→|next ›|next »)$/i;
/** The longest text NEXT_LABEL matches: a longer label is not tried. */
const NEXT_LABEL_CHARS = 'next page'.length;

/** The region of the nearest ancestor that decides one; every ancestor passed on the way gets the same answer. */
function regionOf(el: HTMLElement, known: ElementMap<LinkRegion>): LinkRegion {
  const passed = passedAncestors;
  let region: LinkRegion = 'main';
  for (let node = el.parentNode as HTMLElement | null; node && node.rawTagName; node = node.parentNode as HTMLElement | null) {
    const cached = known.get(node) ?? ownRegion(node);
    if (cached) {
      region = cached;
      break;
    }
    passed.push(node);
  }
  for (const node of passed) known.set(node, region);
  // Emptied at once, so the shared list holds no page's elements between calls.
  passed.length = 0;
  return region;
}
/** regionOf's ancestors on the way, one list for every call: a page of 5,000 links made 5,000 of them. */
const passedAncestors: HTMLElement[] = [];

function ownRegion(node: HTMLElement): LinkRegion | undefined {
  const tag = tagOf(node);
  // The role and the furniture check's attributes, in one pass over the element's attributes.
  const attributes = readMarkup(node);
  const role = attributes[ROLE] ?? '';
  if (tag === 'nav' || role === 'navigation') return 'nav';
  if (tag === 'footer' || role === 'contentinfo') return 'footer';
  if (tag === 'aside' || role === 'complementary') return 'aside';
  if (tag === 'header' || role === 'banner') return 'header';
  if (tag === 'main' || tag === 'article') return 'main';
  if (isChrome(node, attributes)) return 'nav';
  return undefined;
}

/** A block's words, and (for long blocks) where each word first occurs. */
interface BlockWords {
  words: string[];
  first?: Map<string, number>;
}

/** Blocks shorter than this are searched word by word; longer ones get an index. */
const INDEXED_WORDS = 64;

/** Inline elements a link sits in within its sentence: its context is the block around them. */
const INLINE_WRAPPERS = new Set(['a', 'span', 'strong', 'em', 'b', 'i', 'small']);

function contextOf(a: HTMLElement, own: string, blocks: ElementMap<BlockWords>): string {
  let block = a.parentNode as HTMLElement | null;
  while (block?.rawTagName && INLINE_WRAPPERS.has(tagOf(block))) block = block.parentNode as HTMLElement | null;
  let read = block ? blocks.get(block) : undefined;
  if (!read) {
    read = { words: (block ? textOf(block) : own).split(' ') };
    if (block) blocks.set(block, read);
  }
  const space = own.indexOf(' ');
  const anchor = space === -1 ? own : own.slice(0, space);
  const at = Math.max(0, firstIndex(read, anchor));
  return read.words.slice(Math.max(0, at - 10), at + 10).join(' ');
}

function firstIndex(block: BlockWords, word: string): number {
  if (block.words.length < INDEXED_WORDS) return block.words.indexOf(word);
  if (!block.first) {
    block.first = new Map();
    block.words.forEach((w, i) => {
      if (!block.first!.has(w)) block.first!.set(w, i);
    });
  }
  return block.first.get(word) ?? -1;
}
