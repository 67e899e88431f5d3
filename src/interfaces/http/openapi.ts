/**
 * The OpenAPI 3.1 document, generated from the route table and the shared zod schemas.
 */
import { z } from 'zod';
import { ERROR_EXAMPLES, OPERATION_EXAMPLES } from './openapi-examples.js';
import { errorBodySchema } from './request-schemas.js';
import { healthSchema } from './response-schemas.js';
import type { QueryParam, RouteSpec } from './route.js';

type JsonObject = Record<string, unknown>;

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of what a client sends. */
function inputSchema(schema: z.ZodType): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonObject;
  return rest;
}

function outputSchema(schema: z.ZodType): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonObject;
  return rest;
}

/**
 * Moves the named schemas (zod `meta({ id })`, which zod emits under `$defs`) into
 * `components.schemas` and points their references there, so each is documented once by name.
 */
function hoistNamed(schema: JsonObject, components: JsonObject): JsonObject {
  const { $defs, ...rest } = schema as JsonObject & { $defs?: Record<string, JsonObject> };
  for (const [name, definition] of Object.entries($defs ?? {})) addComponent(components, name, repoint(definition));
  return repoint(rest);
}

function repoint<T>(value: T): T {
  if (Array.isArray(value)) return value.map(repoint) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value as JsonObject)) {
    out[key] =
      key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/')
        ? `#/components/schemas/${child.slice('#/$defs/'.length)}`
        : repoint(child);
  }
  return out as T;
}

/**
 * A `$ref` to the named component of `schema`: its `meta({ id })`, else `fallback`. Every request and
 * response body is a named component, so generated clients get one named type per shape. A name
 * rendered twice must render the same (an input and an output reading of one schema would differ).
 */
function named(schema: z.ZodType, io: 'input' | 'output', fallback: string, components: JsonObject): JsonObject {
  const rendered = hoistNamed(io === 'input' ? inputSchema(schema) : outputSchema(schema), components);
  if (typeof rendered.$ref === 'string' && Object.keys(rendered).length === 1) return rendered;
  addComponent(components, fallback, rendered);
  return { $ref: `#/components/schemas/${fallback}` };
}

function addComponent(components: JsonObject, name: string, schema: JsonObject): void {
  if (components[name] !== undefined && JSON.stringify(components[name]) !== JSON.stringify(schema)) {
    throw new Error(`OpenAPI: two different schemas are named ${name}; give one of them another meta({ id })`);
  }
  components[name] = schema;
}

function pascal(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

/** The error responses, shared by every route that can answer them. */
const ERROR_RESPONSES: Record<string, { name: string; description: string }> = {
  '400': {
    name: 'BadRequest',
    description:
      'Invalid input, malformed JSON or an unknown query parameter (INVALID_INPUT): the message names the field and how to fix it',
  },
  '401': { name: 'Unauthorized', description: 'No API key, or an unknown or revoked one (UNAUTHORIZED)' },
  '403': {
    name: 'Forbidden',
    description:
      "A scope outside the API key's tenant; without a key, a scope outside the server's --scope list or a request from outside this machine (SCOPE_DENIED)",
  },
  '413': { name: 'PayloadTooLarge', description: "Request body larger than the server's limit (PAYLOAD_TOO_LARGE)" },
  '500': {
    name: 'InternalError',
    description: 'Internal error (INTERNAL; details only in the server log, under the reference in the message)',
  },
  '503': {
    name: 'Unavailable',
    description:
      'Store unreachable (STORAGE_UNAVAILABLE), or BUSY: another writer holds the lock, nothing changed; retry after Retry-After seconds',
  },
};

function errorResponseComponents(errorRef: JsonObject): JsonObject {
  const responses: JsonObject = {};
  for (const [status, { name, description }] of Object.entries(ERROR_RESPONSES)) {
    responses[name] = {
      description,
      ...(status === '503'
        ? {
            headers: {
              'Retry-After': { description: 'Seconds to wait before retrying (sent with BUSY)', schema: { type: 'integer', minimum: 0 } },
            },
          }
        : {}),
      content: { 'application/json': { schema: errorRef, example: { error: ERROR_EXAMPLES[status] } } },
    };
  }
  return responses;
}

/** The statuses every route can answer besides 200, as shared components. */
function errorStatuses(route: RouteSpec): string[] {
  const hasBody = route.body !== undefined || route.method === 'post' || route.method === 'patch';
  // 400 everywhere: an unknown query parameter is refused on every route
  const statuses = ['400', '401', '403', '500', '503'];
  if (hasBody && route.ndjson?.request === undefined) statuses.push('413'); // a streamed NDJSON body has no size limit
  return statuses;
}

/** The error answers only some routes give, each with the route's own case: 404 and 409. */
function routeErrors(route: RouteSpec, errorRef: JsonObject): JsonObject {
  const answers: JsonObject = {};
  for (const [status, when] of [
    ['404', route.notFound],
    ['409', route.conflict],
  ] as const) {
    if (when === undefined) continue;
    answers[status] = {
      description: when,
      content: { 'application/json': { schema: errorRef, example: { error: ERROR_EXAMPLES[status] } } },
    };
  }
  return answers;
}

function queryParameter(param: QueryParam): JsonObject {
  const one = param.schema ?? { type: 'string' };
  return {
    name: param.name,
    in: 'query',
    required: param.required === true,
    description: param.description,
    schema: param.list === true ? { type: 'array', items: one } : one,
    ...(param.list === true ? { style: 'form', explode: true } : {}),
    ...(param.example !== undefined ? { example: param.list === true ? [param.example] : param.example } : {}),
  };
}

const TAGS = [
  { name: 'memories', description: 'Write, read, change, forget and restore memories by id' },
  { name: 'browse', description: 'List stored memories page by page, list scopes, and purge (the only hard delete)' },
  { name: 'reads', description: 'Ranked recall and counts' },
  { name: 'serving', description: 'What an agent reads for a turn: the context, and predictions for a forming episode' },
  { name: 'graph', description: 'Relations between memories, relation types and spreading activation' },
  { name: 'consolidation', description: 'The sleep cycle: consolidate a scope, end a session' },
  { name: 'dump', description: 'Lossless dump and restore as NDJSON streams' },
  {
    name: 'maintenance',
    description: 'MAPLE maintenance: surface what matters without a query, run decay, expire decayed records for good',
  },
  { name: 'explore', description: 'What the web UI explores: consolidation runs, overview, graph, versions, provenance' },
  { name: 'service', description: 'Health and this document (no key needed)' },
];

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
  const components: JsonObject = {};
  const errorRef = named(errorBodySchema, 'output', 'Error', components);
  const knownTags = new Set(TAGS.map((t) => t.name));
  for (const route of routes) {
    if (!knownTags.has(route.tag))
      throw new Error(`OpenAPI: route ${route.operationId} has tag "${route.tag}", which the document does not describe`);
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const examples = OPERATION_EXAMPLES[route.operationId] ?? {};
    const parameters: JsonObject[] = [];
    for (const match of route.path.matchAll(/:([A-Za-z_]+)/g)) {
      parameters.push({
        name: match[1],
        in: 'path',
        required: true,
        description: 'The memory or run id (a ULID)',
        schema: { type: 'string' },
      });
    }
    for (const param of route.query ?? []) parameters.push(queryParameter(param));
    const responses: JsonObject = {
      '200': {
        description: route.responseDescription,
        content:
          route.ndjson?.response !== undefined
            ? { 'application/x-ndjson': { schema: named(route.ndjson.response, 'output', `${pascal(route.operationId)}Line`, components) } }
            : {
                'application/json': {
                  schema:
                    route.response !== undefined
                      ? named(route.response, 'output', `${pascal(route.operationId)}Response`, components)
                      : { type: 'object' },
                  ...(examples.response !== undefined ? { example: examples.response } : {}),
                },
              },
      },
    };
    for (const status of errorStatuses(route)) {
      responses[status] = { $ref: `#/components/responses/${(ERROR_RESPONSES[status] as { name: string }).name}` };
    }
    Object.assign(responses, routeErrors(route, errorRef));
    const body = route.body ?? (route.method === 'post' ? z.object({}).loose() : undefined);
    const operation: JsonObject = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(route.description !== undefined ? { description: route.description } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.ndjson?.request !== undefined
        ? {
            requestBody: {
              required: true,
              content: {
                'application/x-ndjson': { schema: named(route.ndjson.request, 'input', `${pascal(route.operationId)}Line`, components) },
              },
            },
          }
        : body !== undefined
          ? {
              requestBody: {
                required: route.bodyOptional !== true,
                content: {
                  'application/json': {
                    schema: named(body, 'input', `${pascal(route.operationId)}Request`, components),
                    ...(examples.request !== undefined ? { example: examples.request } : {}),
                  },
                },
              },
            }
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
        '200': {
          description: 'Serving',
          content: {
            'application/json': {
              schema: named(healthSchema, 'output', 'Health', components),
              example: { status: 'ok', version: info.version, auth: 'auto' },
            },
          },
        },
        '400': { $ref: '#/components/responses/BadRequest' },
        '503': { $ref: '#/components/responses/Unavailable' },
      },
    },
  };
  addComponent(components, 'OpenApiDocument', {
    type: 'object',
    description: 'An OpenAPI 3.1 document',
    properties: { openapi: { type: 'string' } },
    required: ['openapi'],
  });
  paths['/openapi.json'] = {
    get: {
      operationId: 'openapi',
      tags: ['service'],
      summary: 'This document',
      security: [],
      responses: {
        '200': {
          description: 'OpenAPI 3.1 document',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/OpenApiDocument' } } },
        },
        '400': { $ref: '#/components/responses/BadRequest' },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Engram HTTP API',
      version: info.version,
      description:
        'Long-term memory for AI agents. Every read names the scopes it may see; every write names one scope. API keys are bound to a tenant (the first segment of a scope): send `Authorization: Bearer <key>`. Every error answers `{"error": {"code", "message"}}`.' +
        (info.maxBodyBytes !== undefined ? ` Request bodies are limited to ${info.maxBodyBytes} bytes.` : ''),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [
      {
        url: 'http://{host}:{port}',
        description: '`engram serve` (by default on 127.0.0.1:7077)',
        variables: {
          host: { default: '127.0.0.1', description: 'Where the server listens (--host)' },
          port: { default: '7077', description: 'Its port (--port)' },
        },
      },
    ],
    tags: TAGS,
    paths,
    components: {
      schemas: components,
      responses: errorResponseComponents(errorRef),
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key from "engram keys create --tenant <tenant>"' },
      },
    },
  };
}
