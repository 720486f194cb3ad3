import { parse, type HTMLElement, type Node } from 'node-html-parser';

export type { HTMLElement, Node };

export const ELEMENT = 1;
export const TEXT = 3;

/** Pages larger than this are cut before parsing: the parser's cost grows with them and content rarely needs more. */
export const MAX_HTML_CHARS = 3_000_000;

export function parseDocument(html: string): HTMLElement {
  return parse(html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html, {
    comment: false,
    lowerCaseTagName: false,
    blockTextElements: { script: true, style: true, noscript: true, textarea: true },
  });
}

export const isElement = (node: Node): node is HTMLElement => node.nodeType === ELEMENT;

export const tagOf = (el: HTMLElement): string => (el.tagName ?? '').toLowerCase();

export const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Text of an element (entities already decoded by the parser) with white space folded. */
export const textOf = (el: HTMLElement): string => collapse(el.text);
