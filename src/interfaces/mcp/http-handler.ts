/**
 * MCP over Streamable HTTP, stateless: every request gets a fresh server and transport over the one
 * shared engine, answered as JSON. No session state lives in the process, so several `engram serve`
 * processes behind a load balancer (or one restarted) serve any request, and there is nothing to leak.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Engram } from '../../engram.js';
import { EngramError, isEngramError } from '../../core/errors.js';
import { assertReadScopes, type Scope } from '../../core/scope.js';
import { answerInvalidRequest } from './guard-request-params.js';
import { createMcpServer } from './server.js';

export interface McpHttpOptions {
  engram: Engram;
  name?: string;
  version?: string;
  /**
   * Reads and parses the JSON body of a POST, e.g. under the server's body limit (default: the SDK
   * reads it, up to its own 4 MiB). A failure with code `INVALID_INPUT` (empty, not JSON) is answered
   * as a JSON-RPC parse error; any other (too large) is thrown to the caller, whose answer it is.
   */
  readBody?: (request: Request) => Promise<unknown>;
}

/**
 * A handler for `/mcp`: `(request, scopes) => Response`. The caller decides the scopes a request may
 * use (from the server's flags, the request's `?scope=` and the API key's tenant).
 *
 * @example
 * ```ts
 * const handle = createMcpHttpHandler({ engram });
 * app.all('/mcp', (c) => handle(c.req.raw, ['acme/users/alice']));
 * ```
 */
export function createMcpHttpHandler(options: McpHttpOptions): (request: Request, scopes: readonly Scope[]) => Promise<Response> {
  return async (request, scopes) => {
    if (request.method === 'GET' || request.method === 'DELETE') {
      // Stateless: no standalone SSE stream and no session to delete.
      return jsonRpcError(405, { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC with POST.' });
    }
    let parsedBody: unknown;
    if (request.method === 'POST' && options.readBody !== undefined) {
      try {
        parsedBody = await options.readBody(request);
      } catch (error) {
        if (!isEngramError(error) || error.code !== 'INVALID_INPUT') throw error;
        return jsonRpcError(400, { code: ErrorCode.ParseError, message: `Parse error: ${error.message}` });
      }
      // the transport would refuse it as unparsable (400, no id): answer the request itself instead
      const answer = answerInvalidRequest(parsedBody);
      if (answer !== undefined) return Response.json(answer);
    }
    const server = createMcpServer({
      engram: options.engram,
      scopes,
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.version !== undefined ? { version: options.version } : {}),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, parsedBody !== undefined ? { parsedBody } : undefined);
    } finally {
      await server.close();
    }
  };
}

function jsonRpcError(status: number, error: { code: number; message: string }): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...(status === 405 ? { allow: 'POST' } : {}) },
  });
}

/**
 * The scopes a request asks for: `?scope=a&scope=b` or the `X-Engram-Scopes: a,b` header; empty
 * when it names none. Invalid scopes throw `INVALID_INPUT`.
 */
export function scopesFromRequest(request: Request): Scope[] {
  const url = new URL(request.url);
  const named = [...url.searchParams.getAll('scope'), ...(request.headers.get('x-engram-scopes') ?? '').split(',')]
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return named.length === 0 ? [] : [...assertReadScopes(named)];
}

/**
 * The scopes a request may use: those it names (each must be among `serverScopes` when the server was
 * started with some), else the server's, else `fallback`. Throws when none of them names any. A refusal
 * lists `serverScopes`: with an API key, pass only the scopes of the key's tenant.
 */
export function allowedScopes(requested: readonly Scope[], serverScopes: readonly Scope[], fallback: readonly Scope[] = []): Scope[] {
  if (requested.length === 0) {
    if (serverScopes.length === 0 && fallback.length > 0) return [...fallback];
    if (serverScopes.length === 0) {
      throw new EngramError(
        'INVALID_INPUT',
        'Name the scopes this MCP connection may use: /mcp?scope=tenant/... (repeatable) or start the server with --scope.',
      );
    }
    return [...serverScopes];
  }
  const outside = requested.filter((s) => serverScopes.length > 0 && !serverScopes.includes(s));
  if (outside.length > 0) {
    throw new EngramError(
      'SCOPE_DENIED',
      `Scope ${outside.map((s) => `"${s}"`).join(', ')} is not served here: the scopes served are ${serverScopes.join(', ')} (--scope).`,
    );
  }
  return [...requested];
}
