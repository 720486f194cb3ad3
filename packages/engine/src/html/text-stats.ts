import { isElement, tagOf, TEXT, type HTMLElement, type Node } from './dom.js';

/**
 * What the main-content scoring reads of an element's text, without its text: the length of
 * `collapse(el.text)`, its commas, and the collapsed length of the text of its `a` descendants.
 * `lead`/`trail`: the raw text starts/ends with white space (for an all-blank text: has any).
 */
export interface TextStats {
  length: number;
  commas: number;
  linked: number;
  empty: boolean;
  lead: boolean;
  trail: boolean;
}

const NONE: TextStats = { length: 0, commas: 0, linked: 0, empty: true, lead: false, trail: false };

/**
 * Text statistics of every element of one tree, each computed once from its children's. Reading
 * `el.text` per candidate costs the candidate's whole subtree, so scoring nested candidates (and
 * the `a` elements in each) grew with page size times nesting; this is one pass over the tree. The
 * figures equal those of `collapse(el.text)`: runs of white space fold to one space across child
 * boundaries, and the ends are trimmed.
 */
export class TextMeasure {
  private readonly memo = new Map<Node, TextStats>();

  of(node: Node): TextStats {
    const known = this.memo.get(node);
    if (known) return known;
    const stats = isElement(node) ? this.element(node) : node.nodeType === TEXT ? ofText(node.text) : NONE;
    this.memo.set(node, stats);
    return stats;
  }

  /** Share of the element's text that sits in links, as the scoring rules define it. */
  linkDensity(el: HTMLElement): number {
    const { length, linked } = this.of(el);
    return length === 0 ? 0 : Math.min(1, linked / length);
  }

  private element(el: HTMLElement): TextStats {
    // node-html-parser reads a <br> as a line break, whatever it holds.
    if (tagOf(el) === 'br') return ofText('\n');
    let acc = NONE;
    let linked = 0;
    for (const child of el.childNodes) {
      const stats = this.of(child);
      linked += stats.linked + (isElement(child) && tagOf(child) === 'a' ? stats.length : 0);
      acc = join(acc, stats);
    }
    return { ...acc, linked };
  }
}

function ofText(text: string): TextStats {
  const core = text.replace(/\s+/g, ' ').trim();
  let commas = 0;
  for (let i = text.indexOf(','); i !== -1; i = text.indexOf(',', i + 1)) commas++;
  const blank = /\s/.test(text);
  return {
    length: core.length,
    commas,
    linked: 0,
    empty: core.length === 0,
    lead: core.length === 0 ? blank : /^\s/.test(text),
    trail: core.length === 0 ? blank : /\s$/.test(text),
  };
}

/** Stats of the concatenation a + b (links are summed by the caller). */
function join(a: TextStats, b: TextStats): TextStats {
  if (b.empty) return { ...a, commas: a.commas + b.commas, trail: a.trail || b.lead, lead: a.empty ? a.lead || b.lead : a.lead };
  if (a.empty) return { ...b, commas: a.commas + b.commas, lead: a.lead || b.lead };
  return { length: a.length + b.length + (a.trail || b.lead ? 1 : 0), commas: a.commas + b.commas, linked: 0, empty: false, lead: a.lead, trail: b.trail };
}
