/**
 * One route table drives both the Hono app and the OpenAPI document, so the two cannot drift.
 */
import type { z } from 'zod';
import type { Principal } from '../../core/api-keys.js';
import type { Engram } from '../../engram.js';
import type { InternalErrorLogger } from './error-mapping.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/** A query-string parameter as documented in OpenAPI. */
export interface QueryParam {
  name: string;
  description: string;
  required?: boolean;
  /** Repeatable or comma-separated list. */
  list?: boolean;
  /** JSON Schema of one value when it is not free text (e.g. an enum or an integer). */
  schema?: Record<string, unknown>;
  /** A typical value, shown in the OpenAPI document. */
  example?: string;
  /** Other names the route reads it under (`scope` for `scopes`); accepted, not documented. */
  aliases?: readonly string[];
}

/** What a handler receives. */
export interface RouteContext {
  engram: Engram;
  principal: Principal | null;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed body, validated against the route's `body` schema (undefined for routes without one). */
  body: unknown;
  /** The server's --scope list: what a keyless caller may name, and browses when it names none; empty: every scope. */
  serverScopes: readonly string[];
  /** Throws SCOPE_DENIED when the caller may not name one of these scopes (a key: outside its tenant; keyless: outside serverScopes). */
  authorize(scopes: readonly string[]): void;
  /**
   * Throws `SCOPE_DENIED` unless this caller may act for a whole tenant (a relation type is registered per
   * tenant): a key its own, and on a `--scope` server only a tenant of a scope the server serves.
   */
  authorizeTenant(tenant: string): void;
  /** The raw request (routes with `ndjson.request` read its body stream themselves). */
  request: Request;
  /** The app's internal error logger, for a failure a streamed answer reports after its 200 (default: stderr). */
  log?: InternalErrorLogger;
}

/** One endpoint. */
export interface RouteSpec {
  method: HttpMethod;
  /** Hono path, e.g. `/v1/memories/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Request body schema: parsed with the shared zod schemas and documented in OpenAPI. */
  body?: z.ZodType;
  /** Whether the body may be omitted (e.g. DELETE with the scope in the query string). */
  bodyOptional?: boolean;
  query?: readonly QueryParam[];
  /** Response body schema for the OpenAPI document, named with `meta({ id })` (else after the operation). */
  response?: z.ZodType;
  /** When the route can answer 404 (NOT_FOUND): in what case. Documented only when given. */
  notFound?: string;
  /** When the route can answer 409 (CONFLICT or LOCKED): in what case. Documented only when given. */
  conflict?: string;
  responseDescription: string;
  /**
   * NDJSON streams, each line of the given schema: `request` routes read `ctx.request.body` themselves
   * (streamed, not subject to the JSON body limit); `response` routes return a `Response` to stream.
   */
  ndjson?: { request?: z.ZodType; response?: z.ZodType };
  handle(ctx: RouteContext): Promise<unknown>;
}
