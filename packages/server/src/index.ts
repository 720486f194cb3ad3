export { createServer, startServer, type ServerOptions, type StartOptions, type RunningServer } from './app.js';
export { buildOpenApiDocument, ErrorResponseSchema } from './openapi.js';
export { routeOf, type RouteDef, type RouteAuth, type RouteHttp } from './route.js';
export { inProcessFetch } from './in-process.js';
export { createMcpServer, type McpServerOptions } from './mcp/server.js';
export { MCP_TOOLS, type McpTool } from './mcp/tools.js';
export type { McpHttpOptions } from './mcp/http.js';
export type { RequestLogOptions, LogLevel } from './request-log.js';
