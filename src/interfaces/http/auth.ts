/**
 * API-key authentication for the HTTP API and the HTTP MCP endpoint: `Authorization: Bearer KEY`,
 * each key bound to one tenant.
 */
import type { MiddlewareHandler } from 'hono';
import type { ApiKeys, Principal } from '../../core/api-keys.js';
import { EngramError } from '../../core/errors.js';
import { httpErrorResponse, type InternalErrorLogger } from './error-mapping.js';

/**
 * When a key is needed:
 * - `required`: every request to `/v1` (and `/mcp`) needs a valid key;
 * - `auto` (default): keys are required as soon as a key has ever been created in the store (revoking
 *   every key does not make it keyless again; only `open` does);
 * - `open`: no key needed (local development on loopback only); a key that is sent is still checked.
 */
export type AuthMode = 'auto' | 'required' | 'open';

export interface AuthOptions {
  keys: ApiKeys;
  auth: AuthMode;
}

/** The variables the auth middleware sets on the Hono context. */
export interface AuthVariables {
  /** The caller's key, or null when the server is open and no key was sent. */
  principal: Principal | null;
}

/**
 * The principal of a request: its verified key, or null when no key is needed and none was sent.
 * Throws `UNAUTHORIZED` for a missing key (when one is needed), a malformed header or an unknown key.
 *
 * @example
 * ```ts
 * const principal = await authenticateRequest(request, { keys, auth: 'auto' });
 * if (principal !== null) assertTenantScopes(principal, scopes);
 * ```
 */
export async function authenticateRequest(request: Request, options: AuthOptions): Promise<Principal | null> {
  const header = request.headers.get('authorization');
  if (header === null || header.trim() === '') {
    if (options.auth === 'open') return null;
    if (options.auth === 'auto' && !(await options.keys.hasEverHadKey())) return null;
    throw new EngramError(
      'UNAUTHORIZED',
      'This server requires an API key: send "Authorization: Bearer <key>" (create one with "engram keys create --tenant <tenant>").',
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null) {
    throw new EngramError('UNAUTHORIZED', 'The Authorization header must be "Bearer <key>".');
  }
  const principal = await options.keys.verify(match[1] as string);
  if (principal === null) {
    throw new EngramError(
      'UNAUTHORIZED',
      'The API key is not valid (unknown or revoked): check it, or create a new one with "engram keys create --tenant <tenant>".',
    );
  }
  return principal;
}

/**
 * Hono middleware: authenticates the request and sets `c.get('principal')`, or answers 401.
 *
 * @example
 * ```ts
 * app.all('/mcp', requireKey({ keys, auth: 'auto' }), handler);
 * ```
 */
export function requireKey(options: AuthOptions & { log?: InternalErrorLogger }): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    let principal: Principal | null;
    try {
      principal = await authenticateRequest(c.req.raw, options);
    } catch (error) {
      const response = httpErrorResponse(error, options.log);
      if (response.status === 401) response.headers.set('WWW-Authenticate', 'Bearer realm="engram"');
      return response;
    }
    c.set('principal', principal);
    await next();
  };
}

/**
 * Without a key, only this machine's own clients may call: the request must be addressed to a loopback
 * host, and a browser's Origin (if any) must be loopback too. This stops a web page from writing to or
 * reading from a keyless local server (cross-site requests and DNS rebinding).
 */
export function assertLocalRequest(request: Request): void {
  const host = new URL(request.url).hostname;
  const origin = request.headers.get('origin');
  let originHost: string | null = null;
  if (origin !== null) {
    try {
      originHost = new URL(origin).hostname;
    } catch {
      originHost = '';
    }
  }
  if (!isLoopbackHost(host) || (originHost !== null && !isLoopbackHost(originHost))) {
    throw new EngramError(
      'SCOPE_DENIED',
      'Without an API key this server only answers requests from this machine (loopback host, no foreign Origin): send "Authorization: Bearer <key>".',
    );
  }
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

/** Is `host` a loopback address (only this machine can connect)? */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The auth mode a server should run with: on a non-loopback host `open` is refused and `auto` becomes
 * `required`, so a server reachable from the network always needs a key.
 *
 * @example
 * ```ts
 * resolveAuthMode({ requested: 'open', host: '127.0.0.1' }); // 'open'
 * ```
 */
export function resolveAuthMode(options: { requested?: string; host: string }): AuthMode {
  const requested = options.requested ?? 'auto';
  if (requested !== 'auto' && requested !== 'required' && requested !== 'open') {
    throw new EngramError('INVALID_INPUT', `Unknown auth mode "${requested.slice(0, 40)}": use auto, required or open.`);
  }
  if (requested === 'open' && !isLoopbackHost(options.host)) {
    throw new EngramError(
      'INVALID_INPUT',
      `--auth open is only allowed on a loopback host (127.0.0.1, ::1), not "${options.host}": create a key with "engram keys create --tenant <tenant>" and use --auth auto or required.`,
    );
  }
  // Reachable from the network: never open, even before the first key exists.
  if (requested === 'auto' && !isLoopbackHost(options.host)) return 'required';
  return requested;
}
