import type { Command } from 'commander';
import { defaultDataDir } from '@wvr/engine';
import type { Backend } from './backends/backend.js';
import { LocalBackend, DEFAULT_LOCAL_USER } from './backends/local.js';
import { RemoteBackend } from './backends/remote.js';
import { consoleOutput, type Output } from './output/print.js';

export interface GlobalOptions {
  data?: string;
  remote?: string;
  token?: string;
  user?: string;
  json?: boolean;
}

export interface CommandContext {
  options: Required<Pick<GlobalOptions, 'data' | 'user'>> & GlobalOptions;
  output: Output;
  /** Whether --user (or WVR_USER) named an account, rather than the default local one. */
  userGiven: boolean;
  /** Opens the backend the global options name; the caller closes it. */
  backend(): Backend;
}

export function contextOf(command: Command): CommandContext {
  const raw = command.optsWithGlobals<GlobalOptions>();
  const options = {
    ...raw,
    // An empty environment variable counts as unset.
    data: raw.data || defaultDataDir(),
    user: raw.user || process.env.WVR_USER || DEFAULT_LOCAL_USER,
    remote: raw.remote || process.env.WVR_API_URL || undefined,
    token: raw.token || process.env.WVR_API_TOKEN || undefined,
  };
  return {
    options,
    userGiven: Boolean(raw.user || process.env.WVR_USER),
    output: consoleOutput(Boolean(raw.json)),
    backend: () => (options.remote ? new RemoteBackend(options.remote, options.token) : new LocalBackend(options.data, options.user)),
  };
}

/** Runs a command body with a backend, closing it afterwards whatever happens. */
export async function withBackend<T>(ctx: CommandContext, fn: (backend: Backend) => Promise<T>): Promise<T> {
  const backend = ctx.backend();
  try {
    return await fn(backend);
  } finally {
    await backend.close();
  }
}
