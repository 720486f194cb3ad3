import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Test support: a local OpenAI-compatible chat-completions endpoint whose answer the test sets. */
export type ChatBehaviour = { kind: 'answer'; content: unknown } | { kind: 'status'; status: number } | { kind: 'silent' };

export interface ChatServer {
  baseUrl: string;
  behave(next: ChatBehaviour): void;
  requests: number;
  close(): Promise<void>;
}

export async function startChatServer(): Promise<ChatServer> {
  let behaviour: ChatBehaviour = { kind: 'status', status: 500 };
  const pending: ServerResponse[] = [];
  const state = { requests: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      state.requests += 1;
      if (behaviour.kind === 'silent') {
        pending.push(res);
        return;
      }
      if (behaviour.kind === 'status') {
        res.writeHead(behaviour.status, { 'content-type': 'application/json' }).end('{"error":"down"}');
        return;
      }
      const body = { choices: [{ message: { content: JSON.stringify(behaviour.content) } }], usage: { prompt_tokens: 10, completion_tokens: 5 } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    behave: (next) => {
      behaviour = next;
    },
    get requests() {
      return state.requests;
    },
    close: () => {
      for (const res of pending) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
