import type { z } from 'zod';

/**
 * The model layer every AI feature calls (extraction, classification, summaries, search
 * summaries, ask, stop conditions, intent assessment, planning). A provider answers with a
 * value, never a throw: a failed call carries one of the spec's fallback reason codes so the
 * caller can fall back to its deterministic heuristic and say why.
 */
export type FallbackReason = 'timeout' | 'parse_error' | 'provider_error' | 'rate_limited';
export const FALLBACK_REASONS: readonly FallbackReason[] = ['timeout', 'parse_error', 'provider_error', 'rate_limited'];

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export const NO_USAGE: Usage = { promptTokens: 0, completionTokens: 0 };

export type ProviderResult<T> =
  | { ok: true; value: T; usage: Usage }
  | { ok: false; reason: FallbackReason; message: string; usage: Usage };

export interface Prompt {
  /** Role and rules for the model. */
  system: string;
  /** The task and its material. */
  prompt: string;
  /** Per-call limit; the provider's default otherwise. */
  timeoutMs?: number;
  maxTokens?: number;
}

export interface ObjectRequest<S extends z.ZodType> extends Prompt {
  /** Short identifier sent as the JSON schema's name (letters, digits, _ and -). */
  name: string;
  /** The answer's shape: sent as JSON schema and checked on the way back. */
  schema: S;
  /**
   * The deterministic answer. The `heuristic` provider returns it; other providers ignore it
   * (the AI service uses it as the fallback).
   */
  heuristic: () => z.output<S>;
}

export interface TextRequest extends Prompt {
  /** The deterministic answer, as for ObjectRequest. */
  heuristic: () => string;
}

export interface ModelProvider {
  /** `heuristic`, `openai`. */
  readonly name: string;
  readonly model: string;
  generateObject<S extends z.ZodType>(request: ObjectRequest<S>): Promise<ProviderResult<z.output<S>>>;
  generateText(request: TextRequest): Promise<ProviderResult<string>>;
  /** Optional: providers without embeddings leave it out and callers use lexical scoring. */
  embed?(texts: string[], options?: { timeoutMs?: number }): Promise<ProviderResult<number[][]>>;
}
