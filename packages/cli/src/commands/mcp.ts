import { Command } from 'commander';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { contextOf, requireToken, withLocalEngine, type CommandContext } from '../context.js';

export function mcpCommand(): Command {
  return new Command('mcp')
    .description('serve the MCP toolset over stdio: the local engine, or a wvr server with --remote')
    .action(async (_opts, command: Command) => {
      const ctx = contextOf(command);
      await (ctx.options.remote ? bridgeToRemote(ctx) : serveLocal(ctx));
    });
}

/** The tools over the local engine, acting as the --user account. */
async function serveLocal(ctx: CommandContext): Promise<void> {
  const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@wvr/server'),
  ]);
  await withLocalEngine(ctx, async (engine, principal) => {
    const server = createMcpServer({ engine, principal });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    await server.connect(transport);
    await Promise.race([closed, stdinEnded()]);
    await server.close();
  });
}

/** Relays every message between stdio and the server's /mcp endpoint, so stdio-only clients reach a remote wvr. */
async function bridgeToRemote(ctx: CommandContext): Promise<void> {
  const [{ StdioServerTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const remote = new StreamableHTTPClientTransport(new URL('/mcp', ctx.options.remote), {
    requestInit: { headers: { authorization: `Bearer ${requireToken(ctx)}` } },
  });
  const local = new StdioServerTransport();
  local.onmessage = (message) => {
    remote.send(message).catch((error: unknown) => void local.send(failureFor(message, error)));
  };
  remote.onmessage = (message) => void local.send(message);
  await remote.start();
  await local.start();
  await stdinEnded();
  await remote.close();
  await local.close();
}

function failureFor(message: JSONRPCMessage, error: unknown): JSONRPCMessage {
  const id = 'id' in message ? message.id : null;
  const text = error instanceof Error ? error.message : String(error);
  return { jsonrpc: '2.0', id: id ?? 0, error: { code: -32000, message: `The wvr server did not answer: ${text}` } };
}

const stdinEnded = () => new Promise<void>((resolve) => process.stdin.once('end', resolve).once('close', resolve));
