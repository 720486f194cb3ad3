import type { Options } from 'css-select';
import { charCode, decodeAttribute, isWhiteSpace, shownText } from './chars.js';
import { onFirstUse } from '../core/on-first-use.js';

/**
 * The page's tree: elements and text, nothing else. A node holds what the readers ask of it (its tag, its raw
 * attributes, its parent and its place among its siblings) and works out the rest when asked: an element's attributes
 * are read from their raw text at each question, its text from its children. A 2 MB page has 40,000 elements; every
 * byte a node carries is a byte the readers' walks pull through the cache, and a node built for nothing is garbage to
 * collect.
 *
 * Children are linked, each to the next (`firstChild`, `nextSibling`), not held in a list by their parent: a list was
 * two objects more for nearly every element (the array and its store, room for 17 once a second child came), more
 * than half the tree's objects, and a walk went through both to reach each child (docs/benchmarks.md). `nextNode` walks
 * a subtree in document order with no stack.
 */

const ELEMENT = 1;
export const TEXT = 3;

export type Node = HTMLElement | TextNode;

export const isElement = (node: Node): node is HTMLElement => node.nodeType === ELEMENT;

export class TextNode {
  parentNode: HTMLElement | null = null;
  nextSibling: Node | null = null;
  /**
   * `text`, kept once read: the readers ask for a text node's text three to five times a page (counting, choosing,
   * rendering text and markdown), and a text with entities (every prompt and quote of a code listing) was decoded,
   * and copied, at each.
   */
  private decoded: string | null = null;

  /** Written by the parser alone (`reuse`: when the node is made, and when a NodePool hands it on to another tree). */
  rawText!: string;

  constructor(rawText: string) {
    this.reuse(rawText);
  }

  /** This node as a new one: no links, holding `rawText`. */
  reuse(rawText: string): this {
    this.parentNode = this.nextSibling = null;
    this.decoded = null;
    this.rawText = rawText;
    return this;
  }

  /** On the prototype, not in every node: a 2 MB page has 65,000 nodes. */
  get nodeType(): typeof TEXT {
    return TEXT;
  }

  /** The text, entities decoded and soft hyphens left out (see `shownText`). */
  get text(): string {
    return (this.decoded ??= shownText(this.rawText));
  }
}

export class HTMLElement {
  parentNode: HTMLElement | null = null;
  nextSibling: Node | null = null;
  firstChild: Node | null = null;
  /** Kept so that the parser appends a child without a walk to the end of the list. */
  lastChild: Node | null = null;
  // The four below are written by the parser alone (`reuse`: when the element is made, and when a NodePool hands it on
  // to another tree). Readers only read them.
  /** The tag as written (`null` for the document's root); `name` is the same in lower case. */
  rawTagName!: string | null;
  name!: string;
  /** The attributes as written between the tag's name and its end. */
  rawAttrs!: string;
  /** The element's place in document order (the root's is 0): readers keep facts about many elements in arrays by it. */
  index!: number;

  constructor(rawTagName: string | null, rawAttrs: string, index: number) {
    this.reuse(rawTagName, rawAttrs, index);
  }

  /** This element as a new one: no links, and the tag, attributes and place given. */
  reuse(rawTagName: string | null, rawAttrs: string, index: number): this {
    this.parentNode = this.nextSibling = this.firstChild = this.lastChild = null;
    this.index = index;
    this.rawTagName = rawTagName;
    this.name = rawTagName === null ? '' : rawTagName.toLowerCase();
    this.rawAttrs = rawAttrs;
    return this;
  }

  get nodeType(): typeof ELEMENT {
    return ELEMENT;
  }

  /**
   * Read from the raw attributes at each question, nothing kept: a list of names and values kept per element lived as
   * long as the tree, a third as large again on a large page, and every young collection copied it (docs/benchmarks.md).
   */
  getAttribute(name: string): string | undefined {
    // Compared with '', not by length: the raw attributes are strings of every kind, and their `length` a look-up (see charCode).
    return this.rawAttrs === '' ? undefined : attributeValue(this.rawAttrs, name.toLowerCase());
  }

  /** The values of the attributes `names` (distinct, lower case) into `out`, by the names' order: one pass for them all. */
  getAttributes(names: readonly string[], out: (string | undefined)[]): void {
    if (this.rawAttrs !== '') attributeValues(this.rawAttrs, names, out);
    else for (let k = 0; k < names.length; k++) out[k] = undefined;
  }

  /** The text as written: the children's joined, a `<br>` a line break. */
  get rawText(): string {
    let out = '';
    for (let node: Node | null = this; node !== null; ) {
      if (!isElement(node)) out += node.rawText;
      else if (node.name === 'br') out += '\n';
      node = nextNode(node, this, !isElement(node) || node.name !== 'br');
    }
    return out;
  }

  /** The text, entities decoded and soft hyphens left out, as a text node's. */
  get text(): string {
    return shownText(this.rawText);
  }

  querySelectorAll(selector: string): HTMLElement[] {
    return cssSelect().selectAll<Node, HTMLElement>(selector, this, { xmlMode: true, adapter });
  }

  querySelector(selector: string): HTMLElement | null {
    return cssSelect().selectOne<Node, HTMLElement>(selector, this, { xmlMode: true, adapter });
  }

  appendChild<T extends Node>(node: T): T {
    node.parentNode = this;
    node.nextSibling = null;
    if (this.lastChild === null) this.firstChild = node;
    else this.lastChild.nextSibling = node;
    this.lastChild = node;
    return node;
  }

  /** A walk from the first child to the one before `node`: nodes keep no link back, a removal is rare. */
  removeChild(node: Node): void {
    if (node.parentNode !== this) return;
    if (this.firstChild === node) {
      this.firstChild = node.nextSibling;
      if (this.lastChild === node) this.lastChild = null;
    } else {
      let before = this.firstChild!;
      while (before.nextSibling !== node) before = before.nextSibling!;
      before.nextSibling = node.nextSibling;
      if (this.lastChild === node) this.lastChild = before;
    }
    node.parentNode = null;
    node.nextSibling = null;
  }

  remove(): void {
    this.parentNode?.removeChild(this);
  }
}

/**
 * The node after `node` in document order inside `root` (an ancestor of `node`, or `node` itself): its first child
 * when `enter` and it has one, else the next sibling of it or of its nearest ancestor below `root` that has one; null
 * past `root`'s last node. `enter` false skips what is below `node`. A walk by these links needs no stack, so deep
 * nesting cannot overflow one, and makes nothing.
 */
export function nextNode(node: Node, root: Node, enter = true): Node | null {
  if (enter && isElement(node) && node.firstChild !== null) return node.firstChild;
  for (let at: Node = node; at !== root; at = at.parentNode!) if (at.nextSibling !== null) return at.nextSibling;
  return null;
}

/** The element children of `el`, in a list made at each call: for the readers of a few elements, not for walks. */
export const childElements = (el: HTMLElement): HTMLElement[] => childNodesOf(el).filter(isElement);

/**
 * One past the largest element index under `root` (its own included): the room an array of facts by element index
 * needs. The parser numbers elements in document order, so the largest is the last element of the last children,
 * reached without a walk of the whole tree. A size to start from, not a bound: an array by index still grows for an
 * element past it.
 */
export function indexEnd(root: HTMLElement): number {
  let last = root;
  for (;;) {
    let lastElement: HTMLElement | null = null;
    for (let child = last.firstChild; child !== null; child = child.nextSibling) if (isElement(child)) lastElement = child;
    if (lastElement === null) return last.index + 1;
    last = lastElement;
  }
}

/**
 * A map from the elements of one page's tree to facts about them, kept in arrays by document order: on a page of
 * 40,000 elements a `Map` by element hashes into a table larger than the cache on every look-up, where this reads one
 * slot. (Facts that are numbers, about most of a page's elements, are better kept in typed arrays: see
 * element-facts.ts.)
 *
 * The slots are kept in pages of PAGE_SLOTS, each made when a key first falls in it. One array for a whole large
 * page would be over the 128 KB past which V8 gives an object memory of its own, fresh from the system, made again
 * for every page read: first touches of that memory cost more than the reading that fills it (see docs/benchmarks.md).
 * A map that holds a few elements (link regions) makes a page or two.
 */
export class ElementMap<T> {
  private readonly pages: (T | undefined)[][] = [];

  get(el: HTMLElement): T | undefined {
    const page = this.pages[el.index >>> PAGE_BITS];
    return page === undefined ? undefined : page[el.index & PAGE_MASK];
  }

  has(el: HTMLElement): boolean {
    return this.get(el) !== undefined;
  }

  set(el: HTMLElement, value: T): this {
    const at = el.index >>> PAGE_BITS;
    // Grown one entry at a time, the list of pages stays a dense array; a write far past its end would make it a dictionary.
    while (this.pages.length <= at) this.pages.push(NO_PAGE as (T | undefined)[]);
    let page = this.pages[at]!;
    if (page === NO_PAGE) this.pages[at] = page = new Array<T | undefined>(PAGE_SLOTS).fill(undefined);
    page[el.index & PAGE_MASK] = value;
    return this;
  }
}

const PAGE_BITS = 10;
/** 1,024 slots of 8 bytes: 8 KB, the size a map of a typical page (a thousand elements) needs anyway. */
const PAGE_SLOTS = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SLOTS - 1;
/** A page not made yet: every slot in it reads undefined. */
const NO_PAGE: readonly unknown[] = Object.freeze(new Array(PAGE_SLOTS).fill(undefined));

/**
 * The decoded values of the attributes `keys` (distinct, lower case) in the raw attributes, into `out` by the keys'
 * order, in one pass that makes no string but the values. An attribute is a name (which may hold the brackets and
 * signs of templating syntax: `[class]`, `(click)`, `@click`, `:href`), then optionally `=` and a value: quoted, or up
 * to the next white space. Anything else between attributes is skipped. A name written twice keeps its first non-empty
 * value; of names that differ only in case, the one first written last holds. Several keys in one pass: the readers
 * ask each element for the half-dozen attributes that say it is furniture, and a pass each was a tenth of a read.
 */
function attributeValues(raw: string, keys: readonly string[], out: (string | undefined)[]): void {
  const n = keys.length;
  for (let k = 0; k < n; k++) {
    out[k] = undefined;
    heldAt[k] = -1;
    earlier[k] = undefined;
  }
  const length = raw.length;
  for (let i = 0; i < length; ) {
    if (!isNameStart(charCode(raw, i))) {
      i++;
      continue;
    }
    const start = i++;
    while (i < length && isNamePart(charCode(raw, i))) i++;
    const nameLength = i - start;
    let k = 0;
    while (k < n && !(keys[k]!.length === nameLength && sameIgnoringCase(raw, start, keys[k]!))) k++;
    const named = k < n;
    let found = '';
    let j = skipSpace(raw, i, length);
    if (j < length && charCode(raw, j) === EQUALS) {
      j = skipSpace(raw, j + 1, length);
      const end = valueEnd(raw, j, length);
      if (end > j) {
        // Without its quotes (a value that opens a quote it never closes loses its last character as well).
        if (named) found = charCode(raw, j) === 0x22 || charCode(raw, j) === 0x27 ? raw.slice(j + 1, end - 1) : raw.slice(j, end);
        i = end;
      }
    }
    if (!named) continue;
    // The key's name as written that holds, by where it was first written; names written in another case before it
    // are in `earlier`: seen again later, they are not new.
    const held = heldAt[k]!;
    if (held !== -1 && sameAsWritten(raw, held, start, nameLength)) {
      if (out[k] === '') out[k] = found;
    } else if (!earlier[k]?.some((at) => sameAsWritten(raw, at, start, nameLength))) {
      if (held !== -1) (earlier[k] ??= []).push(held);
      heldAt[k] = start;
      out[k] = found;
    }
  }
  for (let k = 0; k < n; k++) if (out[k] !== undefined) out[k] = decodeAttribute(out[k]!);
}
// attributeValues' state by key, kept between calls: it makes nothing of its own on most elements.
const heldAt: number[] = [];
const earlier: (number[] | undefined)[] = [];

/** One attribute's value, as attributeValues reads it. */
function attributeValue(raw: string, key: string): string | undefined {
  ONE_KEY[0] = key;
  attributeValues(raw, ONE_KEY, ONE_VALUE);
  return ONE_VALUE[0];
}
const ONE_KEY: string[] = [''];
const ONE_VALUE: (string | undefined)[] = [undefined];

/** Whether the `length` characters of `raw` at `a` and at `b` are the same, case included. */
function sameAsWritten(raw: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (charCode(raw, a + k) !== charCode(raw, b + k)) return false;
  return true;
}

/** Whether `raw` from `at` reads `key` (lower case), ASCII letters in either case. */
function sameIgnoringCase(raw: string, at: number, key: string): boolean {
  for (let k = 0; k < key.length; k++) {
    const c = charCode(raw, at + k);
    if ((isUpperCase(c) ? c + 0x20 : c) !== charCode(key, k)) return false;
  }
  return true;
}

const isUpperCase = (c: number): boolean => c >= 0x41 && c <= 0x5a;

const EQUALS = 0x3d;

/** `_`, ASCII letters, and `()[]#@$.?:`. */
const isNameStart = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x28 || c === 0x29 || c === 0x5b || c === 0x5d || c === 0x23 || c === 0x40 || c === 0x24 || c === 0x2e || c === 0x3f || c === 0x3a;

/** ASCII letters and digits, and `-._:()[]#`. */
const isNamePart = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x3a || c === 0x28 || c === 0x29 || c === 0x5b || c === 0x5d || c === 0x23;

function skipSpace(raw: string, i: number, length: number): number {
  while (i < length && isWhiteSpace(charCode(raw, i))) i++;
  return i;
}

/** Just past the value starting at `i`: a quoted one (quotes that close), else up to white space; `i` when none. */
function valueEnd(raw: string, i: number, length: number): number {
  if (i >= length) return i;
  const c = charCode(raw, i);
  if (c === 0x22 || c === 0x27) {
    const shut = raw.indexOf(raw[i]!, i + 1);
    if (shut !== -1) return shut + 1;
  }
  let end = i;
  while (end < length && !isWhiteSpace(charCode(raw, end))) end++;
  return end;
}

/**
 * The first element from `start` on, in document order inside `root`, that `test` accepts: null when none does.
 * `test` may be a visit that never accepts, to see every element.
 */
export function findElement(start: Node | null, root: Node, test: (el: HTMLElement) => boolean): HTMLElement | null {
  for (let node = start; node !== null; node = nextNode(node, root)) if (isElement(node) && test(node)) return node;
  return null;
}

/** The first element in `nodes` or below them, in document order, that `test` accepts. */
function findIn(test: (el: HTMLElement) => boolean, nodes: readonly Node[]): HTMLElement | null {
  for (const node of nodes) {
    const found = findElement(node, node, test);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Loaded by the first selector query. Reading a page asks none (its readers find elements by tag: `descendantsByTag`,
 * the TreeIndex); extraction's DOM patterns do. Loaded with the tree, css-select and what it imports (domutils, the
 * entities' tables) were half of a page reader's start, 37 of 75 ms, in a crawl's first second (docs/benchmarks.md).
 */
const cssSelect = onFirstUse<typeof import('css-select')>('css-select');

/** `node`'s children, in a list made at each call: what css-select asks of a tree. */
function childNodesOf(node: Node): Node[] {
  const out: Node[] = [];
  if (isElement(node)) for (let child = node.firstChild; child !== null; child = child.nextSibling) out.push(child);
  return out;
}

/**
 * How css-select reads the tree. XML mode, so names and attributes are compared as the adapter gives them: the
 * adapter gives tags in lower case and finds attributes by their lower-case name, which is HTML's rule.
 */
const adapter: NonNullable<Options<Node, HTMLElement>['adapter']> = {
  isTag: isElement,
  getName: (el) => el.name,
  getAttributeValue: (el, name) => el.getAttribute(name),
  hasAttrib: (el, name) => el.getAttribute(name) !== undefined,
  getChildren: childNodesOf,
  getParent: (node) => node.parentNode,
  getSiblings: (node) => (node.parentNode === null ? [node] : childNodesOf(node.parentNode)),
  getText: (node) => node.text,
  existsOne: (test, nodes) => findIn(test, nodes) !== null,
  findOne: findIn,
  findAll(test, nodes) {
    const found: HTMLElement[] = [];
    findIn((el) => {
      if (test(el)) found.push(el);
      return false;
    }, nodes);
    return found;
  },
  removeSubsets(nodes) {
    const kept = new Set(nodes);
    return [...kept].filter((node) => {
      for (let up = node.parentNode; up; up = up.parentNode) if (kept.has(up)) return false;
      return true;
    });
  },
};
