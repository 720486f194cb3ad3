/**
 * `@wvr/server/local`: what a client of a local engine needs, and no more. The app (created with
 * `mcp: false, docs: false`) and a fetch that calls it in-process, without the MCP SDK or the API
 * reference page the main entry loads (together about 40 MB of memory the CLI's commands never use).
 */
export { createServer, type ServerOptions } from './app.js';
export { inProcessFetch } from './in-process.js';
