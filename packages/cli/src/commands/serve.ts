import { Command } from 'commander';
import { createEngine } from '@wvr/engine';
import { startServer } from '@wvr/server';
import { contextOf } from '../context.js';
import { CliError } from '../output/errors.js';
import { port } from './parse.js';

export function serveCommand(): Command {
  return new Command('serve')
    .description('run the wvr HTTP API over the local engine')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', port, 8787)
    .option('--allow-private-network', 'let the server fetch private, loopback and link-local addresses', false)
    .action(async (opts: { host: string; port: number; allowPrivateNetwork: boolean }, command: Command) => {
      const ctx = contextOf(command);
      if (ctx.options.remote) throw new CliError('serve runs the local engine; drop --remote.', 'local_only', 2);
      const engine = createEngine({
        dataDir: ctx.options.data,
        allowPrivateNetwork: opts.allowPrivateNetwork || process.env.WVR_ALLOW_PRIVATE_NETWORK === '1',
      });
      const server = await startServer({ engine, host: opts.host, port: opts.port });
      ctx.output.out(ctx.output.json ? JSON.stringify({ url: server.url }) : `wvr listening on ${server.url}`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await server.close();
      await engine.close();
    });
}
