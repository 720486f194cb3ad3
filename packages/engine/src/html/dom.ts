import { charCode, isWhiteSpace } from './chars.js';
import type { NodePool } from './node-pool.js';
import { parseTree } from './parser.js';
import { childElements, ElementMap, findElement, indexEnd, isElement, nextNode, TEXT, type HTMLElement, type Node } from './tree.js';

export { charCode, childElements, ElementMap, indexEnd, isElement, isWhiteSpace, nextNode, TEXT, type HTMLElement, type Node };

/** Pages larger than this are cut before parsing: the parser's cost grows with them and content rarely needs more. */
export const MAX_HTML_CHARS = 3_000_000;

/**
 * The page's tree. Code listings lose their highlighting spans on the way (see `parseTree`); their text stays. With
 * `nodes`, built of that pool's nodes, valid until its next release.
 */
export function parseDocument(html: string, nodes?: NodePool): HTMLElement {
  return parseTree(html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html, nodes);
}

/** The lower-case tag name ('' for the document's root). */
export const tagOf = (el: HTMLElement): string => el.name;

/** A heading tag's level (`h1` to `h6`), else 0: read off the tag, where a pattern's match made an array each time. */
export function headingLevel(tag: string): number {
  if (tag.length !== 2 || charCode(tag, 0) !== 0x68 /* h */) return 0;
  const level = charCode(tag, 1) - 0x30;
  return level >= 1 && level <= 6 ? level : 0;
}

/**
 * White space folded to single spaces, trimmed. Most text needs no change (one space between words, none at the
 * ends), and a scan that finds so is cheaper than a regex replace and trim that copy the text.
 */
export function collapse(text: string): string {
  // One call of fold, not one in the scan and one after it: the one after (a text ending in a single space) is rare,
  // and its first run threw away the optimised code of every reader that inlines this function.
  return isCollapsed(text) ? text : fold(text);
}

/** One space between words, none at the ends. */
function isCollapsed(text: string): boolean {
  let space = true;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = charCode(text, i);
    if (!isWhiteSpace(c)) space = false;
    else if (space || c !== 32) return false;
    else space = true;
  }
  return !space || length === 0;
}

/**
 * One space between words, none at the ends. Only the white space that is not already a single space is replaced:
 * `/\s+/g` matched every space between words, and rebuilt the text from a piece per word (2 KB of garbage for a line of
 * prose with a line break in it, against 0.3 KB, and 3.6 times the time).
 */
const fold = (text: string): string => text.replace(NOT_ONE_SPACE, ' ').trim();
/** A run of two or more white space characters, or one that is not a space: each maximal run becomes one space. */
const NOT_ONE_SPACE = /\s{2,}|[^\S ]/g;

/** The text of a node as a reader shows it: entities decoded, the content of hidden elements left out. */
export const textOfNode = (node: Node): string => (isElement(node) ? textOfElement(node) : node.text);

/** Elements whose content is never shown as text: a link's `<noscript><img …></noscript>` is markup, not its name. */
const HIDDEN_TEXT = new Set(['script', 'style', 'noscript', 'template']);

/** Whether a walk for the text of `el` reads what is inside `node` (tag `tag`): not a `<br>`'s, nor a hidden element's below `el`. */
const textInside = (node: HTMLElement, el: HTMLElement, tag: string): boolean => tag !== 'br' && (node === el || !HIDDEN_TEXT.has(tag));

/**
 * An element's text nodes' texts joined as `rawText` joins them (a `<br>` is a line break), without the content of
 * script, style, noscript and template elements. Each text node's own decoded text, kept by the node, so a text asked
 * for again is not decoded again.
 */
function textOfElement(el: HTMLElement): string {
  const first = el.firstChild;
  // Most elements asked (a link, a heading, a cell) hold one run of text.
  if (first !== null && first.nextSibling === null && !isElement(first)) return first.text;
  let out = '';
  for (let node: Node | null = el; node !== null; ) {
    if (!isElement(node)) {
      out += node.text;
      node = nextNode(node, el);
      continue;
    }
    const tag = tagOf(node);
    if (tag === 'br') out += '\n';
    node = nextNode(node, el, textInside(node, el, tag));
  }
  return out;
}

/**
 * The first element under `el`, in document order, that `test` accepts. A walk that stops there, where a selector
 * query would first match the whole subtree through css-select.
 */
export const firstDescendant = (el: HTMLElement, test: (el: HTMLElement) => boolean): HTMLElement | null => findElement(el.firstChild, el, test);

/** The elements under `el` whose tag is one of `tags`, in document order: what a selector of tag names finds, by one walk. */
export function descendantsByTag(el: HTMLElement, tags: ReadonlySet<string>): HTMLElement[] {
  const found: HTMLElement[] = [];
  for (let node = el.firstChild; node !== null; node = nextNode(node, el)) if (isElement(node) && tags.has(tagOf(node))) found.push(node);
  return found;
}

/** Text of an element, entities decoded, with white space folded. */
export const textOf = (el: HTMLElement): string => collapse(textOfNode(el));

/**
 * The first `chars` characters of `textOf(el)`, reading only as many text nodes as that needs
 * (a language guess wants a sample, not the text of a 1 MB page). Stops once the folded text
 * runs past `chars`, so the trimmed end cannot change the part kept.
 */
export function leadingText(el: HTMLElement, chars: number): string {
  const parts: string[] = [];
  let raw = 0;
  // Folding is checked at doubling lengths, so a page of white space still costs one pass.
  let check = chars;
  for (let node: Node | null = el; node !== null; ) {
    if (!isElement(node)) {
      const text = node.text;
      parts.push(text);
      raw += text.length;
      if (raw > check) {
        const folded = collapse(parts.join(''));
        if (folded.length > chars) return folded.slice(0, chars);
        check = raw * 2;
      }
      node = nextNode(node, el);
      continue;
    }
    // As `rawText` reads it: a <br> is a line break.
    const tag = tagOf(node);
    if (tag === 'br') parts.push('\n');
    node = nextNode(node, el, textInside(node, el, tag));
  }
  return collapse(parts.join('')).slice(0, chars);
}
