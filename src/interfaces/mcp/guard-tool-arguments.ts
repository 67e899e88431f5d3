/**
 * Keeps non-object tool arguments a tool error. The SDK validates `tools/call` params before any tool
 * runs and answers a bad `arguments` (an array, a string, null) with JSON-RPC -32603, which a model
 * cannot act on; every other bad input is a tool result with `isError`, so this one is too.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { messages } from '../../core/errors.js';
import { toolError } from './error-mapping.js';

type RawHandler = (request: { params?: { name?: unknown; arguments?: unknown } }, extra: unknown) => Promise<unknown>;

/** Wraps the `tools/call` handler of `server` (call after the tools are registered). */
export function guardToolArguments(server: McpServer): void {
  // the SDK keeps its request handlers in a private map; the tools/call entry is the one to wrap
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RawHandler> })._requestHandlers;
  const original = handlers?.get('tools/call');
  if (handlers === undefined || original === undefined)
    throw new Error('guardToolArguments: the MCP SDK has no tools/call handler to wrap; register the tools first');
  handlers.set('tools/call', (request, extra) => {
    const args = request.params?.arguments;
    if (args === undefined || isPlainObject(args)) return original(request, extra);
    const name = typeof request.params?.name === 'string' ? request.params.name.slice(0, 80) : 'tool';
    return Promise.resolve(
      toolError(
        'INVALID_INPUT',
        messages.invalidInput(`${name}: arguments must be a JSON object of named fields, like {"query": "..."}, not ${describe(args)}`),
      ),
    );
  });
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
