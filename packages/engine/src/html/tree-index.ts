import { isElement, nextNode, tagOf, type HTMLElement } from './dom.js';

/**
 * The elements of one parsed page grouped by tag, and those whose attributes the readers search, from a single walk.
 * The page readers (metadata, links, headings, images) used to run a dozen whole-tree selector queries each, and an
 * attribute selector reads every element's attributes. Here each question is a look-up or one pass over a short
 * list, and an attribute is only read on elements whose raw attribute text can hold it.
 *
 * No list of every element is kept: on a page of 40,000 elements it is an array over the 128 KB past which V8 gives
 * an object memory of its own, fresh from the system, and copied that way each time it grows.
 */
export class TreeIndex {
  private readonly byTag = new Map<string, HTMLElement[]>();
  /** Elements whose raw attributes mention one of SEARCHED_WORDS, in document order. */
  private readonly searched: HTMLElement[] = [];

  constructor(root: HTMLElement) {
    for (let node = nextNode(root, root); node !== null; node = nextNode(node, root)) {
      if (!isElement(node)) continue;
      const tag = tagOf(node);
      let list = this.byTag.get(tag);
      if (!list) this.byTag.set(tag, (list = []));
      list.push(node);
      if (node.rawAttrs !== '' && SEARCHED_MENTION.test(node.rawAttrs)) this.searched.push(node);
    }
  }

  /** Elements of one tag (lower case), in document order. */
  tag(name: string): HTMLElement[] {
    return this.byTag.get(name) ?? [];
  }

  /**
   * Elements of any of these tags, in document order: their lists merged, each being in that order already. Sorted
   * together, a 2 MB page's 5,000 links cost a millisecond of comparisons for nothing (docs/benchmarks.md).
   */
  tags(names: readonly string[]): readonly HTMLElement[] {
    let merged: readonly HTMLElement[] = [];
    for (const name of names) {
      const list = this.byTag.get(name);
      if (list) merged = merged.length === 0 ? list : inDocumentOrder(merged, list);
    }
    return merged;
  }

  /** Elements carrying the attribute (`[name]`, one of SEARCHED_ATTRIBUTES), in document order. */
  withAttribute(name: SearchedAttribute): HTMLElement[] {
    return this.searched.filter((el) => mayHold(el, name) && el.getAttribute(name) !== undefined);
  }

  /**
   * The first element matching `test` whose raw attributes mention one of `hints` (SEARCHED_WORDS, a cheap pre-filter
   * `test` must imply).
   */
  first(hints: readonly SearchedWord[], test: (el: HTMLElement) => boolean): HTMLElement | undefined {
    // A loop, not find and some: a closure over each element would be garbage made for nearly every element.
    for (let i = 0; i < this.searched.length; i++) {
      const el = this.searched[i]!;
      if (mayHoldAny(el, hints) && test(el)) return el;
    }
    return undefined;
  }
}

/** Attribute names the metadata readers look for (`withAttribute`, `first`). */
const SEARCHED_ATTRIBUTES = ['itemscope', 'property', 'author', 'byline'] as const;
type SearchedAttribute = (typeof SEARCHED_ATTRIBUTES)[number];
/** The words of a comment thread's anchor, as its id or name (main-content.ts): a page's thread is found by `first`. */
export const THREAD_WORDS = ['comment', 'respond', 'replies'] as const;
/** The words `withAttribute` and `first` look for in raw attributes: the walk keeps the elements that mention one. */
const SEARCHED_WORDS = [...SEARCHED_ATTRIBUTES, ...THREAD_WORDS] as const;
type SearchedWord = (typeof SEARCHED_WORDS)[number];
const SEARCHED_MENTION = new RegExp(SEARCHED_WORDS.join('|'), 'i');

/** Two lists of elements in document order, merged into one. */
function inDocumentOrder(a: readonly HTMLElement[], b: readonly HTMLElement[]): HTMLElement[] {
  const merged: HTMLElement[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) merged.push(a[i]!.index < b[j]!.index ? a[i++]! : b[j++]!);
  while (i < a.length) merged.push(a[i++]!);
  while (j < b.length) merged.push(b[j++]!);
  return merged;
}

/** Whether the element's raw attribute text mentions `name` at all (case-insensitive); false means it cannot carry it. */
function mayHold(el: HTMLElement, name: string): boolean {
  const raw = el.rawAttrs;
  return raw.length >= name.length && mention(name).test(raw);
}

function mayHoldAny(el: HTMLElement, names: readonly string[]): boolean {
  for (let i = 0; i < names.length; i++) if (mayHold(el, names[i]!)) return true;
  return false;
}

/** A case-insensitive search for the name, made once: lower-casing every element's attributes for each question cost more than the questions. */
function mention(name: string): RegExp {
  let pattern = mentions.get(name);
  if (!pattern) mentions.set(name, (pattern = new RegExp(name.replace(/[^a-z0-9]/gi, '\\$&'), 'i')));
  return pattern;
}
const mentions = new Map<string, RegExp>();

/** Whether the class attribute lists `name` (as `.name` matches). */
export const hasClass = (el: HTMLElement, name: string): boolean => (el.getAttribute('class') ?? '').split(/\s+/).includes(name);

/** Whether an ancestor of `el` has this tag. */
export function within(el: HTMLElement, tag: string): boolean {
  for (let node = el.parentNode as HTMLElement | null; node?.rawTagName; node = node.parentNode as HTMLElement | null) if (tagOf(node) === tag) return true;
  return false;
}
