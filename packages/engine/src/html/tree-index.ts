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
  /** Elements whose raw attributes mention one of SEARCHED_ATTRIBUTES, in document order. */
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

  /** Elements of any of these tags, in document order. */
  tags(names: readonly string[]): HTMLElement[] {
    if (names.length === 1) return this.tag(names[0]!);
    return names.flatMap((name) => this.tag(name)).sort((a, b) => a.index - b.index);
  }

  /** Elements carrying the attribute (`[name]`, one of SEARCHED_ATTRIBUTES), in document order. */
  withAttribute(name: SearchedAttribute): HTMLElement[] {
    return this.searched.filter((el) => mayHold(el, name) && el.getAttribute(name) !== undefined);
  }

  /**
   * The first element matching `test` whose raw attributes mention one of `hints` (SEARCHED_ATTRIBUTES, a cheap
   * pre-filter `test` must imply).
   */
  first(hints: readonly SearchedAttribute[], test: (el: HTMLElement) => boolean): HTMLElement | undefined {
    // A loop, not find and some: a closure over each element would be garbage made for nearly every element.
    for (let i = 0; i < this.searched.length; i++) {
      const el = this.searched[i]!;
      if (mayHoldAny(el, hints) && test(el)) return el;
    }
    return undefined;
  }
}

/** The words `withAttribute` and `first` look for in raw attributes: the walk keeps the elements that mention one. */
const SEARCHED_ATTRIBUTES = ['itemscope', 'property', 'author', 'byline'] as const;
type SearchedAttribute = (typeof SEARCHED_ATTRIBUTES)[number];
const SEARCHED_MENTION = new RegExp(SEARCHED_ATTRIBUTES.join('|'), 'i');

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
