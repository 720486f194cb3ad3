import type { FastifyInstance, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ALL_SCOPES, isWvrError, type Engine, type Principal } from '@wvr/engine';
import type { RouteDef } from '../route.js';
import { baseUrlOf } from '../public-url.js';
import { createMcpServer } from './server.js';

export interface McpHttpOptions {
  /**
   * Authorization servers named in the protected-resource metadata (RFC 9728), for MCP clients
   * that sign in through an agent platform. Their access tokens are wvr tokens and are checked
   * like any other. Default: WVR_OAUTH_ISSUER when set.
   */
  authorizationServers?: string[];
  /** The server's public base URL, when it differs from what the Host header says (behind a proxy). */
  publicUrl?: string;
}

interface Wiring {
  engine: Engine;
  routes: RouteDef[];
  authenticate(header: string | undefined): Principal | Promise<Principal>;
  consumeRateLimit(principal: Principal): Promise<Record<string, string>>;
  options: McpHttpOptions;
}

const METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * MCP over Streamable HTTP at /mcp, stateless: every POST carries its own bearer token and
 * gets a fresh server for that caller, so any instance behind a load balancer can answer it.
 */
export function registerMcp(app: FastifyInstance, wiring: Wiring): void {
  const authorizationServers =
    wiring.options.authorizationServers ?? (process.env.WVR_OAUTH_ISSUER ? [process.env.WVR_OAUTH_ISSUER] : []);
  const baseOf = (request: FastifyRequest) => baseUrlOf(request, wiring.options.publicUrl);

  const metadata = async (request: FastifyRequest) => ({
    resource: `${baseOf(request)}/mcp`,
    authorization_servers: authorizationServers,
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'wvr',
    resource_documentation: `${baseOf(request)}/v1/openapi.json`,
  });
  app.get(METADATA_PATH, metadata);
  app.get(`${METADATA_PATH}/mcp`, metadata);

  app.post('/mcp', async (request, reply) => {
    let principal: Principal;
    try {
      principal = await wiring.authenticate(request.headers.authorization);
    } catch (error) {
      // Tells an MCP client where to find the authorization server (MCP authorization spec).
      if (isWvrError(error) && error.status === 401) {
        reply.header('WWW-Authenticate', `Bearer resource_metadata="${baseOf(request)}${METADATA_PATH}"`);
      }
      throw error;
    }
    const headers = await wiring.consumeRateLimit(principal);
    // The POST itself paid for one tool call; every further call in a JSON-RPC batch pays its own,
    // and the response carries the rate-limit headers as they stand after the last one.
    let prepaid = 1;
    const meterToolCall = async () => {
      if (prepaid-- > 0) return;
      const latest = await wiring.consumeRateLimit(principal);
      if (!reply.raw.headersSent) for (const [name, value] of Object.entries(latest)) reply.raw.setHeader(name, value);
    };
    const server = createMcpServer({ engine: wiring.engine, principal, routes: wiring.routes, meterToolCall });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  const notAllowed = async (_request: FastifyRequest, reply: import('fastify').FastifyReply) =>
    reply
      .status(405)
      .header('Allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'This MCP endpoint is stateless: POST each message.' }, id: null });
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}
