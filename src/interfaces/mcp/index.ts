/**
 * The MCP interface: the server factory and its HTTP handler (`engram mcp`, `engram serve`).
 */
export { createMcpServer, MCP_TOOL_NAMES, type McpServerOptions } from './server.js';
export { createMcpHttpHandler, scopesFromRequest, allowedScopes, type McpHttpOptions } from './http-handler.js';
