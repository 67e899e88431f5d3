/**
 * The HTTP API in-process through `app.request()`: every `/v1` endpoint over a real SQLite store,
 * the OpenAPI document, health, and routing errors.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, type HttpApp } from '../../src/interfaces/http/index.js';
import type { Engram } from '../../src/index.js';
import { tempDir, tempEngram } from '../helpers/temp.js';

interface Json {
  [key: string]: unknown;
}

let engram: Engram;
let cleanup: () => Promise<void>;
let app: HttpApp;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json & Json[] }> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await app.request(path, init);
  return { status: response.status, json: (await response.json()) as Json & Json[] };
}

beforeAll(async () => {
  ({ engram, cleanup } = await tempEngram());
  app = createHttpApp({ engram, auth: 'open' });
});
afterAll(async () => cleanup());

describe('HTTP API /v1 (open mode, no keys)', () => {
  it('remembers one memory and a batch, then recalls them with explanations', async () => {
    const one = await call('POST', '/v1/memories', {
      scope: 'acme/users/alice',
      layer: 'semantic',
      content: 'Alice prefers window seats on long flights.',
    });
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ action: 'created' });
    expect(typeof one.json.id).toBe('string');

    const batch = await call('POST', '/v1/memories', [
      { scope: 'acme/users/alice', content: 'The team dog Biscuit is a golden retriever.' },
      { scope: 'acme/shared', layer: 'procedural', content: 'Always answer in British English.' },
    ]);
    expect(batch.status).toBe(200);
    expect(Array.isArray(batch.json)).toBe(true);
    expect(batch.json).toHaveLength(2);

    const recall = await call('POST', '/v1/recall', { scopes: ['acme/users/alice'], query: 'window seat flights', k: 3 });
    expect(recall.status).toBe(200);
    const hits = recall.json.hits as Json[];
    expect(hits[0]).toMatchObject({ id: one.json.id, content: 'Alice prefers window seats on long flights.' });
    expect(hits[0]?.why).toBeDefined();
    // The read saw only its scope.
    expect(hits.every((h) => h.scope === 'acme/users/alice')).toBe(true);
  });

  it('answers asOf / knownAt reads in valid and transaction time', async () => {
    const created = await call('POST', '/v1/memories', {
      scope: 'acme/time',
      layer: 'semantic',
      content: 'The office was in Leeds.',
      validFrom: '2020-01-01',
      validTo: '2022-01-01',
    });
    expect(created.status).toBe(200);
    const now = await call('POST', '/v1/recall', { scopes: ['acme/time'], query: 'office Leeds' });
    expect((now.json.hits as Json[]).map((h) => h.id)).not.toContain(created.json.id);
    const then = await call('POST', '/v1/recall', { scopes: ['acme/time'], query: 'office Leeds', asOf: '2021-06-01' });
    expect((then.json.hits as Json[]).map((h) => h.id)).toContain(created.json.id);
    const before = await call('POST', '/v1/recall', {
      scopes: ['acme/time'],
      query: 'office Leeds',
      asOf: '2021-06-01',
      knownAt: '2000-01-01T00:00:00Z',
    });
    expect(before.json.hits).toEqual([]);
  });

  it('gets, updates, forgets, restores a memory and shows its history', async () => {
    const { json: created } = await call('POST', '/v1/memories', {
      scope: 'acme/shared',
      layer: 'semantic',
      content: 'Deploys happen on Tuesdays.',
    });
    const id = created.id as string;

    const got = await call('GET', `/v1/memories/${id}?scopes=acme/other,acme/shared`);
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id, content: 'Deploys happen on Tuesdays.', status: 'active' });

    const patched = await call('PATCH', `/v1/memories/${id}`, { scope: 'acme/shared', importance: 0.9, tags: ['ops'] });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ importance: 0.9, tags: ['ops'] });

    const edited = await call('PATCH', `/v1/memories/${id}?scope=acme/shared`, { content: 'Deploys happen on Wednesdays.' });
    expect(edited.json.content).toBe('Deploys happen on Wednesdays.');

    const forgotten = await call('DELETE', `/v1/memories/${id}?scope=acme/shared`);
    expect(forgotten.status).toBe(200);
    expect(forgotten.json.status).toBe('deleted');
    const gone = await call('POST', '/v1/recall', { scopes: ['acme/shared'], query: 'deploys Wednesdays' });
    expect((gone.json.hits as Json[]).map((h) => h.id)).not.toContain(id);

    const restored = await call('POST', `/v1/memories/${id}/restore`, { scope: 'acme/shared' });
    expect(restored.status).toBe(200);
    expect(restored.json.status).toBe('active');

    const history = await call('GET', `/v1/memories/${id}/history?scope=acme/shared`);
    expect(history.status).toBe(200);
    expect((history.json.versions as Json[]).map((v) => v.id)).toEqual([id]);
  });

  it('records supersession and undoes it over HTTP', async () => {
    const old = await call('POST', '/v1/memories', { scope: 'acme/claims', layer: 'semantic', content: "The user's budget is 80 litres." });
    const next = await call('POST', '/v1/memories', {
      scope: 'acme/claims',
      layer: 'semantic',
      content: "The user's budget is 120 litres.",
    });
    expect(next.json).toMatchObject({ action: 'superseded', superseded: [old.json.id] });
    const history = await call('GET', `/v1/memories/${old.json.id as string}/history?scopes=acme/claims`);
    expect((history.json.versions as Json[]).map((v) => v.id)).toEqual([old.json.id, next.json.id]);
    expect((history.json.edges as Json[])[0]).toMatchObject({ type: 'SUPERSEDES' });
    const undone = await call('POST', `/v1/memories/${old.json.id as string}/unsupersede?scope=acme/claims`);
    expect(undone.json.status).toBe('active');
  });

  it("says the server's own time of a /v1 answer in a Server-Timing header", async () => {
    const answer = await app.request('/v1/recall', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['acme/users/alice'], query: 'window seat flights', k: 3 }),
    });
    expect(answer.status).toBe(200);
    const timing = /^engram;dur=(\d+\.\d)$/.exec(answer.headers.get('server-timing') ?? '');
    expect(timing).not.toBeNull();
    expect(Number(timing?.[1])).toBeGreaterThan(0);
    // not on failures, whose time says nothing about the engine
    const refused = await app.request('/v1/recall', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('server-timing')).toBeNull();
  });

  it('counts with GET and POST /v1/stats', async () => {
    const get = await call('GET', '/v1/stats?scopes=acme/users/alice');
    expect(get.status).toBe(200);
    expect(get.json).toMatchObject({ scopes: ['acme/users/alice'], total: 2 });
    const post = await call('POST', '/v1/stats', { scopes: ['acme/users/alice', 'acme/shared'] });
    expect(post.json.total).toBe(4);
  });

  it('maps engine errors to statuses with a JSON error body', async () => {
    const missing = await call('GET', '/v1/memories/01NOPE?scopes=acme/shared');
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ code: 'NOT_FOUND' });

    const noScopes = await call('POST', '/v1/recall', { query: 'anything' });
    expect(noScopes.status).toBe(400);
    expect((noScopes.json.error as Json).code).toBe('INVALID_INPUT');
    expect((noScopes.json.error as Json).message).toMatch(/scopes/);

    const unknownField = await call('POST', '/v1/memories', { scope: 'acme/shared', content: 'x', colour: 'red' });
    expect(unknownField.status).toBe(400);
    expect((unknownField.json.error as Json).message).toMatch(/colour/);

    const getNoScope = await call('GET', '/v1/memories/abc');
    expect(getNoScope.status).toBe(400);

    const twoScopes = await call('DELETE', '/v1/memories/abc?scope=acme/a&scope=acme/b');
    expect(twoScopes.status).toBe(400);

    const conflict = await call('POST', '/v1/memories', {
      scope: 'acme/conf',
      layer: 'semantic',
      content: "The project's budget is 40 euros.",
    });
    await call('POST', '/v1/memories', { scope: 'acme/conf', layer: 'semantic', content: "The project's budget is 90 euros." });
    const restoreSuperseded = await call('POST', `/v1/memories/${conflict.json.id as string}/restore?scope=acme/conf`);
    expect(restoreSuperseded.status).toBe(409);
    expect((restoreSuperseded.json.error as Json).code).toBe('CONFLICT');
  });

  it('answers unknown routes with 404 and wrong methods with 405, as JSON', async () => {
    const unknown = await call('GET', '/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect((unknown.json.error as Json).message).toMatch(/openapi\.json/);
    const wrong = await app.request('/v1/recall', { method: 'GET' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('answers a trailing slash or another letter case with a 404 naming the right path, never a 405 or the web UI', async () => {
    const ui = tempDir('engram-http-ui-');
    writeFileSync(join(ui.dir, 'index.html'), '<!doctype html><title>shell</title>');
    const withUi = createHttpApp({ engram, auth: 'open', ui: ui.dir });
    try {
      expect((await withUi.request('/browse')).status).toBe(200); // a client route is the app's shell
      const cases: [string, string, string][] = [
        ['GET', '/v1/scopes/', 'did you mean /v1/scopes (GET)?'],
        ['GET', '/v1/recall/', 'did you mean /v1/recall (POST)?'],
        ['POST', '/v1/recall/', 'did you mean /v1/recall (POST)?'],
        ['GET', '/v1/memories/01ABC/', 'did you mean /v1/memories/01ABC (GET, PATCH, DELETE)?'],
        ['GET', '/V1/scopes', 'did you mean /v1/scopes (GET)?'],
        ['GET', '/V1/Memories/01ABC/Edges', 'did you mean /v1/memories/01ABC/edges (GET)?'],
        ['GET', '/health/', 'did you mean /health (GET)?'],
        ['GET', '/HEALTH', 'did you mean /health (GET)?'],
        ['GET', '/openapi.json/', 'did you mean /openapi.json (GET)?'],
        ['GET', '//health', 'the endpoints are listed in /openapi.json'],
      ];
      for (const [method, path, hint] of cases) {
        const response = await withUi.request(path, { method });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.headers.get('content-type'), `${method} ${path}`).toMatch(/application\/json/);
        expect(response.headers.get('allow')).toBeNull();
        const error = ((await response.json()) as { error: Json }).error;
        expect(error.code).toBe('NOT_FOUND');
        expect(error.message, `${method} ${path}`).toContain(hint);
      }
      // a known path with another method is still a 405, /health included
      const post = await withUi.request('/health', { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET');
    } finally {
      ui.cleanup();
    }
  });

  it('serves /health and an OpenAPI 3.1 document generated from the zod schemas', async () => {
    const health = await call('GET', '/health');
    expect(health).toEqual({ status: 200, json: { status: 'ok', version: '0.1.0', auth: 'open' } });

    const { status, json: doc } = await call('GET', '/openapi.json');
    expect(status).toBe(200);
    expect(doc.openapi).toBe('3.1.0');
    const paths = doc.paths as Record<string, Record<string, Json>>;
    for (const path of [
      '/v1/memories',
      '/v1/recall',
      '/v1/memories/{id}',
      '/v1/memories/{id}/restore',
      '/v1/memories/{id}/history',
      '/v1/stats',
      '/v1/context',
      '/v1/predict',
      '/v1/relations',
      '/v1/relations/types',
      '/v1/memories/{id}/edges',
      '/v1/activate',
      '/v1/consolidate',
      '/v1/sessions/end',
    ]) {
      expect(paths[path], path).toBeDefined();
    }
    // request bodies are named components: follow the $ref
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    const bodySchema = (op: Json | undefined): Json => {
      const ref = ((op?.requestBody as { content: Record<string, { schema: Json }> }).content['application/json']?.schema as Json)
        .$ref as string;
      return schemas[ref.slice('#/components/schemas/'.length)] as Json;
    };
    const recallSchema = bodySchema(paths['/v1/recall']?.post);
    expect(recallSchema.required).toEqual(expect.arrayContaining(['scopes', 'query']));
    expect(Object.keys(recallSchema.properties as Json)).toEqual(expect.arrayContaining(['k', 'asOf', 'knownAt', 'layers', 'weights']));
    expect(JSON.stringify(bodySchema(paths['/v1/memories']?.post))).toContain('RememberInput');
    expect(JSON.stringify(schemas.RememberInput)).toContain('"episodic"');
    expect(paths['/v1/memories/{id}']?.delete?.responses).toHaveProperty('403');
    expect((doc.components as Json).securitySchemes).toHaveProperty('bearerAuth');
    const operations = Object.entries(paths).flatMap(([path, methods]) => Object.values(methods).map((op) => ({ path, op })));
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, op } of operations) {
      for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
        expect(
          (op.parameters as Json[]).some((p) => p.in === 'path' && p.name === name),
          `${path} documents {${name}}`,
        ).toBe(true);
      }
    }
  });
});

describe('HTTP API /v1: context, prediction, graph and consolidation', () => {
  const scope = 'acme/robot';

  it('relates two memories, lists relation types and edges, activates from one', async () => {
    const { json: ids } = await call('POST', '/v1/memories', [
      { scope, layer: 'semantic', content: 'The kitchen is next to the hallway.' },
      { scope, layer: 'semantic', content: 'The hallway has a charging dock.' },
    ]);
    const [from, to] = (ids as unknown as { id: string }[]).map((r) => r.id) as [string, string];
    const related = await call('POST', '/v1/relations', { scope, from, type: 'RELATED_TO', to, weight: 0.7 });
    expect(related.status).toBe(200);
    expect(related.json).toMatchObject({ action: 'created', symmetric: true });

    const types = await call('GET', `/v1/relations/types?scopes=${scope}`);
    expect((types.json.types as Json[]).map((t) => t.name)).toEqual(expect.arrayContaining(['RELATED_TO', 'SUPERSEDES', 'IS_A']));
    const registered = await call('POST', '/v1/relations/types', { scope, name: 'NEAR', symmetric: true });
    expect(registered.status).toBe(200);
    expect(registered.json).toMatchObject({ name: 'NEAR', builtIn: false });

    const edges = await call('GET', `/v1/memories/${to}/edges?scopes=${scope}`);
    expect(edges.status).toBe(200);
    expect(edges.json.edges).toEqual([expect.objectContaining({ direction: 'both', type: 'RELATED_TO', other: from })]);

    const activated = await call('POST', '/v1/activate', { id: from, scopes: [scope] });
    expect(activated.status).toBe(200);
    expect(JSON.stringify(activated.json)).toContain(to);

    const unknownType = await call('POST', '/v1/relations', { scope, from, type: 'LOVES', to });
    expect(unknownType.status).toBe(400);
  });

  it('answers 404 for the edges of a memory no scope of the read holds, as every read by id does', async () => {
    const { json: lonely } = await call('POST', '/v1/memories', { scope, layer: 'semantic', content: 'The attic has no edges.' });
    const none = await call('GET', `/v1/memories/${lonely.id as string}/edges?scopes=${scope}`);
    expect(none).toEqual({ status: 200, json: { edges: [] } });
    for (const path of [
      `/v1/memories/NO_SUCH_ID/edges?scopes=${scope}`,
      `/v1/memories/${lonely.id as string}/edges?scopes=acme/elsewhere`,
    ]) {
      const missing = await call('GET', path);
      expect(missing.status, path).toBe(404);
      expect(missing.json.error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/No memory with id/) as unknown });
      // the same answer as reading the memory itself
      expect((await call('GET', path.replace('/edges', ''))).status).toBe(404);
    }
    // bad input is still told before the lookup
    expect((await call('GET', `/v1/memories/NO_SUCH_ID/edges?scopes=${scope}&asOf=yesterday-ish`)).status).toBe(400);
    expect((await call('GET', '/v1/memories/NO_SUCH_ID/edges')).status).toBe(400);
  });

  it('builds a context, predicts from past episodes, consolidates and ends a session', async () => {
    const episodes = Array.from({ length: 8 }, (_, i) => ({
      scope,
      layer: 'episodic',
      content: `Grasp attempt ${i} on the coffee mug ${i < 7 ? 'succeeded' : 'failed'}.`,
      perception: { objects: ['coffee_mug'] },
      context: { goal: 'grasp_coffee_mug' },
      action: { tool: 'graspObject' },
      outcome: { success: i < 7 },
    }));
    expect((await call('POST', '/v1/memories', episodes)).status).toBe(200);
    await call('POST', '/v1/memories', { scope, layer: 'procedural', content: 'Always hold mugs by the handle.' });

    const context = await call('POST', '/v1/context', {
      scopes: [scope],
      message: 'pick up the coffee mug',
      percept: { objects: ['coffee_mug'] },
      budgetMs: 1000,
    });
    expect(context.status).toBe(200);
    expect(context.json.markdown).toContain('Always hold mugs by the handle.');

    const consolidated = await call('POST', '/v1/consolidate', { scope });
    expect(consolidated.status).toBe(200);
    expect((consolidated.json.phases as Json[]).map((p) => p.name)).toEqual(
      expect.arrayContaining(['dedup', 'extract', 'ground', 'promote']),
    );

    const predicted = await call('POST', '/v1/predict', {
      scopes: [scope],
      episode: { perception: { objects: ['coffee_mug'] }, context: { goal: 'grasp_coffee_mug' } },
    });
    expect(predicted.status).toBe(200);
    expect(Array.isArray(predicted.json.predictions)).toBe(true);

    const ended = await call('POST', '/v1/sessions/end', { scope, sessionId: 's1' });
    expect(ended.status).toBe(200);
    expect(ended.json.trigger).toBe('session-end');

    const badPhase = await call('POST', '/v1/consolidate', { scope, phases: ['nap'] });
    expect(badPhase.status).toBe(400);
    const noScope = await call('POST', '/v1/context', { message: 'hi' });
    expect(noScope.status).toBe(400);
  });
});
