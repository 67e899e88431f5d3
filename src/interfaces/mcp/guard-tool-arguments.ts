/**
 * Keeps every bad tool argument a tool error. The SDK validates `tools/call` before any tool runs: a
 * non-object `arguments` (an array, a string, null) is JSON-RPC -32603, and arguments its input schema
 * refuses (`k: 0`, a wrong enum value, a missing or unknown field) are a bare "MCP error -32602: Input
 * validation error" without a code. Every other bad input is a tool result with `isError` and
 * `[INVALID_INPUT] …` in the library's wording, so these are too: the guard checks the arguments
 * against the tool's own schema first and answers that way, and the SDK only ever sees valid ones.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { messages } from '../../core/errors.js';
import { parseInput } from '../../core/schemas.js';
import { toToolError, toolError } from './error-mapping.js';

type RawHandler = (request: { params?: { name?: unknown; arguments?: unknown } }, extra: unknown) => Promise<unknown>;

/** Wraps the `tools/call` handler of `server` (call after the tools are registered). */
export function guardToolArguments(server: McpServer): void {
  // the SDK keeps its request handlers and its tools in private fields; the tools/call entry is the one to wrap
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RawHandler> })._requestHandlers;
  const tools = (server as unknown as { _registeredTools?: Record<string, { inputSchema?: unknown }> })._registeredTools;
  const original = handlers?.get('tools/call');
  if (handlers === undefined || original === undefined || tools === undefined)
    throw new Error('guardToolArguments: the MCP SDK has no tools/call handler to wrap; register the tools first');
  handlers.set('tools/call', (request, extra) => {
    const args = request.params?.arguments;
    const name = typeof request.params?.name === 'string' ? request.params.name : undefined;
    if (args !== undefined && !isPlainObject(args)) {
      return Promise.resolve(
        toolError(
          'INVALID_INPUT',
          messages.invalidInput(
            `${name?.slice(0, 80) ?? 'tool'}: arguments must be a JSON object of named fields, like {"query": "..."}, not ${describe(args)}`,
          ),
        ),
      );
    }
    const schema = name !== undefined && Object.hasOwn(tools, name) ? tools[name]?.inputSchema : undefined;
    if (name !== undefined && schema instanceof z.ZodType) {
      try {
        parseInput(schema, args ?? {}, name);
      } catch (error) {
        return Promise.resolve(toToolError(error));
      }
    }
    return original(request, extra);
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
