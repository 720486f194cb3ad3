import { collapse, parseDocument, tagOf, textOf } from './dom.js';
import { mainContent, render } from './content.js';
import { readLinks, type PageLink } from './links.js';
import { readMetadata, type PageMetadata } from './metadata.js';
import { resolveUrl } from './url.js';

export interface ParsedPage extends PageMetadata {
  url: string;
  headings: { level: number; text: string }[];
  links: PageLink[];
  /** Main content without navigation and boilerplate; paragraphs separated by blank lines. */
  text: string;
  markdown: string;
  wordCount: number;
  nextPage: string | null;
  images: { src: string; alt: string }[];
}

/** Everything wvr reads from an HTML page. Never throws: bad HTML gives what could be read. */
export function parseHtml(html: string, pageUrl: string): ParsedPage {
  try {
    return parseTree(html, pageUrl);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // Pathologically deep nesting overflows any recursive walk; wrappers carry no meaning, so flatten them.
    return parseTree(html.replace(/<\/?(div|span|section|font|center)\b[^>]*>/gi, ' '), pageUrl);
  }
}

function parseTree(html: string, pageUrl: string): ParsedPage {
  const root = parseDocument(html);
  const baseHref = root.querySelector('base[href]')?.getAttribute('href');
  const base = (baseHref && resolveUrl(baseHref, pageUrl)) || pageUrl;
  const metadata = readMetadata(root, base);
  const links = readLinks(root, base);
  const headings = root
    .querySelectorAll('h1, h2, h3, h4, h5, h6')
    .map((h) => ({ level: Number(tagOf(h).slice(1)), text: textOf(h) }))
    .filter((h) => h.text);
  const images = root
    .querySelectorAll('img[src]')
    .map((img) => ({ src: resolveUrl(img.getAttribute('src'), base), alt: collapse(img.getAttribute('alt') ?? '') }))
    .filter((i): i is { src: string; alt: string } => i.src !== null);
  const nextPage = nextPageOf(root, links, base);
  // Content last: it strips the tree in place.
  const { text, markdown } = render(mainContent(root), base);
  return {
    url: pageUrl,
    ...metadata,
    headings,
    links,
    text,
    markdown,
    wordCount: text ? text.split(/\s+/).length : 0,
    nextPage,
    images,
  };
}

function nextPageOf(root: ReturnType<typeof parseDocument>, links: PageLink[], base: string): string | null {
  const declared = root.querySelector('link[rel="next"]')?.getAttribute('href');
  if (declared) return resolveUrl(declared, base);
  return links.find((l) => l.rel.includes('next') || /^(next( page)?|›|»|→|next ›|next »)$/i.test(l.text))?.url ?? null;
}
