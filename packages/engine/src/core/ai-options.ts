export interface AiOptions {
  /** `heuristic` (default unless a base URL is configured) or `openai`. */
  provider?: 'heuristic' | 'openai';
  /** OpenAI-compatible base URL including `/v1`; default `WVR_AI_BASE_URL`. */
  baseUrl?: string;
  /** Default `WVR_AI_API_KEY`; local servers usually need none. */
  apiKey?: string;
  /** Default `WVR_AI_MODEL`, else `gpt-4o-mini`. */
  model?: string;
  embeddingModel?: string;
  /** Per-call limit in ms; default 20000. */
  timeoutMs?: number;
}

export type ResolvedAi =
  | { provider: 'heuristic' }
  | { provider: 'openai'; baseUrl: string; apiKey: string | undefined; model: string; embeddingModel: string | undefined; timeoutMs: number };

/** Engine options win over the environment; `openai` without a base URL falls back to OpenAI's own. */
export function resolveAi(options: AiOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedAi {
  const baseUrl = options.baseUrl ?? env.WVR_AI_BASE_URL;
  const provider = options.provider ?? (baseUrl ? 'openai' : 'heuristic');
  if (provider === 'heuristic') return { provider };
  return {
    provider,
    baseUrl: baseUrl ?? 'https://api.openai.com/v1',
    apiKey: options.apiKey ?? env.WVR_AI_API_KEY,
    model: options.model ?? env.WVR_AI_MODEL ?? 'gpt-4o-mini',
    embeddingModel: options.embeddingModel,
    timeoutMs: options.timeoutMs ?? 20_000,
  };
}
