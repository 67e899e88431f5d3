/**
 * The OpenAPI document generates good clients: every request and response body is a named component,
 * the examples are valid (request examples are accepted by the server, response examples and real
 * responses match the response schemas), `servers` points at `engram serve`, and each route documents
 * the errors it can answer. `npm run lint:openapi` lints the same document with Redocly.
 */
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument, createHttpApp, httpRoutes, type HttpApp } from '../../src/interfaces/http/index.js';
import { OPERATION_EXAMPLES } from '../../src/interfaces/http/openapi-examples.js';
import type { Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let engram: Engram;
let cleanup: () => Promise<void>;
let app: HttpApp;
let doc: Json;
const routes = httpRoutes();

/** Every answer of this file must be declared by its operation: a route answering an undeclared status fails here. */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await app.request(path, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await response.json()) as Json;
  if (doc !== undefined) {
    const declared = Object.keys(operationOf(method, path).responses as Json);
    expect(declared, `${method} ${path} answered ${response.status} (${JSON.stringify(json).slice(0, 200)}) but declares only`).toContain(
      String(response.status),
    );
  }
  return { status: response.status, json };
}

/** The documented operation serving `method` `path` (a path with its query string and ids filled in). */
function operationOf(method: string, path: string): Json {
  const bare = path.split('?')[0] as string;
  const matches = Object.keys(doc.paths as Json).filter((template) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare),
  );
  // a literal path wins over a template (/v1/relations/types over a {id} pattern)
  const template = matches.find((t) => !t.includes('{')) ?? matches[0];
  const op = template !== undefined ? (doc.paths[template][method.toLowerCase()] as Json | undefined) : undefined;
  if (op === undefined) throw new Error(`${method} ${path} is not a documented operation`);
  return op;
}

function operations(): { path: string; method: string; op: Json }[] {
  return Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
    Object.entries(methods as Json).map(([method, op]) => ({ path, method, op: op as Json })),
  );
}

beforeAll(async () => {
  ({ engram, cleanup } = await tempEngram());
  app = createHttpApp({ engram, auth: 'open', ui: false });
  doc = (await call('GET', '/openapi.json')).json;
});
afterAll(async () => cleanup());

describe('the OpenAPI document', () => {
  it('names a component for every request and response body, and every reference resolves', () => {
    for (const { path, method, op } of operations()) {
      // JSON, or NDJSON for the streamed routes: either way one named schema
      const body = Object.values((op.requestBody?.content ?? {}) as Json)[0]?.schema;
      if (body !== undefined) expect(Object.keys(body), `${method} ${path} request`).toEqual(['$ref']);
      const ok = Object.values((op.responses['200']?.content ?? {}) as Json)[0]?.schema;
      expect(ok !== undefined && Object.keys(ok).length === 1 && typeof ok.$ref === 'string', `${method} ${path} response is a $ref`).toBe(
        true,
      );
    }
    for (const ref of JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? []) {
      const [kind, name] = ref.slice('"$ref":"#/components/'.length, -1).split('/') as [string, string];
      expect(doc.components[kind]?.[name], ref).toBeDefined();
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'Memory',
        'RememberInput',
        'RememberResult',
        'RecallRequest',
        'RecallResult',
        'RecallHit',
        'MemoryPage',
        'ScopeList',
        'PurgeResult',
        'Stats',
        'StructuredContext',
        'Error',
      ]),
    );
  });

  it('refuses two different schemas under one name (a client would get the wrong type)', () => {
    const route = (operationId: string, response: z.ZodType) => ({
      method: 'get' as const,
      path: `/v1/${operationId}`,
      operationId,
      tag: 'reads',
      summary: operationId,
      response,
      responseDescription: 'x',
      handle: async () => ({}),
    });
    const one = z.object({ a: z.string() }).meta({ id: 'Clash' });
    const other = z.object({ b: z.number() }).meta({ id: 'Clash' });
    expect(() =>
      buildOpenApiDocument([route('one', z.object({ x: one })), route('two', z.object({ y: other }))], { version: '0' }),
    ).toThrow(/two different schemas are named Clash/);
    expect(() => buildOpenApiDocument([route('one', one), route('two', one)], { version: '0' })).not.toThrow();
  });

  it('has a server variable defaulting to engram serve on 127.0.0.1:7077', () => {
    const [server] = doc.servers as Json[];
    const resolved = (server?.url as string).replace(/\{(\w+)\}/g, (_, name: string) => server?.variables[name].default as string);
    expect(resolved).toBe('http://127.0.0.1:7077');
  });

  it('documents the errors each route can answer, with the shared error body', () => {
    const responses = (path: string, method: string): Json => doc.paths[path][method].responses as Json;
    expect(Object.keys(responses('/v1/memories/{id}', 'get'))).toEqual(expect.arrayContaining(['400', '401', '403', '404', '503']));
    expect(responses('/v1/memories/{id}', 'get')).not.toHaveProperty('413');
    expect(responses('/v1/scopes', 'get')).not.toHaveProperty('404');
    // an unknown query parameter is a 400 on every route, those without parameters included
    expect(responses('/v1/scopes', 'get')).toHaveProperty('400');
    expect(Object.keys(responses('/v1/memories', 'post'))).toEqual(expect.arrayContaining(['400', '401', '403', '413', '503']));
    expect(responses('/v1/consolidate', 'post')['409'].description).toMatch(/LOCKED/);
    expect(responses('/v1/memories/{id}/restore', 'post')['409'].description).toMatch(/CONFLICT/);
    expect(responses('/v1/recall', 'post')).not.toHaveProperty('409');
    expect(doc.components.responses.Unavailable.headers).toHaveProperty('Retry-After');
    expect(doc.components.responses.BadRequest.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('declares every error status a route answers (an undeclared 404 or 409 fails the call helper)', async () => {
    const scope = 'acme/openapi-errors';
    const ghost = '01M95ZJRP9KB4EADFSP3MWQDE0';
    const remember = async (content: string): Promise<string> =>
      (await call('POST', '/v1/memories', { scope, content, layer: 'semantic' })).json.id;
    const a = await remember('Dana drinks green tea every morning.');
    const b = await remember('Dana cycles to work.');
    const expectAnswer = async (status: number, method: string, path: string, body?: unknown): Promise<void> => {
      const answer = await call(method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.json)}`).toBe(status);
      const declared = operationOf(method, path).responses[String(status)] as Json;
      if (status === 404 || status === 409) {
        // the case is the route's own, with the shared error body
        expect(declared.description, `${method} ${path}`).toMatch(status === 404 ? /NOT_FOUND/ : new RegExp(answer.json.error.code));
        expect(declared.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
    };
    // 404: an unknown id in the path, and unknown ids in a body or the query string
    for (const [method, path, body] of [
      ['GET', `/v1/memories/${ghost}?scopes=${scope}`],
      ['PATCH', `/v1/memories/${ghost}`, { scope, importance: 0.5 }],
      ['DELETE', `/v1/memories/${ghost}?scope=${scope}`],
      ['POST', `/v1/memories/${ghost}/restore`, { scope }],
      ['POST', `/v1/memories/${ghost}/unsupersede`, { scope }],
      ['GET', `/v1/memories/${ghost}/history?scopes=${scope}`],
      ['GET', `/v1/memories/${ghost}/versions?scope=${scope}`],
      ['GET', `/v1/memories/${ghost}/provenance?scope=${scope}`],
      ['GET', `/v1/memories/${ghost}/edges?scopes=${scope}`],
      ['GET', `/v1/consolidation/runs/${ghost}?scope=${scope}`],
      ['POST', '/v1/relations', { scope, from: a, type: 'RELATED_TO', to: ghost }],
      ['POST', '/v1/activate', { id: ghost, scopes: [scope] }],
      ['GET', `/v1/graph?scope=${scope}&focus=${ghost}`],
    ] as const) {
      await expectAnswer(404, method, path, body);
    }
    // 409: a state the request conflicts with
    await expectAnswer(200, 'POST', '/v1/relations', { scope, from: a, type: 'RELATED_TO', to: b });
    await expectAnswer(409, 'POST', `/v1/memories/${a}/unsupersede`, { scope });
    await expectAnswer(200, 'POST', '/v1/relations/types', { scope, name: 'OPENAPI_LIKES', symmetric: false });
    await expectAnswer(409, 'POST', '/v1/relations/types', { scope, name: 'OPENAPI_LIKES', symmetric: true });
    expect(await engram.store.acquireJobLock(`consolidate:${scope}`, 'openapi-test', 60_000)).toBe(true);
    try {
      await expectAnswer(409, 'POST', '/v1/decay', { scope, dryRun: false });
      await expectAnswer(409, 'POST', '/v1/consolidate', { scope });
      await expectAnswer(409, 'POST', '/v1/sessions/end', { scope, sessionId: 's1' });
      await expectAnswer(200, 'POST', '/v1/decay', { scope, dryRun: true });
    } finally {
      await engram.store.releaseJobLock(`consolidate:${scope}`, 'openapi-test');
    }
    // routes that cannot answer them do not declare them
    for (const [path, method] of [
      ['/v1/recall', 'post'],
      ['/v1/scopes', 'get'],
      ['/v1/memories', 'get'],
      ['/v1/purge', 'post'],
    ] as const) {
      expect(Object.keys(doc.paths[path][method].responses as Json), `${method} ${path}`).not.toEqual(expect.arrayContaining(['404']));
      expect(doc.paths[path][method].responses, `${method} ${path}`).not.toHaveProperty('409');
    }
  });

  it('has examples for the main operations, each naming a real route', () => {
    const ids = new Set(routes.map((r) => r.operationId));
    for (const id of Object.keys(OPERATION_EXAMPLES)) expect(ids.has(id), id).toBe(true);
    for (const id of ['remember', 'recall', 'getMemory', 'updateMemory', 'listMemories', 'context', 'purge', 'stats']) {
      const route = routes.find((r) => r.operationId === id);
      const op = doc.paths[(route?.path as string).replace(/:(\w+)/g, '{$1}')][route?.method as string] as Json;
      expect(op.responses['200'].content['application/json'].example, id).toBeDefined();
      if (route?.body !== undefined) expect(op.requestBody.content['application/json'].example, id).toBeDefined();
    }
  });

  it('request examples parse with the route schemas, and response examples match the response schemas', () => {
    for (const route of routes) {
      const examples = OPERATION_EXAMPLES[route.operationId];
      if (examples?.request !== undefined) {
        const parsed = (route.body as z.ZodType).safeParse(examples.request);
        expect(parsed.success, `${route.operationId} request: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
      if (examples?.response !== undefined) {
        const parsed = (route.response as z.ZodType).safeParse(examples.response);
        expect(parsed.success, `${route.operationId} response: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
    }
  });

  it('the server accepts every request example (no 400), and real answers match the response schemas', async () => {
    const checked: string[] = [];
    for (const route of routes) {
      const example = OPERATION_EXAMPLES[route.operationId]?.request;
      if (example === undefined) continue;
      const path = route.path.replace(':id', '01JBQZ8N5W3M6Y0D2R7K4T9XVA');
      const answer = await call(route.method.toUpperCase(), path, example);
      // examples name ids this empty store does not hold: 404 is the honest answer there
      expect([200, 404], `${route.operationId}: ${JSON.stringify(answer.json)}`).toContain(answer.status);
      if (answer.status === 200 && route.response !== undefined) {
        const parsed = route.response.safeParse(answer.json);
        expect(parsed.success, `${route.operationId} answer: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
        checked.push(route.operationId);
      }
    }
    for (const [operationId, method, path] of [
      ['listMemories', 'GET', '/v1/memories?scope=acme/users/alice'],
      ['listScopes', 'GET', '/v1/scopes'],
      ['statsGet', 'GET', '/v1/stats?scopes=acme/users/alice'],
      ['relationTypes', 'GET', '/v1/relations/types?scopes=acme/users/alice'],
    ] as const) {
      const answer = await call(method, path);
      expect(answer.status, operationId).toBe(200);
      const parsed = (routes.find((r) => r.operationId === operationId)?.response as z.ZodType).safeParse(answer.json);
      expect(parsed.success, `${operationId} answer: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      checked.push(operationId);
    }
    const id = (await call('GET', '/v1/memories?scope=acme/users/alice')).json.items[0].id as string;
    const got = await call('GET', `/v1/memories/${id}?scopes=acme/users/alice`);
    expect(routes.find((r) => r.operationId === 'getMemory')?.response?.safeParse(got.json).success).toBe(true);
    expect(checked).toEqual(expect.arrayContaining(['remember', 'recall', 'context', 'stats', 'purge', 'listMemories', 'listScopes']));
  });

  it('real answers validate against the response schemas of the document itself (fields the engine adds are declared)', async () => {
    // zod's safeParse drops undeclared keys, so the check above cannot see a closed object missing a field:
    // here the JSON Schema a generated client uses judges the answer as sent
    const ajv = new Ajv({ allErrors: true, unknownFormats: 'ignore' });
    ajv.addSchema({ components: { schemas: doc.components.schemas } }, 'openapi');
    const expectValid = (component: string, answer: unknown): void => {
      const validate = ajv.compile({ $ref: `openapi#/components/schemas/${component}` });
      expect(validate(answer), `${component}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    const scope = 'acme/openapi-real';
    await engram.setProfileSchema({ scope, fields: [{ name: 'favourite language', description: 'the language the user likes' }] });
    const decided = await call('POST', '/v1/memories', {
      scope,
      layer: 'episodic',
      content: 'We chose Rust for the parser rewrite.',
      rejected: ['Go for the parser rewrite'],
    });
    expect(decided.status).toBe(200);
    expect(decided.json.rejected).toHaveLength(1);
    expectValid('RememberResult', decided.json);
    const batch = await call('POST', '/v1/memories', [{ scope, content: 'The parser rewrite shipped.', follows: decided.json.id }]);
    expectValid('RememberResponse', batch.json);

    const now = Date.now();
    await engram.store.transaction(async (tx) => {
      await tx.setState(
        scope,
        'affect/cautions',
        {
          at: now,
          items: [{ concept: 'parser', recordId: decided.json.id, content: 'Caution on parser: 2 of 3 failed.', k: 2, n: 3, since: now }],
        },
        now,
      );
      await tx.setState(
        scope,
        'affect/mood/latest',
        {
          recordId: decided.json.id,
          period: '2024-W10',
          tone: 'tense',
          valence: -0.4,
          intensity: 0.6,
          moods: [{ mood: 'frustrated' }],
          content: 'A tense week.',
          to: now,
        },
        now,
      );
    });
    const context = await call('POST', '/v1/context', {
      scopes: [scope],
      message: 'Why Rust for the parser rewrite?',
      chains: true,
      // every part answers: the default 50 ms budget skips parts on a loaded machine, and this test checks shapes
      budgetMs: 10_000,
    });
    expect(context.status).toBe(200);
    expect(context.json.parts.cautions.items).toHaveLength(1);
    expect(context.json.parts.mood.items).toHaveLength(1);
    expect(context.json.parts.chains.items.length).toBeGreaterThan(0);
    expect(context.json.parts.profileFields).toBeDefined();
    expectValid('StructuredContext', context.json);
  });
});
