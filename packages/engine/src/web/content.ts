import { normalizeUrl } from '../html/url.js';
import { decodeText } from './charset.js';
import type { FetchedPage } from './types.js';

export type PageKind = FetchedPage['kind'];

export function kindOf(contentType: string, bytes: Uint8Array): PageKind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/pdf') return 'pdf';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/xml' || type === 'application/xml' || type.endsWith('+xml')) return 'xml';
  if (type.startsWith('text/')) return 'text';
  if (type === '' || type === 'application/octet-stream') return sniff(bytes);
  return 'binary';
}

/** For answers without a usable Content-Type: the first bytes tell PDFs and markup apart. */
function sniff(bytes: Uint8Array): PageKind {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1').replace(/^\xEF\xBB\xBF/, '').trimStart();
  if (head.startsWith('%PDF-')) return 'pdf';
  if (/^<(!doctype html|html|head|body)/i.test(head)) return 'html';
  if (head.startsWith('<?xml')) return 'xml';
  return 'binary';
}

export interface PageContent {
  kind: PageKind;
  body: string | null;
  charset: string | null;
  canonicalUrl: string | null;
}

export async function readContent(bytes: Uint8Array, contentType: string, url: string): Promise<PageContent> {
  const kind = kindOf(contentType, bytes);
  if (kind === 'binary') return { kind, body: null, charset: null, canonicalUrl: null };
  if (kind === 'pdf') return { kind, body: await pdfText(bytes), charset: null, canonicalUrl: null };
  const { text, charset } = decodeText(bytes, contentType, kind === 'html');
  return { kind, body: text, charset, canonicalUrl: kind === 'html' ? canonicalOf(text, url) : null };
}

async function pdfText(bytes: Uint8Array): Promise<string | null> {
  // pdf.js is large (about a second of CPU and tens of MB to load): pay for it when a PDF arrives, not at start-up.
  const { PDFParse } = await import('pdf-parse');
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const result = await parser.getText({ pageJoiner: '' });
    return result.text.trim();
  } catch {
    return null;
  } finally {
    await parser.destroy();
  }
}

/** Reads `<link rel="canonical">` from the head without a full parse (the crawler parses later). */
export function canonicalOf(html: string, base: string): string | null {
  const end = html.search(/<\/head>/i);
  const head = end >= 0 ? html.slice(0, end) : html.slice(0, 65_536);
  for (const tag of head.match(/<link\b[^>]*>/gi) ?? []) {
    if (!/\brel\s*=\s*["']?[^"'>]*\bcanonical\b/i.test(tag)) continue;
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    const value = href?.[1] ?? href?.[2] ?? href?.[3];
    if (value) return normalizeUrl(value, base);
  }
  return null;
}
