import { WvrError, errors } from '../core/errors.js';
import type { FetchedPage } from './types.js';

/**
 * For operations that read one page the caller named (extraction preview, brand): a page that
 * could not be had becomes the caller's error, said the same way everywhere. A refused address
 * is the caller's input (400); an unreachable or failing site is upstream (502).
 */
export function assertUsable(page: FetchedPage, url: string, accept: readonly FetchedPage['kind'][] = ['html', 'pdf', 'text', 'xml', 'json']): void {
  if (page.error) {
    if (page.error.code === 'ssrf_blocked' || page.error.code === 'unsupported_scheme') {
      throw errors.validation('url_not_allowed', `Cannot fetch ${url}: ${page.error.message}.`, { details: { url, fetch_error: page.error.code } });
    }
    throw fetchFailed(url, page.status, page.error.code, page.error.message);
  }
  if (page.status >= 400) throw fetchFailed(url, page.status, 'http_error', `the server answered ${page.status}`);
  if (page.body === null || !accept.includes(page.kind)) {
    throw errors.validation('unsupported_content', `${url} answered with ${page.contentType || 'binary content'}, which this operation cannot read.`, {
      details: { url, content_type: page.contentType, kind: page.kind },
    });
  }
}

function fetchFailed(url: string, status: number, code: string, message: string): WvrError {
  return new WvrError('upstream_error', `Could not fetch ${url}: ${message}. No credits were charged.`, {
    code: 'fetch_failed',
    details: { url, status, fetch_error: code },
    suggestions: ['Check that the URL opens in a browser, then retry.'],
  });
}
