/**
 * Maps errors to MCP tool errors, the one table for this interface: every failure of a tool call is a
 * result with `isError: true` and a message the model can act on, never a protocol crash.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isClientFault, isEngramError } from '../../core/errors.js';

/** A tool error result: `[CODE] message` as text, `{ error: { code, message } }` as structured content. */
export function toToolError(error: unknown): CallToolResult {
  if (isEngramError(error)) {
    return toolError(error.code, error.message);
  }
  // Not ours to blame on the caller: say it is internal, keep details out of the message.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`engram mcp: internal error: ${error instanceof Error && error.stack ? error.stack : message}\n`);
  return toolError('INTERNAL', `Internal error in Engram: ${message.slice(0, 300)}. This is a bug, not a problem with your input.`);
}

/** Builds a tool error result with a code and message. */
export function toolError(code: string, message: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `[${code}] ${message}` }],
    // retryable tells the model to repeat the same call rather than change its input
    structuredContent: { error: { code, message, clientFault: isKnownClientFault(code), ...(code === 'BUSY' ? { retryable: true } : {}) } },
  };
}

function isKnownClientFault(code: string): boolean {
  try {
    return isClientFault(code as Parameters<typeof isClientFault>[0]);
  } catch {
    return false;
  }
}
