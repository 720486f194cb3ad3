import { isElement, tagOf, type HTMLElement } from './dom.js';

/**
 * The elements of one parsed page in document order, grouped by tag, from a single walk. The
 * page readers (metadata, links, headings, images) used to run a dozen whole-tree selector
 * queries each, and an attribute selector reads every element's attributes. Here each question
 * is a look-up or one pass over a flat list, and an attribute is only read on elements whose raw
 * attribute text can hold it.
 */
export class TreeIndex {
  /** Every element below the root, in document order. */
  readonly elements: HTMLElement[] = [];
  private readonly byTag = new Map<string, HTMLElement[]>();

  constructor(root: HTMLElement) {
    // Iterative, so a deeply nested page cannot overflow the stack here.
    const stack: HTMLElement[] = [root];
    while (stack.length > 0) {
      const el = stack.pop()!;
      if (el !== root) {
        this.elements.push(el);
        const tag = tagOf(el);
        let list = this.byTag.get(tag);
        if (!list) this.byTag.set(tag, (list = []));
        list.push(el);
      }
      const children = el.childNodes;
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i]!;
        if (isElement(child)) stack.push(child);
      }
    }
  }

  /** Elements of one tag (lower case), in document order. */
  tag(name: string): HTMLElement[] {
    return this.byTag.get(name) ?? [];
  }

  /** Elements of any of these tags, in document order. */
  tags(names: readonly string[]): HTMLElement[] {
    if (names.length === 1) return this.tag(names[0]!);
    const wanted = new Set(names);
    return this.elements.filter((el) => wanted.has(tagOf(el)));
  }

  /** Elements carrying the attribute (`[name]`), in document order. */
  withAttribute(name: string, among: HTMLElement[] = this.elements): HTMLElement[] {
    return among.filter((el) => mayHold(el, name) && el.getAttribute(name) !== undefined);
  }

  /** The first element matching `test` whose raw attributes mention one of `hints` (a cheap pre-filter `test` must imply). */
  first(hints: readonly string[], test: (el: HTMLElement) => boolean, among: HTMLElement[] = this.elements): HTMLElement | undefined {
    // Loops, not find and some: a closure over each element would be garbage made for nearly every element.
    for (let i = 0; i < among.length; i++) {
      const el = among[i]!;
      if (mayHoldAny(el, hints) && test(el)) return el;
    }
    return undefined;
  }
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
