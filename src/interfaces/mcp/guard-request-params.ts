/**
 * Keeps a malformed request an answered one, with JSON-RPC -32602 Invalid params and a plain message.
 * The SDK parses each request's params with the method's schema before its handler runs and answers a
 * failure (tools/call without a name, resources/read without a uri, no params at all) as -32603
 * Internal error with the raw zod issues; and its transports drop a message their JSON-RPC schema
 * refuses (`"params": null`) without any answer, so the client waits forever.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, JSONRPCMessageSchema, JSONRPCRequestSchema, type JSONRPCErrorResponse } from '@modelcontextprotocol/sdk/types.js';

type RawHandler = (request: unknown, extra: unknown) => Promise<unknown>;

interface Issue {
  code?: string;
  expected?: string;
  path?: PropertyKey[];
  message?: string;
}

/** Wraps every request handler of `server` (call after the tools and resources are registered). */
export function guardRequestParams(server: McpServer): void {
  // the SDK keeps its request handlers in a private map
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RawHandler> })._requestHandlers;
  if (handlers === undefined) throw new Error('guardRequestParams: the MCP SDK keeps no request handlers where expected');
  for (const [method, handler] of [...handlers]) {
    handlers.set(method, (request, extra) => {
      try {
        return handler(request, extra);
      } catch (error) {
        // The SDK parses the params synchronously before it calls the (async) handler, whose own
        // failures are rejections: a throw here is the request failing its method's schema.
        return Promise.reject(invalidParams(describeIssues(method, request, error)));
      }
    });
  }
}

/**
 * The answer to a request the transports would drop: one with a method and an id that fails the
 * JSON-RPC schema, e.g. `"params": null`. Undefined for anything else (valid messages, notifications,
 * responses, ids nobody could match an answer to).
 */
export function answerInvalidRequest(message: unknown): JSONRPCErrorResponse | undefined {
  if (!isPlainObject(message) || typeof message.method !== 'string' || !isRequestId(message.id)) return undefined;
  if (JSONRPCMessageSchema.safeParse(message).success) return undefined;
  const method = message.method.slice(0, 80);
  if ('params' in message && !isPlainObject(message.params)) {
    return errorResponse(
      message.id,
      ErrorCode.InvalidParams,
      `Invalid params for ${method}: params must be an object or left out, not ${describeValue(message.params)}.`,
    );
  }
  // it has a method and an id: what a request lacks says what to fix
  const issues = (JSONRPCRequestSchema.safeParse(message).error?.issues ?? []) as Issue[];
  const inParams = issues.length > 0 && issues.every((issue) => issue.path?.[0] === 'params');
  return errorResponse(
    message.id,
    inParams ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest,
    inParams ? describeIssues(method, message, { issues }) : `Invalid request: ${describeIssueList(message, issues)}.`,
  );
}

/** An error the SDK answers as JSON-RPC -32602 with exactly this message (no "MCP error" prefix). */
function invalidParams(message: string): Error {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}

function errorResponse(id: string | number, code: number, message: string): JSONRPCErrorResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function describeIssues(method: string, request: unknown, error: unknown): string {
  const issues = isPlainObject(error) && Array.isArray(error.issues) ? (error.issues as Issue[]) : [];
  if (issues.length === 0) return `Invalid params for ${method.slice(0, 80)}.`;
  return `Invalid params for ${method.slice(0, 80)}: ${describeIssueList(request, issues)}.`;
}

function describeIssueList(request: unknown, issues: readonly Issue[]): string {
  if (issues.length === 0) return 'it is not a JSON-RPC 2.0 request';
  return issues
    .slice(0, 4)
    .map((issue) => describeIssue(request, issue))
    .join('; ');
}

/** "params.name is missing (it must be a string)", "params.uri must be a string, not a number". */
function describeIssue(request: unknown, issue: Issue): string {
  const path = (issue.path ?? []).map(String);
  const where = path.length > 0 ? path.join('.') : 'the request';
  if (issue.code === 'invalid_type' && issue.expected !== undefined) {
    const value = valueAt(request, path);
    return value === undefined
      ? `${where} is missing (it must be ${typeName(issue.expected)})`
      : `${where} must be ${typeName(issue.expected)}, not ${describeValue(value)}`;
  }
  if (issue.code === 'unrecognized_keys' && 'keys' in issue && Array.isArray(issue.keys)) {
    return `${where} has unknown field(s) ${issue.keys.map(String).join(', ')}`;
  }
  if (issue.code === 'invalid_value' && 'values' in issue && Array.isArray(issue.values)) {
    return `${where} must be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`;
  }
  return `${where}: ${String(issue.message ?? 'invalid')}`;
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) {
    if (!isPlainObject(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

function typeName(expected: string): string {
  return expected === 'object' || expected === 'array' ? `an ${expected}` : `a ${expected}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeName(typeof value);
}

function isRequestId(value: unknown): value is string | number {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
