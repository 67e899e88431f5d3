/**
 * Property-based fuzzing of every HTTP route (in-process, through `app.request`): hostile bodies, path
 * ids and query parameters. After every input: no 5xx, an error body with a code and a message that
 * says what was wrong, the app still answering, and — for every rejected input and every read — the
 * store exactly as it was. SQLite always; the PostgreSQL server when ENGRAM_TEST_PG_URL is set.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { createHttpApp, httpRoutes, type HttpApp } from '../../src/interfaces/http/index.js';
import type { RouteSpec } from '../../src/interfaces/http/route.js';
import { openPostgresStore } from '../../src/storage/postgres/index.js';
import { freshPgSchema, pgTestUrl, PG_SKIP_REASON } from '../helpers/postgres.js';
import { tempEngram } from '../helpers/temp.js';
import { count, printFigures } from './figures.js';
import { hostileString, hostileValue, mutateField, PROTOTYPE_NAMES, RAW_BODIES, toJsonText } from './hostile-values.js';
import { openSqliteDigest, pgDigest, type StoreDigest } from './store-digest.js';

const SCOPE = 'acme/a';
const WRITES = new Set([
  'purge',
  'decay',
  'expire',
  'remember',
  'updateMemory',
  'forgetMemory',
  'restoreMemory',
  'unsupersedeMemory',
  'relate',
  'registerRelationType',
  'consolidate',
  'endSession',
]);

interface Example {
  id?: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** A valid request per route, which the fuzzer then spoils one part of. */
function examples(ids: readonly string[]): Record<string, Example> {
  const [a = 'x', b = 'y'] = ids;
  const scopes = { scopes: SCOPE };
  return {
    remember: { body: { scope: SCOPE, content: 'The staging database runs PostgreSQL 15.', tags: ['db'], importance: 0.5 } },
    getMemory: { id: a, query: scopes },
    updateMemory: { id: a, body: { scope: SCOPE, importance: 0.9 } },
    forgetMemory: { id: b, body: { scope: SCOPE } },
    restoreMemory: { id: b, body: { scope: SCOPE } },
    unsupersedeMemory: { id: a, body: { scope: SCOPE } },
    memoryHistory: { id: a, query: scopes },
    recall: { body: { query: 'which database', scopes: [SCOPE], k: 5, asOf: '2026-01-01T00:00:00.000Z' } },
    statsGet: { query: scopes },
    stats: { body: { scopes: [SCOPE] } },
    context: { body: { scopes: [SCOPE], message: 'what runs staging?', maxTokens: 500 } },
    predict: { body: { scopes: [SCOPE], episode: { content: 'deploying staging' }, limit: 3 } },
    relate: { body: { scope: SCOPE, from: a, type: 'RELATED_TO', to: b, weight: 0.5 } },
    relationTypes: {},
    registerRelationType: { body: { name: 'FUZZ_LINK', symmetric: false, description: 'fuzz' } },
    memoryEdges: { id: a, query: { ...scopes, types: 'RELATED_TO', asOf: '2026-01-01T00:00:00.000Z' } },
    activate: { body: { id: a, scopes: [SCOPE], hops: 2, limit: 5 } },
    consolidate: { body: { scope: SCOPE, phases: ['dedup'] } },
    endSession: { body: { scope: SCOPE, sessionId: 's-1' } },
    listMemories: {
      query: {
        scope: SCOPE,
        layer: 'semantic',
        status: 'active',
        text: 'database',
        sort: 'importance',
        order: 'asc',
        limit: '5',
        validFrom: '2020-01-01',
      },
    },
    listScopes: {},
    listConsolidationRuns: { query: { scope: SCOPE, limit: '5' } },
    getConsolidationRun: { id: '01J0000000000000000000000A', query: { scope: SCOPE } },
    overview: { query: { scope: SCOPE } },
    graph: { query: { scope: SCOPE, relationType: 'RELATED_TO', focus: a, limit: '20' } },
    memoryVersions: { id: a, query: { scope: SCOPE } },
    memoryProvenance: { id: a, query: { scope: SCOPE } },
    // its own scope, so an accepted purge never removes what the other routes' examples use
    purge: { body: { scope: 'acme/purge', ids: [a], filter: undefined, confirm: true } },
    surface: { body: { scopes: [SCOPE], context: 'database', limit: 3 } },
    decay: { body: { scope: SCOPE, dryRun: true } },
    exportDump: { query: { scope: SCOPE } },
    // a dump's header line alone: a cut-off dump, refused after reading it, so the store stays as it was
    importDump: {
      body: {
        kind: 'header',
        format: 'engram-dump',
        version: 1,
        embedder: { name: 'hash:256', dimension: 256 },
        embeddings: false,
        scopes: [SCOPE],
      },
    },
    expire: { body: { scope: SCOPE, dryRun: true } },
  };
}

/** One fuzzed request: which part of the example is spoiled, and how. */
type Spoil =
  | { kind: 'field'; key: string; value: unknown }
  | { kind: 'body'; value: unknown }
  | { kind: 'raw'; text: string }
  | { kind: 'id'; id: string }
  | { kind: 'query'; key: string; value: string };

function spoilArbitrary(example: Example): fc.Arbitrary<Spoil> {
  const keys = [...Object.keys(example.body ?? {}), ...PROTOTYPE_NAMES, 'extra'];
  const queryKeys = [...Object.keys(example.query ?? {}), 'scope', 'asOf', 'knownAt', '__proto__'];
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('field' as const), key: fc.constantFrom(...keys), value: hostileValue }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('body' as const), value: hostileValue }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('raw' as const), text: fc.constantFrom(...RAW_BODIES) }) },
    { weight: example.id !== undefined ? 2 : 0, arbitrary: fc.record({ kind: fc.constant('id' as const), id: hostileString }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('query' as const), key: fc.constantFrom(...queryKeys), value: hostileString }) },
  );
}

/** Percent-encodes any string, lone surrogates included (as the bytes a careless client would send). */
function encodeAny(text: string): string {
  let out = '';
  for (const ch of text) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      const c = ch.charCodeAt(0);
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
  }
  return out;
}

function buildRequest(route: RouteSpec, example: Example, spoil: Spoil): { path: string; init: RequestInit } {
  const id = spoil.kind === 'id' ? spoil.id : (example.id ?? 'x');
  const query = new Map(Object.entries(example.query ?? {}));
  if (spoil.kind === 'query') query.set(spoil.key, spoil.value);
  const path =
    route.path.replace(':id', encodeAny(id)) +
    (query.size > 0 ? '?' + [...query].map(([k, v]) => `${encodeAny(k)}=${encodeAny(v)}`).join('&') : '');
  const init: RequestInit = { method: route.method.toUpperCase(), headers: { 'content-type': 'application/json' } };
  if (route.method !== 'get') {
    if (spoil.kind === 'raw') init.body = spoil.text;
    else if (spoil.kind === 'body') init.body = toJsonText(spoil.value);
    else if (spoil.kind === 'field') init.body = toJsonText(mutateField(example.body ?? {}, spoil.key, spoil.value));
    else if (example.body !== undefined) init.body = JSON.stringify(example.body);
  }
  return { path, init };
}

interface Backend {
  name: string;
  runs: number;
  /** Whether to send every pathological body once (parsing happens before the store, so one backend is enough). */
  sweep: boolean;
  open(): Promise<{ engram: Engram; digest: () => Promise<StoreDigest>; cleanup: () => Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'SQLite file',
    runs: 20,
    sweep: true,
    async open() {
      const { engram, path, cleanup } = await tempEngram();
      const reader = openSqliteDigest(path);
      return {
        engram,
        digest: async () => reader.digest(),
        cleanup: async () => {
          reader.close();
          await cleanup();
        },
      };
    },
  },
];
const pgUrl = pgTestUrl();
if (pgUrl !== undefined) {
  backends.push({
    name: 'PostgreSQL server',
    runs: 6,
    sweep: false,
    async open() {
      const fresh = freshPgSchema('fz');
      const embedder = new HashEmbedder();
      const store = await openPostgresStore({
        url: fresh.url,
        embedding: { name: embedder.name, dimension: embedder.dimension },
        poolSize: 2,
      });
      const engram = new Engram({ store, embedder });
      return {
        engram,
        digest: () => pgDigest(pgUrl, fresh.schema),
        cleanup: async () => {
          await engram.close();
          await fresh.drop();
        },
      };
    },
  });
} else {
  describe.skip(`HTTP fuzzing on the PostgreSQL server (${PG_SKIP_REASON})`, () => {
    it('fuzzes every route on PostgreSQL', () => undefined);
  });
}

afterAll(() => printFigures('HTTP fuzzing'));

for (const backend of backends) {
  describe(`HTTP fuzzing (${backend.name})`, () => {
    let env: Awaited<ReturnType<Backend['open']>>;
    let app: HttpApp;
    let example: Record<string, Example>;
    const internal: unknown[] = [];

    beforeAll(async () => {
      env = await backend.open();
      app = createHttpApp({ engram: env.engram, auth: 'open', log: (error) => internal.push(error) });
      const results = await env.engram.remember([
        { scope: SCOPE, content: 'The staging database runs PostgreSQL 15.', layer: 'semantic' },
        { scope: SCOPE, content: 'Alice deployed the billing service on Friday.' },
        { scope: 'globex/b', content: 'Globex keeps its secrets in another scope.' },
      ]);
      example = examples(results.map((r) => r.id));
    });
    afterAll(async () => env.cleanup());

    for (const [index, route] of httpRoutes().entries()) {
      it(`${route.method.toUpperCase()} ${route.path} (${route.operationId}): no 5xx, a clear error, the store unchanged when rejected`, async () => {
        const base = example[route.operationId];
        expect(base, `no example for ${route.operationId}: add one`).toBeDefined();
        const check = async (spoil: Spoil) => {
          const { path, init } = buildRequest(route, base as Example, spoil);
          const before = await env.digest();
          const response = await app.request(path, init);
          count(`${backend.name}: inputs tried`);
          const text = await response.text();
          expect(response.status, `${init.method} ${path.slice(0, 200)} → ${response.status}: ${text.slice(0, 300)}`).toBeLessThan(500);
          if (response.status >= 400) {
            const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
            expect(typeof body.error?.code).toBe('string');
            expect(String(body.error?.message).length, `message too thin: ${text.slice(0, 200)}`).toBeGreaterThan(15);
            count(`${backend.name}: inputs rejected (store verified unchanged)`);
          }
          if (response.status >= 400 || !WRITES.has(route.operationId)) {
            expect(await env.digest(), `the store changed after ${init.method} ${path.slice(0, 200)} → ${response.status}`).toEqual(before);
          }
        };
        // Every pathological body once (deep nesting, huge arrays, non-JSON), then the random spoils.
        if (backend.sweep && route.method !== 'get') for (const text of RAW_BODIES) await check({ kind: 'raw', text });
        await fc.assert(fc.asyncProperty(spoilArbitrary(base as Example), check), {
          seed: 20_261_201 + index,
          numRuns: backend.runs,
          endOnFailure: true,
        });
        const health = await app.request('/health');
        expect(health.status).toBe(200);
        expect(internal, 'internal errors were logged').toEqual([]);
      }, 120_000);
    }
  });
}
