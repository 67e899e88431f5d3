/**
 * The Engram MCP server: the memory tools and the rules/profile resources over one
 * engine, limited to the scopes it was created with. Transports are the caller's choice (stdio,
 * Streamable HTTP, in-memory for tests).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Engram } from '../../engram.js';
import { assertReadScopes, type Scope } from '../../core/scope.js';
import { guardRequestParams } from './guard-request-params.js';
import { guardToolArguments } from './guard-tool-arguments.js';
import { registerResources } from './resources.js';
import { registerKnowledgeTools } from './tools/knowledge-tools.js';
import { registerMemoryTools } from './tools/memory-tools.js';
import { registerMaintenanceTools } from './tools/maintenance-tools.js';

export interface McpServerOptions {
  engram: Engram;
  /** The scopes tool calls may use (at least one); the first is the default for writes. */
  scopes: readonly Scope[];
  /** Server name reported to clients (default "engram"). */
  name?: string;
  version?: string;
}

/** The tool names (a contract: clients depend on them). */
export const MCP_TOOL_NAMES = [
  'memory_remember',
  'memory_recall',
  'memory_context',
  'memory_get',
  'memory_update',
  'memory_forget',
  'memory_relate',
  'memory_consolidate',
  'memory_predict',
  'memory_stats',
  'memory_list',
  'memory_surface',
  'memory_decay',
  'memory_expire',
] as const;

/**
 * Creates an MCP server over `engram`, limited to `scopes`. Connect it to a transport.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { createMcpServer } from 'engram/mcp';
 * const server = createMcpServer({ engram, scopes: ['acme/users/alice'] });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const scopes = assertReadScopes([...(options.scopes ?? [])]);
  const server = new McpServer(
    { name: options.name ?? 'engram', version: options.version ?? '0.1.0' },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: [
        'Engram is your long-term memory.',
        'At the start of a task call memory_context with the user message; store what is worth keeping with memory_remember',
        '(facts as layer "semantic", rules as "procedural", events as "episodic"); search with memory_recall.',
        `Scopes open to you: ${scopes.join(', ')} (writes default to ${scopes[0]}).`,
      ].join(' '),
    },
  );
  const context = { engram: options.engram, scopes };
  registerMemoryTools(server, context);
  registerKnowledgeTools(server, context);
  registerMaintenanceTools(server, context);
  registerResources(server, context);
  guardToolArguments(server);
  guardRequestParams(server);
  return server;
}
