/**
 * The app `engram serve` runs: the HTTP API (`/v1`, `/health`, `/openapi.json`), MCP over Streamable
 * HTTP at `/mcp`, and the hook operations at `/hooks/<operation>`, all behind the same API keys.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Engram } from '../../../engram.js';
import { EngramError } from '../../../core/errors.js';
import { tenantOf, type Scope } from '../../../core/scope.js';
import { runHookOperation } from '../../hooks/server-routes.js';
import {
  ApiKeys,
  assertLocalRequest,
  assertTenantScopes,
  authenticateRequest,
  createHttpApp,
  DEFAULT_MAX_BODY_BYTES,
  httpErrorResponse,
  readJsonBody,
  type AuthMode,
  type HttpApp,
  type Principal,
} from '../../http/index.js';
import { allowedScopes, createMcpHttpHandler, scopesFromRequest } from '../../mcp/index.js';

export interface ServeAppOptions {
  engram: Engram;
  /** Scopes served when a request names none; a request may only name these (when non-empty). */
  scopes: readonly Scope[];
  /** Scopes for MCP connections and hooks that name none when the server has no `scopes` (not a limit). */
  defaultScopes?: readonly Scope[];
  auth: AuthMode;
  keys?: ApiKeys;
  version?: string;
  /** Request body limit of the HTTP API and of /mcp (default 1 MiB). */
  maxBodyBytes?: number;
  /** The secret of the discovery file: a loopback hook call carrying it (`X-Engram-Hook-Token`) needs no API key. */
  hookToken?: string;
}

/** Builds the serve app (serve `app.fetch`). */
export function createServeApp(options: ServeAppOptions): HttpApp {
  const { engram, scopes: serverScopes, auth } = options;
  const fallback = options.defaultScopes ?? [];
  const keys = options.keys ?? new ApiKeys(engram.store);
  const app = createHttpApp({
    engram,
    keys,
    auth,
    scopes: serverScopes,
    ...(options.version !== undefined ? { version: options.version } : {}),
    ...(options.maxBodyBytes !== undefined ? { limits: { maxBodyBytes: options.maxBodyBytes } } : {}),
  });
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const mcp = createMcpHttpHandler({
    engram,
    readBody: (request) => readJsonBody(request, maxBodyBytes),
    ...(options.version !== undefined ? { version: options.version } : {}),
  });

  app.all('/mcp', async (c) => {
    try {
      const principal = await authenticateRequest(c.req.raw, { keys, auth });
      // Without a key only this machine may call (no cross-site pages, no DNS rebinding).
      if (principal === null) assertLocalRequest(c.req.raw);
      const scopes = permittedScopes(scopesFromRequest(c.req.raw), principal, { serverScopes, fallback });
      return await mcp(c.req.raw, scopes);
    } catch (error) {
      return errorResponse(error);
    }
  });

  app.post('/hooks/:operation', async (c) => {
    try {
      const local = isHookToken(c.req.header('x-engram-hook-token'), options.hookToken);
      const principal = local ? null : await authenticateRequest(c.req.raw, { keys, auth });
      // Without a key only this machine may call (no cross-site pages, no DNS rebinding).
      if (principal === null) assertLocalRequest(c.req.raw);
      const body = await readJsonBody(c.req.raw, 8 * 1024 * 1024);
      const result = await runHookOperation(engram, c.req.param('operation'), body, (scopes) => {
        permittedScopes(scopes, principal, { serverScopes });
      });
      return c.json(result);
    } catch (error) {
      return errorResponse(error);
    }
  });
  return app;
}

/**
 * The scopes a request may use (`allowedScopes`). A key sees the server's scopes narrowed to its own
 * tenant, and what it names is checked against its tenant first, so no answer to a key names another
 * tenant's scope (not even the server's --scope list). Without a key (this machine only) nothing is
 * narrowed.
 */
function permittedScopes(
  requested: readonly Scope[],
  principal: Principal | null,
  served: { serverScopes: readonly Scope[]; fallback?: readonly Scope[] },
): Scope[] {
  if (principal === null) return allowedScopes(requested, served.serverScopes, served.fallback);
  assertTenantScopes(principal, requested);
  const own = (scopes: readonly Scope[]) => scopes.filter((scope) => tenantOf(scope) === principal.tenant);
  const serverScopes = own(served.serverScopes);
  if (served.serverScopes.length > 0 && serverScopes.length === 0) {
    throw new EngramError(
      'SCOPE_DENIED',
      `This server serves no scope of tenant "${principal.tenant}" (the tenant of this API key): ask its operator to start it with --scope ${principal.tenant}/..., or use a server that does.`,
    );
  }
  return allowedScopes(requested, serverScopes, own(served.fallback ?? []));
}

function isHookToken(sent: string | undefined, expected: string | undefined): boolean {
  if (sent === undefined || expected === undefined) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function errorResponse(error: unknown): Response {
  const response = httpErrorResponse(error);
  if (response.status === 401) response.headers.set('WWW-Authenticate', 'Bearer realm="engram"');
  return response;
}
