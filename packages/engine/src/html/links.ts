import { collapse, tagOf, type HTMLElement } from './dom.js';
import { isChrome } from './chrome.js';
import { resolveUrl } from './url.js';

export type LinkRegion = 'main' | 'nav' | 'header' | 'footer' | 'aside';

export interface PageLink {
  url: string;
  text: string;
  rel: string[];
  nofollow: boolean;
  /** About twenty words around the link, for judging what it points at. */
  context: string;
  region: LinkRegion;
}

/** Every http(s) link on the page with what a crawler needs to judge it. */
export function readLinks(root: HTMLElement, base: string): PageLink[] {
  const links: PageLink[] = [];
  for (const a of root.querySelectorAll('a[href], area[href]')) {
    const url = resolveUrl(a.getAttribute('href'), base);
    if (!url) continue;
    const rel = (a.getAttribute('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const img = a.querySelector('img');
    const text = collapse(a.text) || a.getAttribute('aria-label') || a.getAttribute('title') || img?.getAttribute('alt') || '';
    links.push({ url, text: collapse(text), rel, nofollow: rel.includes('nofollow'), context: contextOf(a), region: regionOf(a) });
  }
  return links;
}

function regionOf(el: HTMLElement): LinkRegion {
  for (let node = el.parentNode as HTMLElement | null; node && node.tagName; node = node.parentNode as HTMLElement | null) {
    const tag = tagOf(node);
    const role = node.getAttribute('role') ?? '';
    if (tag === 'nav' || role === 'navigation') return 'nav';
    if (tag === 'footer' || role === 'contentinfo') return 'footer';
    if (tag === 'aside' || role === 'complementary') return 'aside';
    if (tag === 'header' || role === 'banner') return 'header';
    if (tag === 'main' || tag === 'article') return 'main';
    if (isChrome(node)) return 'nav';
  }
  return 'main';
}

function contextOf(a: HTMLElement): string {
  let block = a.parentNode as HTMLElement | null;
  while (block?.tagName && ['a', 'span', 'strong', 'em', 'b', 'i', 'small'].includes(tagOf(block))) block = block.parentNode as HTMLElement | null;
  const words = collapse(block?.text ?? a.text).split(' ');
  const anchor = collapse(a.text).split(' ')[0] ?? '';
  const at = Math.max(0, words.indexOf(anchor));
  return words.slice(Math.max(0, at - 10), at + 10).join(' ');
}
