/**
 * Isolation: randomised cross-scope and cross-tenant probes over every read path (recall, context,
 * predict, get, history, edges, activate, stats), on a SQLite file and (when ENGRAM_TEST_PG_URL is set)
 * the PostgreSQL server. A read limited to scopes S never returns, names or counts anything of a scope
 * outside S; over HTTP, a tenant's key is refused every other tenant's scope.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { ApiKeys, createHttpApp, type HttpApp } from '../../src/interfaces/http/index.js';
import { openPostgresStore } from '../../src/storage/postgres/index.js';
import { freshPgSchema, pgTestUrl, PG_SKIP_REASON } from '../helpers/postgres.js';
import { tempEngram } from '../helpers/temp.js';
import { count, printFigures } from './figures.js';

const SCOPES = ['acme/a', 'acme/b', 'globex/a', 'globex/b'] as const;
type ScopeName = (typeof SCOPES)[number];
const marker = (scope: string) => `mk${scope.replace(/[^a-z]/g, '')}`;
const WORDS = ['ledger', 'invoice', 'deploy', 'Alice', 'database', 'Friday', 'migration', 'editor', 'budget', 'robot'];

interface Seeded {
  ids: Map<ScopeName, string[]>;
  counts: Map<ScopeName, number>;
}

async function seed(engram: Engram): Promise<Seeded> {
  const ids = new Map<ScopeName, string[]>();
  const counts = new Map<ScopeName, number>();
  for (const scope of SCOPES) {
    const m = marker(scope);
    const results = await engram.remember([
      { scope, content: `The ${m} ledger database runs on Friday; Alice owns the ${m} invoice budget.`, layer: 'semantic' },
      {
        scope,
        content: `Alice deployed the ${m} migration with the robot editor.`,
        occurredAt: '2026-03-01T10:00:00Z',
        perception: { people: ['Alice'], objects: ['robot'] },
      },
      { scope, content: `Always check the ${m} budget before a deploy.`, layer: 'procedural' },
      { scope, content: `Bob reviewed the ${m} invoice and the database migration on Monday.` },
    ]);
    const list = results.map((r) => r.id);
    await engram.relate({ scope, from: list[0] as string, type: 'RELATED_TO', to: list[1] as string });
    await engram.update(
      list[0] as string,
      { content: `The ${m} ledger database runs on Saturday now; Alice owns the ${m} invoice budget.` },
      { scope },
    );
    ids.set(scope, list);
    counts.set(scope, (await engram.stats({ scopes: [scope] })).total);
  }
  return { ids, counts };
}

/**
 * No id or marker of a scope outside `allowed` appears anywhere in `value`; what the caller itself sent
 * (`supplied`: the id and scopes it asked for) may be echoed back, in an error for instance.
 */
function assertNoLeak(value: unknown, allowed: readonly string[], seeded: Seeded, what: string, supplied: readonly string[] = []): void {
  const text = JSON.stringify(value) ?? '';
  for (const scope of SCOPES) {
    if (allowed.includes(scope)) continue;
    if (!supplied.includes(marker(scope)))
      expect(text.includes(marker(scope)), `${what} with scopes ${allowed.join(',')} shows content of ${scope}`).toBe(false);
    if (!supplied.includes(scope)) expect(text.includes(scope), `${what} with scopes ${allowed.join(',')} names ${scope}`).toBe(false);
    for (const id of seeded.ids.get(scope) ?? []) {
      if (!supplied.includes(id))
        expect(text.includes(id), `${what} with scopes ${allowed.join(',')} shows id ${id} of ${scope}`).toBe(false);
    }
  }
}

/** Runs a read that may refuse (NOT_FOUND for an id outside the scopes); anything else must not leak. */
async function probe(
  what: string,
  allowed: readonly string[],
  seeded: Seeded,
  supplied: readonly string[],
  run: () => Promise<unknown>,
): Promise<void> {
  count('isolation probes run');
  try {
    assertNoLeak(await run(), allowed, seeded, what, supplied);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === undefined) throw error;
    expect(['NOT_FOUND', 'INVALID_INPUT'], `${what}: ${String(error)}`).toContain(code);
    assertNoLeak(String((error as Error).message), allowed, seeded, `${what} (its error)`, supplied);
  }
}

interface Backend {
  name: string;
  runs: number;
  open(): Promise<{ engram: Engram; cleanup: () => Promise<void> }>;
}

const backends: Backend[] = [{ name: 'SQLite file', runs: 60, open: () => tempEngram() }];
const pgUrl = pgTestUrl();
if (pgUrl !== undefined) {
  backends.push({
    name: 'PostgreSQL server',
    runs: 30,
    async open() {
      const fresh = freshPgSchema('iso');
      const embedder = new HashEmbedder();
      const store = await openPostgresStore({
        url: fresh.url,
        embedding: { name: embedder.name, dimension: embedder.dimension },
        poolSize: 2,
      });
      const engram = new Engram({ store, embedder });
      return {
        engram,
        cleanup: async () => {
          await engram.close();
          await fresh.drop();
        },
      };
    },
  });
} else {
  describe.skip(`isolation on the PostgreSQL server (${PG_SKIP_REASON})`, () => {
    it('probes every read path on PostgreSQL', () => undefined);
  });
}

afterAll(() => printFigures('isolation'));

const probeArbitrary = fc.record({
  scopes: fc.subarray([...SCOPES], { minLength: 1 }),
  target: fc.constantFrom(...SCOPES),
  index: fc.nat({ max: 3 }),
  words: fc.array(fc.constantFrom(...WORDS, ...SCOPES.map(marker)), { minLength: 1, maxLength: 4 }),
});

for (const backend of backends) {
  describe(`isolation (${backend.name})`, () => {
    let env: Awaited<ReturnType<Backend['open']>>;
    let seeded: Seeded;
    let app: HttpApp;
    const tenantKeys = new Map<string, string>();

    beforeAll(async () => {
      env = await backend.open();
      seeded = await seed(env.engram);
      const keys = new ApiKeys(env.engram.store, { presenceTtlMs: 0 });
      for (const tenant of ['acme', 'globex']) tenantKeys.set(tenant, (await keys.create({ tenant })).key);
      app = createHttpApp({ engram: env.engram, keys, auth: 'required', log: () => undefined });
    }, 120_000);
    afterAll(async () => env.cleanup());

    it('every read path, limited to random scopes, shows nothing of the other scopes', async () => {
      const e = env.engram;
      await fc.assert(
        fc.asyncProperty(probeArbitrary, async ({ scopes, target, index, words }) => {
          const id = seeded.ids.get(target)?.[index] as string;
          const query = words.join(' ');
          // the query may name another scope's marker: echoing the caller's own words is no leak
          const said = [...words];
          await probe('recall', scopes, seeded, said, async () => {
            const result = await e.recall(query, { scopes, k: 20 });
            for (const hit of result.hits) expect(scopes).toContain(hit.scope);
            return result;
          });
          await probe('recall asOf/knownAt', scopes, seeded, said, () =>
            e.recall(query, { scopes, asOf: '2026-03-02T00:00:00Z', knownAt: Date.now(), includeSuperseded: true }),
          );
          await probe('context', scopes, seeded, said, () =>
            e.context({ scopes, message: query, percept: { people: ['Alice'], objects: ['robot'] } }),
          );
          await probe('predict', scopes, seeded, said, () =>
            e.predict({ scopes, episode: { content: query, perception: { people: ['Alice'], objects: ['robot'] } } }),
          );
          await probe('get', scopes, seeded, [id, ...said], () => e.get(id, { scopes }));
          await probe('history', scopes, seeded, [id, ...said], () => e.history(id, { scopes }));
          await probe('edges', scopes, seeded, [id, ...said], () => e.edges(id, { scopes }));
          await probe('activate', scopes, seeded, [id, ...said], () => e.activate(id, { scopes, hops: 3 }));
          const stats = await e.stats({ scopes });
          count('isolation probes run');
          expect(stats.total, `stats over ${scopes.join(',')}`).toBe(scopes.reduce((sum, s) => sum + (seeded.counts.get(s) ?? 0), 0));
          // An id outside the scopes reads as absent, not as forbidden (which would confirm it exists).
          if (!scopes.includes(target)) await expect(e.get(id, { scopes })).rejects.toMatchObject({ code: 'NOT_FOUND' });
        }),
        { seed: 20_261_203, numRuns: backend.runs, endOnFailure: true },
      );
    }, 240_000);

    it("over HTTP, a tenant key is refused the other tenant's scopes on every read route, and sees nothing of them in its own", async () => {
      const reads = (scopes: string[], id: string, query: string) => [
        { method: 'POST', path: '/v1/recall', body: { query, scopes } },
        { method: 'POST', path: '/v1/context', body: { scopes, message: query } },
        { method: 'POST', path: '/v1/predict', body: { scopes, episode: { content: query } } },
        { method: 'POST', path: '/v1/activate', body: { id, scopes } },
        { method: 'POST', path: '/v1/stats', body: { scopes } },
        { method: 'GET', path: `/v1/stats?scopes=${scopes.join(',')}` },
        { method: 'GET', path: `/v1/memories/${id}?scopes=${scopes.join(',')}` },
        { method: 'GET', path: `/v1/memories/${id}/history?scopes=${scopes.join(',')}` },
        { method: 'GET', path: `/v1/memories/${id}/edges?scopes=${scopes.join(',')}` },
      ];
      await fc.assert(
        fc.asyncProperty(probeArbitrary, fc.constantFrom('acme', 'globex'), async ({ scopes, target, index, words }, tenant) => {
          const id = seeded.ids.get(target)?.[index] as string;
          const own = scopes.filter((s) => s.startsWith(`${tenant}/`));
          for (const read of reads(scopes, id, words.join(' '))) {
            const response = await app.request(read.path, {
              method: read.method,
              headers: { authorization: `Bearer ${tenantKeys.get(tenant)}`, 'content-type': 'application/json' },
              ...(read.body !== undefined ? { body: JSON.stringify(read.body) } : {}),
            });
            count('isolation probes run');
            const body = (await response.json()) as unknown;
            if (own.length < scopes.length) {
              expect(response.status, `${tenant} key reading ${scopes.join(',')} via ${read.method} ${read.path}`).toBe(403);
            } else {
              expect([200, 404], `${read.method} ${read.path}: ${JSON.stringify(body).slice(0, 200)}`).toContain(response.status);
            }
            assertNoLeak(body, own, seeded, `${tenant} key ${read.method} ${read.path}`, [id, ...scopes, ...words]);
          }
        }),
        { seed: 20_261_204, numRuns: Math.ceil(backend.runs / 3), endOnFailure: true },
      );
    }, 240_000);
  });
}
