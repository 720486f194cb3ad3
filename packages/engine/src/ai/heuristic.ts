import { NO_USAGE, type ModelProvider, type ObjectRequest, type ProviderResult, type TextRequest } from './provider.js';
import type { z } from 'zod';
import { words } from '../text/tokens.js';

const DIMENSIONS = 256;

/**
 * The offline, deterministic provider: answers with the caller's own heuristic, and embeds
 * text as hashed bags of words (good enough for lexical similarity, and identical across runs).
 */
export function heuristicProvider(): ModelProvider {
  return {
    name: 'heuristic',
    model: 'heuristic-v1',
    async generateObject<S extends z.ZodType>(request: ObjectRequest<S>): Promise<ProviderResult<z.output<S>>> {
      return { ok: true, value: request.heuristic(), usage: NO_USAGE };
    },
    async generateText(request: TextRequest): Promise<ProviderResult<string>> {
      return { ok: true, value: request.heuristic(), usage: NO_USAGE };
    },
    async embed(texts: string[]): Promise<ProviderResult<number[][]>> {
      return { ok: true, value: texts.map(hashedEmbedding), usage: NO_USAGE };
    },
  };
}

export function hashedEmbedding(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of words(text)) {
    if (word.length < 2) continue;
    vector[fnv1a(word) % DIMENSIONS]! += 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0)) || 1;
  return vector.map((v) => v / norm);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
