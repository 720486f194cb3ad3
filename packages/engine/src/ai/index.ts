export { AiService, type AiAnswer, type AiUsage } from './service.js';
export { resolveAi, type AiOptions, type ResolvedAi } from '../core/ai-options.js';
export { heuristicProvider, hashedEmbedding } from './heuristic.js';
export { openAiProvider, type OpenAiConfig } from './openai.js';
export { FALLBACK_REASONS, type FallbackReason, type ModelProvider, type ObjectRequest, type TextRequest, type ProviderResult, type Usage } from './provider.js';
