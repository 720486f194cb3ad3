import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ENGINE_VERSION, errors, isWvrError, parseInput, requireScope, runOperation, splitInput, type Engine, type ErrorBody, type Principal } from '@wvr/engine';
import type { RouteDef } from '../route.js';
import { routes as allRoutes } from '../routes/index.js';
import { MCP_TOOLS, type McpTool } from './tools.js';

type JsonSchema = Record<string, unknown>;

export interface McpServerOptions {
  engine: Engine;
  /** Who calls: resolved from the bearer token by the HTTP transport, or the local account over stdio. */
  principal: Principal;
  routes?: RouteDef[];
  /**
   * Counts one tool call against the caller's rate limit, throwing 429 past it. The HTTP transport
   * sets it so that a JSON-RPC batch of many calls counts every call, not the one POST.
   */
  meterToolCall?: () => void | Promise<void>;
}

interface BoundTool {
  tool: McpTool;
  route: RouteDef;
}

/** An MCP server whose tools run the API's routes for one caller. */
export function createMcpServer(options: McpServerOptions): Server {
  const { engine, principal } = options;
  const tools = bindTools(options.routes ?? allRoutes);
  const server = new Server({ name: 'wvr', version: ENGINE_VERSION }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map(describeTool) }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const bound = tools.find((t) => t.tool.name === request.params.name);
    try {
      if (!bound) {
        throw errors.validation('unknown_tool', `There is no tool named ${request.params.name}.`, {
          suggestions: [`Call one of: ${tools.map((t) => t.tool.name).join(', ')}.`],
        });
      }
      const { route, tool } = bound;
      if (route.auth !== 'public' && route.auth !== 'token') requireScope(principal, route.auth);
      await options.meterToolCall?.();
      const args = request.params.arguments ?? {};
      const routeArgs = tool.adapter ? tool.adapter.toRequest(parseInput(tool.adapter.input, args, 'tool arguments')) : args;
      const result = await runOperation(engine, route.operation, principal, splitInput(route.operation, routeArgs, 'tool'), {
        validateOutput: engine.context.options.validateOutputs,
      });
      const structured = (tool.adapter ? tool.adapter.fromResponse(result) : (result ?? {})) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
    } catch (error) {
      // Tool failures are results the model can read and act on, never transport failures.
      const body: ErrorBody = isWvrError(error) ? error.toBody() : errors.internal('The tool failed unexpectedly.').toBody();
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: { ...body } };
    }
  });
  return server;
}

function bindTools(routes: RouteDef[]): BoundTool[] {
  const byOperation = new Map(routes.map((r) => [r.operationId, r]));
  return MCP_TOOLS.flatMap((tool) => {
    const route = byOperation.get(tool.operationId);
    return route ? [{ tool, route }] : [];
  });
}

/** Tools that reach out to the web (or schedule work that will). */
const OPEN_WORLD = new Set(['brand_design_system', 'map', 'monitors_create', 'search', 'search_quick', 'read_page', 'crawl', 'extract', 'ask']);

function describeTool({ tool, route }: BoundTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: (tool.adapter ? toJson(tool.adapter.input) : inputSchemaOf(route)) as Tool['inputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: route.method === 'GET',
      destructiveHint: route.method === 'DELETE',
      openWorldHint: OPEN_WORLD.has(tool.name),
    },
  };
}

/** One flat object: the route's path parameters, query parameters and body fields side by side. */
function inputSchemaOf(route: RouteDef): JsonSchema {
  const parts = [route.params, route.query, route.body].filter((s): s is z.ZodType => s !== undefined).map(toJson);
  const $defs = Object.assign({}, ...parts.map((p) => p.$defs ?? {})) as Record<string, JsonSchema>;
  const objects = parts.map((p) => resolveRoot(p, $defs));
  const properties = Object.assign({}, ...objects.map((o) => o.properties ?? {})) as Record<string, JsonSchema>;
  const required = [...new Set(objects.flatMap((o) => (o.required ?? []) as string[]))];
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(Object.keys($defs).length > 0 ? { $defs } : {}),
  };
}

function toJson(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return json;
}

function resolveRoot(json: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema {
  const ref = typeof json.$ref === 'string' ? json.$ref.replace('#/$defs/', '') : null;
  return ref ? (defs[ref] ?? json) : json;
}
