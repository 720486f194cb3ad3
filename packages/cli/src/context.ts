import type { Command } from 'commander';
import type { Engine, EngineOptions, Principal } from '@wvr/engine';
import type { WvrClient } from '@wvr/sdk';
import { CliError } from './output/errors.js';
import { consoleOutput, type Output } from './output/print.js';

const DEFAULT_LOCAL_USER = 'local@wvr.localhost';

export interface GlobalOptions {
  data?: string;
  database?: string;
  remote?: string;
  token?: string;
  user?: string;
  json?: boolean;
}

export interface CommandContext {
  /** `data` stays unset for the engine's default (~/.wvr or WVR_DATA_DIR), resolved when an engine opens. */
  options: Required<Pick<GlobalOptions, 'user'>> & GlobalOptions;
  output: Output;
  /** Whether --user (or WVR_USER) named an account, rather than the default local one. */
  userGiven: boolean;
}

export function contextOf(command: Command): CommandContext {
  const raw = command.optsWithGlobals<GlobalOptions>();
  return {
    options: {
      ...raw,
      // An empty environment variable counts as unset.
      data: raw.data || undefined,
      database: raw.database || undefined,
      user: raw.user || process.env.WVR_USER || DEFAULT_LOCAL_USER,
      remote: raw.remote || process.env.WVR_API_URL || undefined,
      token: raw.token || process.env.WVR_API_TOKEN || undefined,
    },
    userGiven: Boolean(raw.user || process.env.WVR_USER),
    output: consoleOutput(Boolean(raw.json)),
  };
}

/**
 * Where the local engine keeps its state: --database (PostgreSQL), else --data (a SQLite file in the
 * folder), else the engine's defaults (WVR_DATABASE_URL, then WVR_DATA_DIR or ~/.wvr).
 */
export function storeOptions(ctx: CommandContext): EngineOptions {
  return ctx.options.database ? { databaseUrl: ctx.options.database } : { dataDir: ctx.options.data };
}

/**
 * Opens the local engine; the local CLI may fetch the user's own network on purpose. A command runs one
 * piece of work: its page readers go as its crawl ends, before it writes the crawl's documents out.
 */
async function openLocalEngine(ctx: CommandContext, options: LocalEngineOptions = {}): Promise<Engine> {
  const { createEngine } = await import('@wvr/engine');
  return createEngine({ ...storeOptions(ctx), allowPrivateNetwork: true, readerIdleMs: 0, ...options });
}

/** What a command may set on its local engine, beside where the engine keeps its state. */
export type LocalEngineOptions = Pick<EngineOptions, 'fetchLimits'>;

export interface LocalWork {
  /**
   * Locally, nothing else may be working on the data folder, so a command that waits for queued
   * work (a crawl) has this process run the job queue while it waits. Ignored with --remote.
   */
  background?: boolean;
  /** The local engine's own options for this command (a crawl's requests per site). Ignored with --remote. */
  engine?: LocalEngineOptions;
}

/**
 * Runs a command body with the typed SDK client. Remote: over HTTP with the token. Local: the
 * same routes answered in this process over the local engine, as the --user account, so every
 * command has one code path and local and remote behave alike.
 */
export async function withClient<T>(ctx: CommandContext, fn: (client: WvrClient) => Promise<T>, local: LocalWork = {}): Promise<T> {
  const { remote } = ctx.options;
  const { createClient } = await import('@wvr/sdk');
  if (remote) {
    const client = createClient({ baseUrl: remote, token: requireToken(ctx) });
    return fn(client).catch((error: unknown) => {
      throw connectionFailure(remote, error) ?? error;
    });
  }
  return withLocalEngine(
    ctx,
    async (engine, principal) => {
      if (local.background) {
        const due = await engine.workflows.scheduler.dueCount();
        if (due > 0) {
          ctx.output.err(
            `Also running ${due} scheduled workflow(s) due on this data folder while this command works (they may spend credits); \`wvr worker\` keeps schedules on time.`,
          );
        }
        engine.start({ jobPollMs: 100 });
      }
      const { createServer, inProcessFetch } = await import('@wvr/server/local');
      // The in-process server answers the SDK only: no MCP endpoint, no API reference page to load.
      const app = await createServer({ engine, authenticate: () => principal, rateLimits: false, mcp: false, docs: false });
      try {
        return await fn(createClient({ baseUrl: 'http://wvr.local', fetch: inProcessFetch(app), retry: { attempts: 1 } }));
      } finally {
        await app.close();
      }
    },
    local.engine,
  );
}

/**
 * A request that got no answer at all (refused, unresolvable, reset) names the server it tried, in
 * the CLI's error shape; an answer with an error status stays the server's own error.
 */
export function connectionFailure(url: string, error: unknown): CliError | undefined {
  if (!(error instanceof Error) || error.name !== 'WvrConnectionError') return undefined;
  return new CliError(`Could not connect to the wvr server at ${url} (${rootCause(error)}).`, 'connection_failed', 1, [
    'Check the URL given with --remote (or WVR_API_URL) and that the server is running: wvr serve.',
    'Drop --remote to use the local engine on this machine.',
  ], 'connection_failed');
}

/** The innermost system error code (ECONNREFUSED, ENOTFOUND...) or message of a failed fetch. */
function rootCause(error: Error): string {
  let at: unknown = error;
  let reason = error.message;
  while (at instanceof Error) {
    const code = (at as { code?: unknown }).code;
    reason = typeof code === 'string' ? code : at.message;
    at = at.cause;
  }
  return reason;
}

export function requireToken(ctx: CommandContext): string {
  if (!ctx.options.token) throw new CliError('A token is needed with --remote: pass --token or set WVR_API_TOKEN.', 'token_missing', 2);
  return ctx.options.token;
}

/** Operator actions that only make sense on the machine holding the data (creating accounts, granting credits). */
export async function withLocalEngine<T>(ctx: CommandContext, fn: (engine: Engine, principal: Principal) => Promise<T>, options?: LocalEngineOptions): Promise<T> {
  if (ctx.options.remote) {
    throw new CliError('This is an operator action on the local engine; run it without --remote on the server machine.', 'local_only', 2);
  }
  const engine = await openLocalEngine(ctx, options);
  try {
    // The default account is the data folder's owner: on the `local` plan, never refused for its balance.
    // Accounts named with --user are the ones a server serves, and keep their plans.
    const user = await engine.accounts.ensureUser({ email: ctx.options.user, ...(ctx.userGiven ? {} : { plan: 'local' as const }) });
    const principal = engine.accounts.localPrincipal(user);
    return await fn(engine, principal);
  } finally {
    await engine.close();
  }
}
