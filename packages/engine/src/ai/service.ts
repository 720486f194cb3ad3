import type { z } from 'zod';
import type { ResolvedAi } from '../core/ai-options.js';
import { hashedEmbedding, heuristicProvider } from './heuristic.js';
import { openAiProvider } from './openai.js';
import { NO_USAGE, type FallbackReason, type ModelProvider, type ObjectRequest, type ProviderResult, type TextRequest, type Usage } from './provider.js';

/** Where an answer came from: `llm` when the configured model answered, `heuristic` otherwise. */
export interface AiAnswer<T> {
  value: T;
  source: 'llm' | 'heuristic';
  provider: string;
  model: string;
  /** Only when a model was configured and failed. */
  fallbackReason?: FallbackReason;
  fallbackMessage?: string;
  usage: Usage;
}

export interface AiUsage {
  provider: string;
  model: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  fallbacks: Record<FallbackReason, number>;
}

/**
 * `engine.ai`: runs a task on the configured provider and, when it fails, on the caller's
 * heuristic, recording the reason. Callers never see a provider error.
 */
export class AiService {
  readonly provider: ModelProvider;
  private readonly totals: AiUsage;

  constructor(config: ResolvedAi, provider?: ModelProvider) {
    this.provider =
      provider ?? (config.provider === 'openai' ? openAiProvider(config) : heuristicProvider());
    this.totals = {
      provider: this.provider.name,
      model: this.provider.model,
      calls: 0,
      promptTokens: 0,
      completionTokens: 0,
      fallbacks: { timeout: 0, parse_error: 0, provider_error: 0, rate_limited: 0 },
    };
  }

  /** True when answers can come from a model rather than heuristics. */
  get usesModel(): boolean {
    return this.provider.name !== 'heuristic';
  }

  async object<S extends z.ZodType>(request: ObjectRequest<S>): Promise<AiAnswer<z.output<S>>> {
    return this.settle(await guarded(() => this.provider.generateObject(request)), request.heuristic);
  }

  async text(request: TextRequest): Promise<AiAnswer<string>> {
    return this.settle(await guarded(() => this.provider.generateText(request)), request.heuristic);
  }

  /** Vectors from the provider, else the heuristic's hashed bag of words. */
  async embed(texts: string[], options: { timeoutMs?: number } = {}): Promise<AiAnswer<number[][]>> {
    const own = () => texts.map(hashedEmbedding);
    if (!this.provider.embed) return { value: own(), source: 'heuristic', provider: 'heuristic', model: 'heuristic-v1', usage: NO_USAGE };
    const embed = this.provider.embed.bind(this.provider);
    return this.settle(await guarded(() => embed(texts, options)), own);
  }

  usage(): AiUsage {
    return { ...this.totals, fallbacks: { ...this.totals.fallbacks } };
  }

  private settle<T>(result: ProviderResult<T>, heuristic: () => T): AiAnswer<T> {
    this.totals.calls += 1;
    this.totals.promptTokens += result.usage.promptTokens;
    this.totals.completionTokens += result.usage.completionTokens;
    const viaModel = this.usesModel;
    if (result.ok) {
      return { value: result.value, source: viaModel ? 'llm' : 'heuristic', provider: this.provider.name, model: this.provider.model, usage: result.usage };
    }
    this.totals.fallbacks[result.reason] += 1;
    return {
      value: heuristic(),
      source: 'heuristic',
      provider: this.provider.name,
      model: this.provider.model,
      fallbackReason: result.reason,
      fallbackMessage: result.message,
      usage: result.usage,
    };
  }
}

/** A provider that throws despite its contract (a third-party one, a schema it cannot express) still only falls back. */
async function guarded<T>(call: () => Promise<ProviderResult<T>>): Promise<ProviderResult<T>> {
  try {
    return await call();
  } catch (error) {
    return { ok: false, reason: 'provider_error', message: error instanceof Error ? error.message : String(error), usage: NO_USAGE };
  }
}
