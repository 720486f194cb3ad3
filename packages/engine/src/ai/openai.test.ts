import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AiService } from './service.js';
import { openAiProvider } from './openai.js';
import { resolveAi } from '../core/ai-options.js';

type Behaviour = 'ok' | 'error' | 'rate' | 'slow' | 'malformed' | 'wrong_shape' | 'not_json';

/** A chat-completions server speaking OpenAI's wire format; the model name picks its behaviour. */
let server: Server;
let baseUrl: string;
const seen: { path: string; auth: string | undefined; body: Record<string, unknown> }[] = [];

function completion(content: string) {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'stub',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
  });
}

function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
  const body = JSON.parse(raw) as { model: string; messages: { content: string }[]; response_format?: unknown; input?: string[] };
  seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
  const send = (status: number, payload: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(payload);
  if (req.url === '/v1/embeddings') {
    return send(200, JSON.stringify({ object: 'list', data: (body.input ?? []).map((t, index) => ({ object: 'embedding', index, embedding: [t.length, 1] })), usage: { prompt_tokens: 3 } }));
  }
  switch (body.model as Behaviour) {
    case 'ok':
      return send(200, completion(body.response_format ? JSON.stringify({ price: 19.5, in_stock: true }) : 'A short answer.'));
    case 'error':
      return send(500, JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } }));
    case 'rate':
      return send(429, JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_error' } }));
    case 'slow':
      return void setTimeout(() => send(200, completion('{}')), 1_000);
    case 'malformed':
      return send(200, completion('{"price": 19.5,'));
    case 'wrong_shape':
      return send(200, completion(JSON.stringify({ price: 'cheap' })));
    case 'not_json':
      return send(200, '<html>gateway</html>');
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const Answer = z.object({ price: z.number(), in_stock: z.boolean() });
const heuristicAnswer = { price: 1, in_stock: false };
const ask = (model: Behaviour, timeoutMs = 5_000) => {
  const ai = new AiService(resolveAi({ provider: 'openai', baseUrl, apiKey: 'sk-test', model, timeoutMs }));
  return { ai, answer: ai.object({ name: 'product', system: 'Extract.', prompt: 'Page text', schema: Answer, heuristic: () => heuristicAnswer }) };
};

describe('openai provider against a chat-completions stub', () => {
  it('sends the json_schema response format with the key and returns the parsed object with usage', async () => {
    const { ai, answer } = ask('ok');
    const result = await answer;
    expect(result).toMatchObject({ value: { price: 19.5, in_stock: true }, source: 'llm', provider: 'openai', usage: { promptTokens: 42, completionTokens: 7 } });
    expect(result.fallbackReason).toBeUndefined();
    const request = seen.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.auth).toBe('Bearer sk-test');
    expect(request.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'product', strict: true, schema: { type: 'object', required: ['price', 'in_stock'] } } });
    expect(ai.usage()).toMatchObject({ calls: 1, promptTokens: 42, completionTokens: 7 });
  });

  it.each([
    ['error', 'provider_error'],
    ['rate', 'rate_limited'],
    ['malformed', 'parse_error'],
    ['wrong_shape', 'parse_error'],
    ['not_json', 'parse_error'],
  ] as const)('falls back to the heuristic when the server answers %s, recording %s', async (model, reason) => {
    const { ai, answer } = ask(model);
    const result = await answer;
    expect(result).toMatchObject({ value: heuristicAnswer, source: 'heuristic', fallbackReason: reason });
    expect(ai.usage().fallbacks[reason]).toBe(1);
  });

  it('records a timeout and falls back when the server is slower than the limit', async () => {
    const { answer } = ask('slow', 100);
    const result = await answer;
    expect(result).toMatchObject({ value: heuristicAnswer, source: 'heuristic', fallbackReason: 'timeout' });
    expect(result.fallbackMessage).toMatch(/100 ms/);
  });

  it('records provider_error when nothing listens at the base URL', async () => {
    const ai = new AiService(resolveAi({ provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'ok', timeoutMs: 2_000 }));
    const result = await ai.text({ system: 's', prompt: 'p', heuristic: () => 'extractive' });
    expect(result).toMatchObject({ value: 'extractive', fallbackReason: 'provider_error' });
  });

  it('generates plain text without a response format', async () => {
    const result = await openAiProvider({ baseUrl, model: 'ok', timeoutMs: 5_000 }).generateText({ system: 's', prompt: 'p', heuristic: () => 'x' });
    expect(result).toMatchObject({ ok: true, value: 'A short answer.' });
    expect(seen.at(-1)!.body.response_format).toBeUndefined();
  });

  it('embeds texts in input order', async () => {
    const result = await new AiService(resolveAi({ provider: 'openai', baseUrl, model: 'ok' })).embed(['ab', 'abcd']);
    expect(result).toMatchObject({ source: 'llm', value: [[2, 1], [4, 1]] });
  });
});

describe('provider configuration', () => {
  it('is heuristic by default and openai when a base URL is in the environment', () => {
    expect(resolveAi({}, {})).toEqual({ provider: 'heuristic' });
    expect(resolveAi({}, { WVR_AI_BASE_URL: 'http://127.0.0.1:11434/v1', WVR_AI_MODEL: 'llama3', WVR_AI_API_KEY: 'k' })).toMatchObject({
      provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3', apiKey: 'k',
    });
    expect(resolveAi({ model: 'mine', baseUrl: 'http://x/v1' }, { WVR_AI_MODEL: 'env' })).toMatchObject({ model: 'mine' });
  });

  it('answers with the caller heuristic and no fallback reason under the heuristic provider', async () => {
    const ai = new AiService(resolveAi({}, {}));
    const result = await ai.object({ name: 'x', system: 's', prompt: 'p', schema: Answer, heuristic: () => heuristicAnswer });
    expect(result).toEqual({ value: heuristicAnswer, source: 'heuristic', provider: 'heuristic', model: 'heuristic-v1', usage: { promptTokens: 0, completionTokens: 0 } });
    const [a, b] = (await ai.embed(['red shoes', 'red shoes'])).value;
    expect(a).toEqual(b);
  });
});

describe('a provider that breaks its contract', () => {
  it('still falls back with provider_error instead of throwing', async () => {
    const throwing = {
      name: 'custom',
      model: 'm',
      generateObject: () => Promise.reject(new Error('boom')),
      generateText: () => Promise.reject(new Error('boom')),
    };
    const ai = new AiService({ provider: 'heuristic' }, throwing);
    const result = await ai.text({ system: 's', prompt: 'p', heuristic: () => 'offline' });
    expect(result).toMatchObject({ value: 'offline', source: 'heuristic', fallbackReason: 'provider_error', fallbackMessage: 'boom' });
  });
});
