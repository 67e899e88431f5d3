/**
 * The OpenAPI 3.1 document, generated from the route table and the shared zod schemas.
 */
import { z } from 'zod';
import { errorBodySchema } from './request-schemas.js';
import type { RouteSpec } from './route.js';

type JsonObject = Record<string, unknown>;

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of what a client sends. */
function inputSchema(schema: z.ZodType): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
  return rest;
}

function outputSchema(schema: z.ZodType): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
  return rest;
}

/**
 * Moves the named schemas (zod `meta({ id })`, which zod emits under `$defs`) into
 * `components.schemas` and points their references there, so each is documented once by name.
 */
function hoistNamed(schema: JsonObject, components: JsonObject): JsonObject {
  const { $defs, ...rest } = schema as JsonObject & { $defs?: Record<string, JsonObject> };
  for (const [name, definition] of Object.entries($defs ?? {})) components[name] = repoint(definition);
  return repoint(rest);
}

function repoint<T>(value: T): T {
  if (Array.isArray(value)) return value.map(repoint) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value as JsonObject)) {
    out[key] = key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/') ? `#/components/schemas/${child.slice('#/$defs/'.length)}` : repoint(child);
  }
  return out as T;
}

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'Invalid input or malformed JSON',
  '401': 'No API key, or an unknown or revoked one',
  '403': 'A scope outside the API key\'s tenant',
  '404': 'Not found in the scopes this request may see',
  '409': 'Conflict (e.g. restoring a superseded memory, a consolidation already running)',
  '413': 'Request body larger than the server\'s limit',
  '500': 'Internal error (details only in the server log)',
  '503': 'Store unreachable, or BUSY (another writer holds the lock: nothing changed, retry after Retry-After seconds)',
};

/**
 * Builds the OpenAPI 3.1 document for `routes`.
 *
 * @example
 * ```ts
 * const doc = buildOpenApiDocument(routes, { version: '0.1.0' });
 * ```
 */
export function buildOpenApiDocument(routes: readonly RouteSpec[], info: { version: string; maxBodyBytes?: number }): JsonObject {
  const paths: Record<string, JsonObject> = {};
  const components: JsonObject = { Error: outputSchema(errorBodySchema) };
  const errorRef = { $ref: '#/components/schemas/Error' };
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters: JsonObject[] = [];
    for (const match of route.path.matchAll(/:([A-Za-z_]+)/g)) {
      parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
    }
    for (const param of route.query ?? []) {
      parameters.push({
        name: param.name,
        in: 'query',
        required: param.required === true,
        description: param.description,
        schema: param.list === true ? { type: 'array', items: { type: 'string' } } : { type: 'string' },
        ...(param.list === true ? { style: 'form', explode: true } : {}),
      });
    }
    const responses: JsonObject = {
      '200': {
        description: route.responseDescription,
        content:
          route.ndjson?.response !== undefined
            ? { 'application/x-ndjson': { schema: hoistNamed(outputSchema(route.ndjson.response), components) } }
            : { 'application/json': { schema: route.response !== undefined ? hoistNamed(outputSchema(route.response), components) : { type: 'object' } } },
      },
    };
    for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
      responses[status] = { description, content: { 'application/json': { schema: errorRef } } };
    }
    const operation: JsonObject = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(route.description !== undefined ? { description: route.description } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.ndjson?.request !== undefined
        ? { requestBody: { required: true, content: { 'application/x-ndjson': { schema: hoistNamed(inputSchema(route.ndjson.request), components) } } } }
        : route.body !== undefined
        ? { requestBody: { required: route.bodyOptional !== true, content: { 'application/json': { schema: inputSchema(route.body) } } } }
        : route.method === 'post'
          ? { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } } }
          : {}),
      responses,
      security: [{ bearerAuth: [] }],
    };
    paths[path] = { ...(paths[path] ?? {}), [route.method]: operation };
  }
  paths['/health'] = {
    get: {
      operationId: 'health',
      tags: ['service'],
      summary: 'Liveness and store reachability (no key needed)',
      security: [],
      responses: {
        '200': { description: 'Serving', content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ok' } } } } } },
        '503': { description: 'The store is unreachable', content: { 'application/json': { schema: errorRef } } },
      },
    },
  };
  paths['/openapi.json'] = {
    get: { operationId: 'openapi', tags: ['service'], summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1 document' } } },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Engram HTTP API',
      version: info.version,
      description:
        'Long-term memory for AI agents. Every read names the scopes it may see; every write names one scope. API keys are bound to a tenant (the first segment of a scope): send `Authorization: Bearer <key>`.' +
        (info.maxBodyBytes !== undefined ? ` Request bodies are limited to ${info.maxBodyBytes} bytes.` : ''),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key from "engram keys create --tenant <tenant>"' } },
    },
  };
}
