import type { FastifyInstance } from 'fastify';
import { createEngine, manualClock, type Engine, type EngineOptions, type ManualClock } from '@wvr/engine';
import { createServer, type ServerOptions } from './app.js';

export interface TestServer {
  engine: Engine;
  clock: ManualClock;
  /** The real server, not listening: tests call it with app.inject. */
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface TestServerOptions {
  engine?: Omit<EngineOptions, 'dbPath' | 'clock'>;
  server?: Omit<ServerOptions, 'engine'>;
}

/** The real server over a real in-memory engine whose clock the test drives. */
export async function openTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const clock = manualClock('2026-03-10T12:00:00Z');
  const engine = createEngine({ dbPath: ':memory:', clock, secret: 'test', validateOutputs: true, ...options.engine });
  const app = await createServer({ engine, ...options.server });
  return {
    engine,
    clock,
    app,
    async close() {
      await app.close();
      await engine.close();
    },
  };
}

