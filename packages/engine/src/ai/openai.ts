import { undici } from '../core/undici.js';
import { z } from 'zod';
import {
  NO_USAGE,
  type FallbackReason,
  type ModelProvider,
  type ObjectRequest,
  type ProviderResult,
  type TextRequest,
  type Usage,
} from './provider.js';

export interface OpenAiConfig {
  /** Up to and including the version segment, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  timeoutMs: number;
  embeddingModel?: string | undefined;
}

const ChatCompletion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }) })).min(1),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).optional(),
});

const Embeddings = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().optional() })),
  usage: z.object({ prompt_tokens: z.number().optional() }).optional(),
});

type Failure = { ok: false; reason: FallbackReason; message: string; usage: Usage };
type Raw = { ok: true; json: unknown } | Failure;

/**
 * Any OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp): chat completions with a
 * `json_schema` response format for structured answers, `/embeddings` for vectors.
 */
export function openAiProvider(config: OpenAiConfig): ModelProvider {
  const base = config.baseUrl.replace(/\/+$/, '');

  async function post(path: string, body: unknown, timeoutMs: number): Promise<Raw> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
      const response = await undici().request(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal });
      const text = await response.body.text();
      if (response.statusCode === 429) return fail('rate_limited', `${path} answered 429: ${snippet(text)}`);
      if (response.statusCode < 200 || response.statusCode >= 300) {
        return fail('provider_error', `${path} answered ${response.statusCode}: ${snippet(text)}`);
      }
      try {
        return { ok: true, json: JSON.parse(text) as unknown };
      } catch {
        return fail('parse_error', `${path} answered with a body that is not JSON: ${snippet(text)}`);
      }
    } catch (error) {
      if (timedOut) return fail('timeout', `${path} gave no answer within ${timeoutMs} ms`);
      return fail('provider_error', `${path} failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async function chat(prompt: { system: string; prompt: string; timeoutMs?: number; maxTokens?: number }, responseFormat?: unknown) {
    const raw = await post(
      '/chat/completions',
      {
        model: config.model,
        messages: [
          { role: 'system', content: prompt.system },
          { role: 'user', content: prompt.prompt },
        ],
        temperature: 0,
        ...(prompt.maxTokens ? { max_tokens: prompt.maxTokens } : {}),
        ...(responseFormat ? { response_format: responseFormat } : {}),
      },
      prompt.timeoutMs ?? config.timeoutMs,
    );
    if (!raw.ok) return raw;
    const parsed = ChatCompletion.safeParse(raw.json);
    if (!parsed.success) return fail('parse_error', 'the answer is not a chat completion');
    const usage: Usage = {
      promptTokens: parsed.data.usage?.prompt_tokens ?? 0,
      completionTokens: parsed.data.usage?.completion_tokens ?? 0,
    };
    const message = parsed.data.choices[0]!.message;
    if (message.content == null) return fail('provider_error', `the model gave no content${message.refusal ? ` (refusal: ${message.refusal})` : ''}`, usage);
    return { ok: true as const, content: message.content, usage };
  }

  return {
    name: 'openai',
    model: config.model,

    async generateObject<S extends z.ZodType>(request: ObjectRequest<S>): Promise<ProviderResult<z.output<S>>> {
      const schema = z.toJSONSchema(request.schema, { target: 'draft-7', io: 'output' });
      const answer = await chat(request, { type: 'json_schema', json_schema: { name: request.name, schema, strict: true } });
      if (!answer.ok) return answer;
      let json: unknown;
      try {
        json = JSON.parse(stripFence(answer.content));
      } catch {
        return fail('parse_error', `the model's content is not JSON: ${snippet(answer.content)}`, answer.usage);
      }
      const checked = request.schema.safeParse(json);
      if (!checked.success) return fail('parse_error', `the model's JSON does not match ${request.name}: ${checked.error.issues[0]?.message ?? ''}`, answer.usage);
      return { ok: true, value: checked.data, usage: answer.usage };
    },

    async generateText(request: TextRequest): Promise<ProviderResult<string>> {
      const answer = await chat(request);
      if (!answer.ok) return answer;
      return { ok: true, value: answer.content.trim(), usage: answer.usage };
    },

    async embed(texts: string[], options: { timeoutMs?: number } = {}): Promise<ProviderResult<number[][]>> {
      const raw = await post('/embeddings', { model: config.embeddingModel ?? config.model, input: texts }, options.timeoutMs ?? config.timeoutMs);
      if (!raw.ok) return raw;
      const parsed = Embeddings.safeParse(raw.json);
      if (!parsed.success || parsed.data.data.length !== texts.length) return fail('parse_error', 'the answer is not a list of embeddings, one per input');
      const ordered = [...parsed.data.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      return { ok: true, value: ordered.map((d) => d.embedding), usage: { promptTokens: parsed.data.usage?.prompt_tokens ?? 0, completionTokens: 0 } };
    },
  };
}

function fail(reason: FallbackReason, message: string, usage: Usage = NO_USAGE): Failure {
  return { ok: false, reason, message, usage };
}

// Local servers without grammar support often wrap JSON in a Markdown fence despite the response format.
const stripFence = (text: string) => text.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');

const snippet = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);
