import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine, type EngineOptions } from '@wvr/engine';
import { startServer } from '@wvr/server';
import { createClient, type ClientOptions, type WvrClient } from './client.js';

export interface TestApi {
  engine: Engine;
  url: string;
  /** A token of the test user, with every scope. */
  token: string;
  /** A client signed in with `token`. */
  client: WvrClient;
  close(): Promise<void>;
}

export interface TestApiOptions {
  email?: string;
  engine?: Omit<EngineOptions, 'dbPath'>;
  client?: Omit<ClientOptions, 'baseUrl' | 'token'>;
}

/** A real engine on a temp SQLite file behind the real server on loopback, with one signed-in user. */
export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const dir = mkdtempSync(join(tmpdir(), 'wvr-sdk-'));
  const engine = createEngine({ dbPath: join(dir, 'wvr.db'), ...options.engine });
  const user = await engine.accounts.ensureUser({ email: options.email ?? 'sdk@x.test' });
  const token = (await engine.tokens.issue(user.id, { name: 'sdk test' })).token;
  const server = await startServer({ engine, port: 0 });
  return {
    engine,
    url: server.url,
    token,
    client: createClient({ baseUrl: server.url, token, ...options.client }),
    async close() {
      await server.close();
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface LoopbackSite {
  origin: string;
  close(): Promise<void>;
}

/** A tiny site on 127.0.0.1: the SDK package does not depend on the testkit. */
export async function serveLoopback(handler: RequestListener): Promise<LoopbackSite> {
  const site = createServer(handler);
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}
