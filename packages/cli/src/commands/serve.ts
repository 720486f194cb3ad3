import { dirname } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import type { LogLevel } from '@wvr/server';
import type { Engine } from '@wvr/engine';
import { contextOf, storeOptions, type CommandContext } from '../context.js';
import { CliError } from '../output/errors.js';
import { exitIfStuck } from '../shutdown.js';
import { port, positiveInt } from './parse.js';

export function serveCommand(): Command {
  return new Command('serve')
    .description('run the wvr HTTP API over the local engine, with its background worker')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', port, 8787)
    .option('--allow-private-network', 'let the server fetch private, loopback and link-local addresses', false)
    .option('--no-worker', 'answer requests only; leave jobs, schedules and webhooks to `wvr worker` processes')
    .option('--log [level]', 'log one JSON line per request to stdout (fatal, error, warn, info, debug, trace; default info)', logLevel)
    .option('--public-url <url>', 'the base URL callers reach this server at (behind a proxy); default WVR_PUBLIC_URL')
    .action(async (opts: { host: string; port: number; allowPrivateNetwork: boolean; worker: boolean; log?: LogLevel | true; publicUrl?: string }, command: Command) => {
      const ctx = contextOf(command);
      refuseRemote(ctx, 'serve');
      const [{ createEngine }, { startServer }] = await Promise.all([import('@wvr/engine'), import('@wvr/server')]);
      const engine = createEngine({
        ...storeOptions(ctx),
        allowPrivateNetwork: opts.allowPrivateNetwork || process.env.WVR_ALLOW_PRIVATE_NETWORK === '1',
      });
      await ready(engine);
      const server = await startServer({
        engine,
        host: opts.host,
        port: opts.port,
        worker: opts.worker,
        ...(opts.log ? { log: { level: opts.log === true ? 'info' : opts.log } } : {}),
        ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
      });
      ctx.output.out(ctx.output.json ? JSON.stringify({ url: server.url }) : `wvr listening on ${server.url}`);
      await untilSignalled();
      await server.close();
      await engine.close();
    });
}

export function workerCommand(): Command {
  return new Command('worker')
    .description('run the background worker in the foreground: crawls, async searches, scheduled workflows, webhook deliveries')
    .option('--concurrency <n>', 'jobs run at once', positiveInt, 4)
    .action(async (opts: { concurrency: number }, command: Command) => {
      const ctx = contextOf(command);
      refuseRemote(ctx, 'worker');
      const { createEngine } = await import('@wvr/engine');
      // A worker fetches only what users asked for; private addresses follow the same rule as the server.
      const engine = createEngine({ ...storeOptions(ctx), allowPrivateNetwork: process.env.WVR_ALLOW_PRIVATE_NETWORK === '1' });
      await ready(engine);
      engine.start({ concurrency: opts.concurrency });
      const where = storeLabel(engine);
      ctx.output.out(ctx.output.json ? JSON.stringify({ worker: 'started', ...where }) : `wvr worker running on ${where.database ?? where.data}`);
      await untilSignalled();
      await engine.close();
    });
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

function logLevel(value: string): LogLevel {
  const level = LOG_LEVELS.find((l) => l === value);
  if (!level) throw new InvalidArgumentError(`expected one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

/** A database that cannot be reached or migrated ends the command at once, saying why, before it claims to run. */
async function ready(engine: Engine): Promise<void> {
  try {
    await engine.ready();
  } catch (error) {
    await engine.close().catch(() => undefined);
    const where = storeLabel(engine);
    throw new CliError(`Cannot open the database ${where.database ?? where.data}: ${error instanceof Error ? error.message : String(error)}`, 'database_unavailable', 1);
  }
}

/** Where the engine keeps its state, for people: the data folder, or the database URL without its password. */
function storeLabel(engine: Engine): { data?: string; database?: string } {
  const { databaseUrl, dbPath } = engine.context.options;
  if (!databaseUrl) return { data: dirname(dbPath) };
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return { database: url.toString() };
  } catch {
    return { database: 'postgres (unparsable URL)' };
  }
}

function refuseRemote(ctx: CommandContext, name: string): void {
  if (ctx.options.remote) throw new CliError(`${name} runs the local engine; drop --remote.`, 'local_only', 2);
}

/** Background loops unref their timers so that embedders can exit; a foreground command holds the process itself. */
const untilSignalled = () =>
  new Promise<void>((resolve) => {
    const hold = setInterval(() => undefined, 2 ** 30);
    const stop = () => {
      clearInterval(hold);
      exitIfStuck();
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
