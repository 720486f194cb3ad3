import { childElements, collapse, tagOf, textOf, type HTMLElement } from '../html/dom.js';

export interface LabelPair {
  label: string;
  value: string;
  /** The value element, for attributes such as datetime. */
  element: HTMLElement | null;
}

/** What DOM patterns read from one page, parsed once and shared by every field. */
export interface PageDom {
  root: HTMLElement;
  pairs: LabelPair[];
  mailto: string[];
  tel: string[];
}

const LABEL_MAX = 40;
const VALUE_MAX = 300;

/** Reads the patterns from a page's whole tree; scripts, styles and the like are taken out of it first. */
export function readDom(root: HTMLElement): PageDom {
  for (const junk of root.querySelectorAll('script, style, noscript, template, svg')) junk.remove();
  const hrefs = root.querySelectorAll('a[href]').map((a) => a.getAttribute('href') ?? '');
  return {
    root,
    pairs: labelPairs(root),
    mailto: hrefs.filter((h) => /^mailto:/i.test(h)).map((h) => decodeURIComponent(h.slice(7).split('?')[0]!)),
    tel: hrefs.filter((h) => /^tel:/i.test(h)).map((h) => decodeURIComponent(h.slice(4))),
  };
}

const cleanLabel = (label: string) => collapse(label).replace(/[:：]\s*$/, '').replace(/^[\s•·*-]+/, '').trim();

/** Label next to value: table rows, definition lists, and short "Label: value" elements. */
function labelPairs(root: HTMLElement): LabelPair[] {
  const pairs: LabelPair[] = [];
  const add = (label: string, valueEl: HTMLElement | null, value: string) => {
    const l = cleanLabel(label);
    const v = collapse(value);
    if (l && v && l.length <= LABEL_MAX && v.length <= VALUE_MAX) pairs.push({ label: l, value: v, element: valueEl });
  };
  for (const row of root.querySelectorAll('tr')) {
    const cells = childElements(row).filter((c) => ['th', 'td'].includes(tagOf(c)));
    if (cells.length >= 2) add(textOf(cells[0]!), cells[1]!, textOf(cells[1]!));
  }
  for (const dl of root.querySelectorAll('dl')) {
    let label: string | null = null;
    for (const child of childElements(dl)) {
      const tag = tagOf(child);
      if (tag === 'dt') label = textOf(child);
      else if (tag === 'dd' && label !== null) add(label, child, textOf(child));
      else if (tag === 'div') {
        const dt = child.querySelector('dt');
        const dd = child.querySelector('dd');
        if (dt && dd) add(textOf(dt), dd, textOf(dd));
      }
    }
  }
  for (const el of root.querySelectorAll('li, p, span, div, strong, b, label, h4, h5, h6')) {
    const text = textOf(el);
    if (text.length > LABEL_MAX + VALUE_MAX || text.length < 3) continue;
    const m = /^([^:：]{1,40})[:：]\s*(.+)$/.exec(text);
    // A container of several pairs ("SKU: 1 Category: Tools") is read through its children instead.
    if (!m || (text.match(/[:：]\s/g)?.length ?? 0) > 1) continue;
    // Nested blocks repeat their children's text; the innermost element holding the whole pair wins.
    const children = childElements(el);
    if (children.some((c) => textOf(c) === text)) continue;
    const valueEl = children.at(-1) ?? null;
    add(m[1]!, valueEl, m[2]!);
  }
  return pairs;
}

/** Text (or the telling attribute) of the first element a selector finds that has any. */
export function selectText(root: HTMLElement, selector: string, all = false): string | string[] | undefined {
  let found: HTMLElement[];
  try {
    found = root.querySelectorAll(selector);
  } catch {
    return undefined;
  }
  const values = found
    .map((el) => el.getAttribute('datetime') ?? el.getAttribute('content') ?? el.getAttribute('data-price') ?? textOf(el))
    .map((v) => collapse(v ?? ''))
    .filter((v) => v.length > 0 && v.length <= 2_000);
  if (values.length === 0) return undefined;
  return all ? [...new Set(values)] : values[0];
}
