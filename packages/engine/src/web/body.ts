import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { FetchLimits } from '../core/fetch-limits.js';
import type { FetchFailure } from './types.js';

export type BodyOutcome = { bytes: Buffer } | { failure: FetchFailure };

type Decoder = Gunzip | ReturnType<typeof createInflate> | ReturnType<typeof createBrotliDecompress>;

function decoderFor(contentEncoding: string): Decoder | null {
  switch (contentEncoding.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

/**
 * Reads a body under the size cap, decompressing as it streams so a bomb is stopped after the
 * first megabytes instead of after it filled the memory. Leaving the loop early destroys the
 * stream, which closes the connection.
 */
export async function readBody(body: Readable, contentEncoding: string, limits: FetchLimits): Promise<BodyOutcome> {
  const chunks: Buffer[] = [];
  let size = 0;
  let wireBytes = 0;
  const decoder = decoderFor(contentEncoding);
  if (!decoder) {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limits.maxBodyBytes) return tooLarge(limits, body);
      chunks.push(chunk);
    }
    return { bytes: Buffer.concat(chunks) };
  }

  body.on('data', (chunk: Buffer) => {
    wireBytes += chunk.length;
  });
  const piping = pipeline(body, decoder).catch((error: unknown) => error);
  for await (const chunk of decoder as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limits.compressionRatioFloorBytes && size > wireBytes * limits.maxCompressionRatio) {
      body.destroy();
      return {
        failure: {
          code: 'decompression_bomb',
          message: `${contentEncoding} body inflated ${Math.round(size / Math.max(wireBytes, 1))}x (cap ${limits.maxCompressionRatio}x) after ${wireBytes} bytes on the wire`,
        },
      };
    }
    if (size > limits.maxBodyBytes) return tooLarge(limits, body);
    chunks.push(chunk);
  }
  const failed = await piping;
  if (failed) throw failed;
  return { bytes: Buffer.concat(chunks) };
}

function tooLarge(limits: FetchLimits, body: Readable): BodyOutcome {
  body.destroy();
  return { failure: { code: 'body_too_large', message: `body exceeds the ${limits.maxBodyBytes}-byte cap` } };
}
