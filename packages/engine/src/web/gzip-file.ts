import { Readable } from 'node:stream';
import { readBody } from './body.js';
import type { FetchLimits } from '../core/fetch-limits.js';
import type { FetchFailure } from './types.js';

export type GzipFileOutcome = { bytes: Buffer; contentType: string } | { failure: FetchFailure };

/**
 * A body that is itself a gzip file (a `sitemap.xml.gz`), as opposed to a gzip transfer the
 * client already undid: sites serve these as application/gzip or octet-stream with no
 * Content-Encoding. Unpacked through the same streaming decoder as transfers, so the size and
 * ratio caps stop a bomb here too. Null when the bytes are not gzip.
 */
export async function unpackGzipFile(bytes: Buffer, limits: FetchLimits): Promise<GzipFileOutcome | null> {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return null;
  let body;
  try {
    body = await readBody(Readable.from([bytes]), 'gzip', limits);
  } catch (error) {
    return { failure: { code: 'http_error', message: `undecodable gzip file: ${error instanceof Error ? error.message : String(error)}` } };
  }
  if ('failure' in body) return body;
  return { bytes: body.bytes, contentType: innerType(body.bytes) };
}

/** The file inside has no Content-Type of its own: markup is read as XML, text as text, anything with NULs as binary. */
function innerType(bytes: Buffer): string {
  const head = bytes.subarray(0, 512);
  if (head.includes(0)) return 'application/octet-stream';
  return head.toString('latin1').replace(/^\xEF\xBB\xBF/, '').trimStart().startsWith('<') ? 'application/xml' : 'text/plain';
}
