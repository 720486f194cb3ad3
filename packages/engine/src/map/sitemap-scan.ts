/**
 * Reads a sitemap (sitemaps.org 0.9) without building a document tree: one forward pass over the
 * text that picks `<loc>` and `<lastmod>` out of `<url>` or `<sitemap>` entries. A 50,000-entry
 * file is a few megabytes; a DOM of it would be many times that and slower to build than the
 * whole scan. Tolerant the way sitemap readers must be: a file cut off halfway yields the
 * entries before the cut, a prefixed root (`<sm:urlset>`) works, and extension elements of other
 * namespaces (`<image:loc>`, `<xhtml:link>`) are ignored.
 */

export type SitemapKind = 'urlset' | 'sitemapindex' | 'text';

export interface SitemapEntry {
  /** As written, entities decoded and trimmed; not yet resolved or normalised. */
  loc: string;
  lastmod: string | null;
}

export interface SitemapScan {
  /** null when the document is neither a sitemap, a sitemap index nor a plain-text list of URLs. */
  kind: SitemapKind | null;
  entries: SitemapEntry[];
  /** False when the root element was never closed (a cut-off or malformed file): the entries are what came before. */
  complete: boolean;
  /** Entries past `maxEntries`, not returned. */
  skipped: number;
}

/** The protocol's own cap on one file. */
export const MAX_SITEMAP_ENTRIES = 50_000;

export function scanSitemap(text: string, maxEntries = MAX_SITEMAP_ENTRIES): SitemapScan {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (!start.startsWith('<')) return scanText(start, maxEntries);
  return scanXml(text, maxEntries);
}

/** The protocol's plain-text form: one URL a line. Anything else in the file makes it not a sitemap. */
function scanText(text: string, maxEntries: number): SitemapScan {
  const entries: SitemapEntry[] = [];
  let skipped = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    if (/\s/.test(line) || !/^[a-z][a-z0-9+.-]*:/i.test(line)) return { kind: null, entries: [], complete: false, skipped: 0 };
    if (entries.length >= maxEntries) skipped++;
    else entries.push({ loc: line, lastmod: null });
  }
  return { kind: entries.length > 0 ? 'text' : null, entries, complete: true, skipped };
}

function scanXml(text: string, maxEntries: number): SitemapScan {
  const entries: SitemapEntry[] = [];
  let kind: SitemapKind | null = null;
  let prefix = '';
  let entryTag = '';
  let current: { loc: string | null; lastmod: string | null } | null = null;
  let complete = false;
  let skipped = 0;
  let i = 0;
  while ((i = text.indexOf('<', i)) !== -1) {
    const skipTo = skipMarkup(text, i);
    if (skipTo !== null) {
      i = skipTo;
      continue;
    }
    const end = text.indexOf('>', i);
    if (end === -1) break;
    const closing = text.charCodeAt(i + 1) === 47; // '/'
    const name = tagName(text, closing ? i + 2 : i + 1);
    const selfClosing = text.charCodeAt(end - 1) === 47;
    i = end + 1;
    if (kind === null) {
      const local = localName(name);
      if (closing || (local !== 'urlset' && local !== 'sitemapindex')) return { kind: null, entries, complete: false, skipped };
      kind = local;
      prefix = name.slice(0, name.length - local.length);
      entryTag = `${prefix}${kind === 'urlset' ? 'url' : 'sitemap'}`;
      continue;
    }
    if (closing) {
      if (name === entryTag && current) {
        if (current.loc) {
          if (entries.length >= maxEntries) skipped++;
          else entries.push({ loc: current.loc, lastmod: current.lastmod });
        }
        current = null;
      } else if (name === `${prefix}${kind}`) {
        complete = true;
        break;
      }
      continue;
    }
    if (name === entryTag) {
      current = selfClosing ? null : { loc: null, lastmod: null };
      continue;
    }
    if (!current || selfClosing) continue;
    const field = name === `${prefix}loc` ? 'loc' : name === `${prefix}lastmod` ? 'lastmod' : null;
    if (!field) continue;
    const close = text.indexOf('</', contentEnd(text, i));
    if (close === -1) break;
    current[field] = decodeXmlText(text.slice(i, close)).trim() || null;
    i = close;
  }
  return { kind, entries, complete, skipped };
}

/** Comments, processing instructions, doctypes and stray CDATA are stepped over; null when `<` opens a tag. */
function skipMarkup(text: string, at: number): number | null {
  const next = text.charCodeAt(at + 1);
  if (next === 63) return after(text, '?>', at); // '<?'
  if (next !== 33) return null; // '<!'
  if (text.startsWith('<!--', at)) return after(text, '-->', at);
  if (text.startsWith('<![CDATA[', at)) return after(text, ']]>', at);
  return after(text, '>', at);
}

const after = (text: string, marker: string, from: number): number => {
  const found = text.indexOf(marker, from + 2);
  return found === -1 ? text.length : found + marker.length;
};

/**
 * Where an element's text content ends: past any CDATA section, whose content may hold `</`.
 * CDATA is looked for only between here and the next `</`, so a file costs one pass, not one
 * scan to its end per entry.
 */
function contentEnd(text: string, from: number): number {
  let at = from;
  for (;;) {
    const close = text.indexOf('</', at);
    if (close === -1) return at;
    const cdata = text.slice(at, close).indexOf('<![CDATA[');
    if (cdata === -1) return at;
    const end = text.indexOf(']]>', at + cdata);
    if (end === -1) return text.length;
    at = end + 3;
  }
}

function tagName(text: string, from: number): string {
  let to = from;
  while (to < text.length) {
    const c = text.charCodeAt(to);
    // whitespace, '/', '>' end a name
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62) break;
    to++;
  }
  return text.slice(from, to);
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text content as the XML means it: CDATA unwrapped, the five named entities and character references decoded. */
export function decodeXmlText(raw: string): string {
  const text = raw.includes('<![CDATA[') ? raw.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_m, inner: string) => inner.replace(/&/g, '&amp;')) : raw;
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}
