import { parseHtml } from '../html/index.js';
import type { ExtractionInput } from './heuristic.js';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * A text-only page (plain text, PDF text, indexed text) as extraction input: its blank-line
 * paragraphs become <p> elements in a <main>, so the DOM and text patterns both apply to it.
 */
export function textPage(text: string, url: string, title?: string): ExtractionInput {
  const paragraphs = text.split(/\n\s*\n/).map((p) => `<p>${escape(p.trim())}</p>`).join('');
  const head = title === undefined ? '' : `<head><title>${escape(title)}</title></head>`;
  const html = `<html>${head}<body><main>${paragraphs}</main></body></html>`;
  return { page: parseHtml(html, url), html };
}
