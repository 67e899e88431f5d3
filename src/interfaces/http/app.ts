/**
 * The HTTP API: JSON endpoints under `/v1/` for everything the library does, API keys
 * bound to a tenant, a request size limit, `GET /health` and `GET /openapi.json`.
 */
import { Hono } from 'hono';
import { assertTenantScopes, type Principal } from '../../core/api-keys.js';
import { tenantOf } from '../../core/scope.js';
import { ApiKeys } from './api-keys.js';
import type { Engram } from '../../engram.js';
import { assertLocalRequest, authenticateRequest, type AuthMode, type AuthVariables } from './auth.js';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './body.js';
import { EngramError, isEngramError } from '../../core/errors.js';
import { clientClosedRequest, httpErrorResponse, type InternalErrorLogger } from './error-mapping.js';
import { buildOpenApiDocument } from './openapi.js';
import type { RouteSpec } from './route.js';
import { memoryRoutes } from './routes/memories.js';
import { readRoutes } from './routes/reads.js';
import { browseRoutes } from './routes/browse.js';
import { servingRoutes } from './routes/serving.js';
import { exploreRoutes } from './routes/explore.js';
import { dumpRoutes } from './routes/dump.js';
import { maintenanceRoutes } from './routes/maintenance.js';
import { assertKnownParams } from './routes/params.js';
import { staticUi } from './static-ui.js';

/** Options of `createHttpApp`. */
export interface HttpAppOptions {
  engram: Engram;
  /** The key ring; default: keys stored in the engine's store. */
  keys?: ApiKeys;
  /** When keys are needed (default `auto`: as soon as one key exists). See `resolveAuthMode`. */
  auth?: AuthMode;
  limits?: { /** Largest request body in bytes (default 1 MiB); larger bodies get 413. */ maxBodyBytes?: number };
  /** Receives internal errors (default: stderr). Clients only see a reference id. */
  log?: InternalErrorLogger;
  /** Version shown in `/health` and the OpenAPI document. */
  version?: string;
  /** The only scopes a keyless caller may name, on every route (reads, writes, browse, purge); default every scope. */
  scopes?: readonly string[];
  /** Folder of the built web UI served at `/` (default `dist/ui`); false serves no UI. */
  ui?: string | false;
}

/** The Hono app type returned by `createHttpApp` (mount it or serve `app.fetch`). */
export type HttpApp = Hono<{ Variables: AuthVariables }>;

/** Every `/v1` route of this build. */
export function httpRoutes(): RouteSpec[] {
  return [...memoryRoutes, ...browseRoutes, ...readRoutes, ...servingRoutes, ...exploreRoutes, ...dumpRoutes, ...maintenanceRoutes];
}

/**
 * Builds the HTTP API over an engine. Serve it with `@hono/node-server` or mount it into another app.
 *
 * @example
 * ```ts
 * import { serve } from '@hono/node-server';
 * import { createHttpApp } from 'engram/http';
 * const app = createHttpApp({ engram, auth: 'required' });
 * serve({ fetch: app.fetch, port: 8787, hostname: '127.0.0.1' });
 * ```
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const engram = options.engram;
  const keys = options.keys ?? new ApiKeys(engram.store);
  const auth = options.auth ?? 'auto';
  const maxBodyBytes = options.limits?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const version = options.version ?? '0.1.0';
  const log = options.log;
  const serverScopes = [...(options.scopes ?? [])];
  const routes = httpRoutes();
  const endpoints: Endpoint[] = [
    ...routes.map((r) => ({ path: r.path, method: r.method.toUpperCase() })),
    ...SERVICE_PATHS.map((path) => ({ path, method: 'GET' })),
  ];
  const app: HttpApp = new Hono<{ Variables: AuthVariables }>();
  let openApi: unknown;
  const ui = options.ui === false ? null : staticUi(options.ui);

  app.get('/health', async (c) => {
    try {
      assertKnownParams(new URL(c.req.url).searchParams, { endpoint: 'GET /health' });
      await engram.store.getMeta('engram.health');
      // never cached, so a probe needs no cache-buster (the route refuses query parameters like every other)
      return c.json({ status: 'ok', version, auth }, 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      return httpErrorResponse(error, log);
    }
  });

  app.get('/openapi.json', (c) => {
    try {
      assertKnownParams(new URL(c.req.url).searchParams, { endpoint: 'GET /openapi.json' });
    } catch (error) {
      return httpErrorResponse(error, log);
    }
    openApi ??= buildOpenApiDocument(routes, { version, maxBodyBytes });
    return c.json(openApi);
  });

  for (const route of routes) {
    app.on(route.method.toUpperCase(), route.path, async (c) => {
      const started = performance.now();
      try {
        const principal = await authenticateRequest(c.req.raw, { keys, auth });
        if (principal === null) assertLocalRequest(c.req.raw);
        c.set('principal', principal);
        const hasBody =
          route.method !== 'get' &&
          route.ndjson?.request === undefined &&
          (route.body !== undefined || route.method === 'post' || route.method === 'patch');
        const query = new URL(c.req.url).searchParams;
        assertKnownParams(query, { endpoint: `${route.method.toUpperCase()} ${route.path}`, params: route.query, jsonBody: hasBody });
        const body = hasBody ? await readJsonBody(c.req.raw, maxBodyBytes, { optional: route.bodyOptional === true }) : undefined;
        const result = await route.handle({
          engram,
          principal,
          params: c.req.param() as Record<string, string>,
          query,
          body,
          serverScopes,
          authorize: authorizer(principal, serverScopes),
          authorizeTenant: (tenant) => assertTenantServed(principal, serverScopes, tenant),
          request: c.req.raw,
          ...(log !== undefined ? { log } : {}),
        });
        // NDJSON routes stream their own response
        if (result instanceof Response) return result;
        // the server's own time (body read, authorisation, the engine), apart from the network's
        c.header('Server-Timing', `engram;dur=${(performance.now() - started).toFixed(1)}`);
        return c.json(result as object, 200);
      } catch (error) {
        // a stream the route read itself (an import) failed because the client went away
        return errorResponse(c.req.raw.signal.aborted && !isEngramError(error) ? clientClosedRequest() : error, log);
      }
    });
  }

  app.notFound(async (c) => {
    const path = new URL(c.req.url).pathname;
    const page = ui === null ? null : await ui.respond(c.req.method, path);
    if (page !== null) return page;
    const allowed = endpoints.filter((e) => matches(e.path, path)).map((e) => e.method);
    if (allowed.length > 0) {
      return c.json(
        { error: { code: 'METHOD_NOT_ALLOWED', message: `${c.req.method} is not allowed on ${path}: use ${allowed.join(', ')}.` } },
        405,
        { Allow: allowed.join(', ') },
      );
    }
    const near = nearestEndpoint(endpoints, path);
    const hint =
      near === null
        ? 'the endpoints are listed in /openapi.json.'
        : `did you mean ${near.path.slice(0, 200)} (${near.methods.join(', ')})? Paths are case-sensitive and take no trailing slash.`;
    return c.json({ error: { code: 'NOT_FOUND', message: `No endpoint ${c.req.method} ${path.slice(0, 200)}: ${hint}` } }, 404);
  });

  app.onError((error) => httpErrorResponse(error, log));
  return app;
}

/**
 * The one scope check of every route: a key may name its tenant's scopes, and any caller only those of
 * the server's --scope list (every scope without one), as `/mcp` serves a key the list's scopes of its tenant.
 */
function authorizer(principal: Principal | null, serverScopes: readonly string[]): (scopes: readonly string[]) => void {
  return (scopes) => {
    if (principal !== null) assertTenantScopes(principal, scopes);
    assertServedScopes(serverScopes, scopes);
  };
}

/** Throws SCOPE_DENIED unless the caller may act for `tenant`: a key's own, served by a scope of the --scope list. */
function assertTenantServed(principal: Principal | null, serverScopes: readonly string[], tenant: string): void {
  if (principal !== null && principal.tenant !== tenant) {
    throw new EngramError(
      'SCOPE_DENIED',
      `This API key belongs to tenant "${principal.tenant}" and cannot act for tenant "${tenant.slice(0, 80)}".`,
      {
        details: { tenant },
      },
    );
  }
  if (serverScopes.length === 0 || serverScopes.some((scope) => tenantOf(scope) === tenant)) return;
  throw new EngramError(
    'SCOPE_DENIED',
    `Tenant "${tenant.slice(0, 80)}" is not served here: this server serves ${serverScopes.map((s) => `"${s}"`).join(', ')} (--scope).`,
    { details: { tenant } },
  );
}

/** Throws SCOPE_DENIED naming the scopes outside the server's --scope list (none when it has no list). */
function assertServedScopes(serverScopes: readonly string[], scopes: readonly string[]): void {
  if (serverScopes.length === 0) return;
  const denied = [...new Set(scopes.filter((s) => typeof s === 'string' && !serverScopes.includes(s)))];
  if (denied.length === 0) return;
  throw new EngramError(
    'SCOPE_DENIED',
    `Scope ${denied.map((s) => `"${s.slice(0, 80)}"`).join(', ')} is not served here: this server serves ${serverScopes.map((s) => `"${s}"`).join(', ')} (--scope).`,
    { details: { denied } },
  );
}

function errorResponse(error: unknown, log: InternalErrorLogger | undefined): Response {
  const response = httpErrorResponse(error, log);
  if (response.status === 401) response.headers.set('WWW-Authenticate', 'Bearer realm="engram"');
  return response;
}

/** A method and path this app answers, e.g. `GET /v1/memories/:id`. */
interface Endpoint {
  path: string;
  method: string;
}

/** Paths this app answers besides the `/v1` routes. */
const SERVICE_PATHS = ['/health', '/openapi.json'];

/** Does `path` name the endpoint `pattern` (e.g. `/v1/memories/:id`) exactly (case and trailing slash included)? */
function matches(pattern: string, path: string, flags = ''): boolean {
  return new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/:[A-Za-z_]+/g, '[^/]+')}$`, flags).test(path);
}

/**
 * The endpoint `path` almost names (in another case, or with a trailing slash), written as it should be
 * (ids kept as given), with the methods it answers; null when there is none.
 */
function nearestEndpoint(endpoints: readonly Endpoint[], path: string): { path: string; methods: string[] } | null {
  const trimmed = path.replace(/(?<=.)\/+$/, '');
  const near = endpoints.filter((e) => matches(e.path, trimmed, 'i'));
  const [first] = near;
  if (first === undefined) return null;
  const given = trimmed.split('/');
  const fixed = first.path
    .split('/')
    .map((segment, i) => (segment.startsWith(':') ? (given[i] ?? segment) : segment))
    .join('/');
  return { path: fixed, methods: near.filter((e) => e.path === first.path).map((e) => e.method) };
}
