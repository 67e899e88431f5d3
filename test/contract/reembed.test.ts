/**
 * `Engram.reembed` on every backend: a SQLite file, the PostgreSQL server (when `ENGRAM_TEST_PG_URL`
 * is set, else skipped, saying so) and PGlite with pgvector. The deterministic hash embedder moves to
 * `hash:64` (another id and dimension); vectors are checked by searching for the exact vector each
 * record should have under the new model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram, type Embedder } from '../../src/index.js';
import { fillPartVectors } from '../../src/core/write/fill-parts.js';
import { reembedText } from '../../src/core/reembed/index.js';
import { openPgliteStore } from '../../src/storage/postgres/index.js';
import { closeSharedPglite, dropPgSchema, pgTestUrl, PG_SKIP_REASON, sharedPglite, uniqueSchema, withSchema } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';
import { join } from 'node:path';

const SCOPES = ['acme/users/alice', 'acme/shared'];
const LONG_TEXT = Array.from(
  { length: 40 },
  (_, i) => `Paragraph ${i} of the kitchen manual: the mugs live on shelf ${i % 5} and the kettle is descaled monthly.`,
).join(' ');

interface Site {
  /** Opens the store with `embedder` (default: the recorded one). */
  open(embedder?: string): Promise<Engram>;
  /** Whether a second `open` is an independent connection (another "process"). */
  readonly independent: boolean;
  cleanup(): Promise<void>;
}

interface Backend {
  name: string;
  skip?: string;
  site(): Promise<Site>;
}

const url = pgTestUrl();
const BACKENDS: Backend[] = [
  {
    name: 'SQLite file',
    async site() {
      const { dir, cleanup } = tempDir();
      const path = join(dir, 'engram.db');
      return {
        independent: true,
        open: (embedder) => Engram.open({ path, ...(embedder !== undefined ? { embedder: embedder as 'hash' } : {}) }),
        cleanup: async () => cleanup(),
      };
    },
  },
  {
    name: 'PostgreSQL server',
    ...(url === undefined ? { skip: PG_SKIP_REASON } : {}),
    async site() {
      const schema = uniqueSchema('r');
      const path = withSchema(url as string, schema);
      return {
        independent: true,
        open: (embedder) => Engram.open({ path, ...(embedder !== undefined ? { embedder: embedder as 'hash' } : {}) }),
        cleanup: () => dropPgSchema(url as string, schema),
      };
    },
  },
  {
    name: 'PGlite + pgvector',
    async site() {
      const pglite = await sharedPglite();
      const schema = uniqueSchema('r');
      let recorded = 'hash';
      return {
        independent: false,
        async open(embedder) {
          const name = embedder ?? recorded;
          recorded = name;
          const model = new HashEmbedder(name === 'hash' ? {} : { dimension: Number(name.split(':')[1]) });
          const store = await openPgliteStore({ pglite, schema, embedding: { name: model.name, dimension: model.dimension } });
          return new Engram({ store, embedder: model });
        },
        cleanup: async () => void (await pglite.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)),
      };
    },
  },
];

beforeAll(async () => {
  await sharedPglite();
}, 120_000);
afterAll(closeSharedPglite);

/** Two scopes, episodes and claims, one chunked document. */
async function fill(engram: Engram, count = 30): Promise<string[]> {
  const inputs = Array.from({ length: count }, (_, i) => ({
    scope: SCOPES[i % 2] as string,
    content: `Episode ${i}: Alice moved crate ${i} to dock ${i % 7} before lunch.`,
  }));
  const results = await engram.remember(inputs);
  const doc = await engram.remember({ scope: 'acme/shared', layer: 'semantic', content: LONG_TEXT });
  return [...results.map((r) => r.id), doc.id, ...(doc.chunks ?? [])];
}

/** Every record listed has exactly the vector `model` gives its text (found first by that vector, score ~1). */
async function expectVectorsOf(engram: Engram, model: Embedder, ids: readonly string[]): Promise<void> {
  for (const scope of SCOPES) {
    const records = (await engram.store.getMemories(ids, [scope])).filter((r) => r.status === 'active');
    const vectors = await model.embed(
      records.map((r) => reembedText({ id: r.id, layer: r.layer, content: r.content, data: { ...r.data } })),
    );
    for (const [i, record] of records.entries()) {
      const hits = await engram.store.vectorSearch({ scopes: [scope], vector: vectors[i] as Float32Array, limit: 3, now: Date.now() });
      expect(hits.find((h) => h.id === record.id)?.score, `vector of ${record.id}`).toBeGreaterThan(0.9999);
    }
  }
}

/** A hash:64 target whose `call`-th embed call first runs `during` (another writer, mid-run). */
function gatedTarget(call: number, during: () => Promise<void>): Embedder & { calls: number } {
  const inner = new HashEmbedder({ dimension: 64 });
  const target = {
    name: inner.name,
    dimension: inner.dimension,
    calls: 0,
    async embed(texts: readonly string[]) {
      target.calls += 1;
      if (target.calls === call) await during();
      return inner.embed(texts);
    },
  };
  return target;
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(
    `reembed on ${backend.name}${backend.skip !== undefined ? ` (${backend.skip})` : ''}`,
    { timeout: 60_000 },
    () => {
      let site: Site;
      beforeAll(async () => {
        site = await backend.site();
      });
      afterAll(() => site?.cleanup());

      it('moves every record of every scope, chunks included, to the new model and recalls with it', async () => {
        const engram = await site.open('hash');
        const ids = await fill(engram);
        // a record of two sentences, with its part vectors made on the old model
        const split = await engram.remember({
          scope: SCOPES[0] as string,
          content: 'Bob fixed the loading dock door today. The forklift battery was replaced too.',
        });
        ids.push(split.id);
        await fillPartVectors({ store: engram.store, embedder: engram.embedder, stopwatch: { now: () => performance.now() } });
        expect((await engram.store.getPartVectors(SCOPES, [split.id])).get(split.id)?.[0]).toHaveLength(256);
        const progress: string[] = [];
        const report = await engram.reembed({ embedder: 'hash:64', batchSize: 7, onProgress: (p) => progress.push(p.phase) });
        expect(report).toMatchObject({
          from: 'hash:256',
          to: 'hash:64',
          dimensions: { from: 256, to: 64 },
          changed: true,
          resumed: false,
          discarded: null,
        });
        expect(report.chunks).toBeGreaterThan(1);
        expect(report.records + report.chunks).toBe(ids.length);
        expect(report.vectors).toBe(ids.length);
        expect(progress).toContain('embedding');
        expect(progress.slice(-2)).toEqual(['switching', 'indexing']);
        const current = report.reopened ? engram : (await engram.close(), await site.open('hash:64'));
        expect(current.embedder.name).toBe('hash:64');
        expect(await current.store.getMeta('embedding.name')).toBe('hash:64');
        expect(await current.store.vectorStaging.staged()).toBeNull();
        await expectVectorsOf(current, new HashEmbedder({ dimension: 64 }), ids);
        // parts of the old model are gone and every record waits for new ones, which are of the new model
        expect((await current.store.getPartVectors(SCOPES, [split.id])).size).toBe(0);
        expect(await current.store.countPendingParts(SCOPES)).toBe(ids.length);
        await fillPartVectors({ store: current.store, embedder: current.embedder, stopwatch: { now: () => performance.now() } });
        expect((await current.store.getPartVectors(SCOPES, [split.id])).get(split.id)?.[0]).toHaveLength(64);
        const { hits } = await current.recall('where did Alice move crate 12?', { scopes: SCOPES });
        expect(hits[0]?.content).toContain('crate 12');
        // the same model again is no change
        const again = await current.reembed({ embedder: 'hash:64' });
        expect(again).toMatchObject({ changed: false, vectors: 0 });
        await current.remember({ scope: 'acme/shared', content: 'written after the move' });
        await current.close();
      });

      it('an interrupted run leaves the store on its old model; the next run continues from the staged vectors', async () => {
        await site.cleanup();
        site = await backend.site();
        const engram = await site.open('hash');
        const ids = await fill(engram, 40);
        const stop = new AbortController();
        const run = engram.reembed({
          embedder: 'hash:64',
          batchSize: 5,
          signal: stop.signal,
          onProgress: (p) => p.done >= 10 && stop.abort(new Error('stopped by the test')),
        });
        await expect(run).rejects.toThrow('stopped by the test');
        // still fully usable on the old model, the staging recorded
        expect(engram.embedder.name).toBe('hash:256');
        expect((await engram.recall('crate 3', { scopes: SCOPES })).hits.length).toBeGreaterThan(0);
        await engram.remember({ scope: 'acme/shared', content: 'Bob checked the freezer between runs.' });
        const staged = await engram.store.vectorStaging.stagingProgress();
        expect(staged.staged).toBeGreaterThanOrEqual(10);
        expect(staged.staged).toBeLessThan(staged.records);
        expect(await engram.store.vectorStaging.staged()).toEqual({ name: 'hash:64', dimension: 64 });
        const report = await engram.reembed({ embedder: 'hash:64', batchSize: 5 });
        expect(report.resumed).toBe(true);
        expect(report.embedded).toBe(staged.records - staged.staged);
        expect(report.vectors).toBe(ids.length + 1);
        const current = report.reopened ? engram : (await engram.close(), await site.open('hash:64'));
        expect((await current.recall('who checked the freezer?', { scopes: SCOPES })).hits[0]?.content).toContain('freezer');
        await current.close();
      });

      it('a run for another model discards the unfinished staging and says so', async () => {
        await site.cleanup();
        site = await backend.site();
        const engram = await site.open('hash');
        await fill(engram, 12);
        const stop = new AbortController();
        await expect(
          engram.reembed({
            embedder: 'hash:64',
            batchSize: 4,
            signal: stop.signal,
            onProgress: (p) => p.done > 0 && stop.abort(new Error('stop')),
          }),
        ).rejects.toThrow('stop');
        const report = await engram.reembed({ embedder: 'hash:32', batchSize: 4 });
        expect(report).toMatchObject({ to: 'hash:32', resumed: false, discarded: 'hash:64' });
        await engram.close();
      });

      it('refuses unknown or missing models and bad options, changing nothing', async () => {
        await site.cleanup();
        site = await backend.site();
        const engram = await site.open('hash');
        await fill(engram, 4);
        await expect(engram.reembed({ embedder: 'no-such-model' as 'hash' })).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          message: expect.stringContaining('engram models pull'),
        });
        await expect(engram.reembed({ embedder: 'hash:64', batchSize: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
        const { dir, cleanup } = tempDir();
        try {
          const missing = Engram.open({ path: join(dir, 'x.db'), embedder: 'bge-small-en-v1.5', cacheDir: dir });
          await expect(missing).rejects.toMatchObject({
            code: 'EMBEDDING_FAILED',
            message: expect.stringContaining('engram models pull bge-small-en-v1.5'),
          });
        } finally {
          cleanup();
        }
        expect(await engram.store.getMeta('embedding.name')).toBe('hash:256');
        expect(await engram.store.vectorStaging.staged()).toBeNull();
        expect((await engram.recall('crate 1', { scopes: SCOPES })).hits.length).toBeGreaterThan(0);
        await engram.close();
      });

      it('answers LOCKED while another reembed or a consolidation cycle holds its lease', async () => {
        await site.cleanup();
        site = await backend.site();
        const engram = await site.open('hash');
        await fill(engram, 4);
        expect(await engram.store.acquireJobLock('reembed', `reembed:elsewhere:1:x`, 60_000)).toBe(true);
        await expect(engram.reembed({ embedder: 'hash:64' })).rejects.toMatchObject({ code: 'LOCKED' });
        await expect(engram.consolidate({ scope: 'acme/shared' })).rejects.toMatchObject({
          code: 'LOCKED',
          message: expect.stringContaining('reembed'),
        });
        await engram.store.releaseJobLock('reembed', 'reembed:elsewhere:1:x');
        expect(await engram.store.acquireJobLock('consolidate:acme/shared', 'cycle:elsewhere', 60_000)).toBe(true);
        await expect(engram.reembed({ embedder: 'hash:64' })).rejects.toMatchObject({
          code: 'LOCKED',
          message: expect.stringContaining('consolidation'),
        });
        await engram.store.releaseJobLock('consolidate:acme/shared', 'cycle:elsewhere');
        // a dead holder on this machine is taken over at once
        const dead = `reembed:${(await import('node:os')).hostname()}:999999:x`;
        expect(await engram.store.acquireJobLock('reembed', dead, 60_000)).toBe(true);
        expect((await engram.reembed({ embedder: 'hash:64' })).changed).toBe(true);
        await engram.close();
      });

      const noSecondProcess = backend.name.startsWith('PGlite')
        ? ' (skipped: PGlite is one connection inside this process, so no second process can write)'
        : '';
      it.skipIf(noSecondProcess !== '')(
        `writes from another process during the run get vectors of both models; that process then answers LOCKED until it reopens${noSecondProcess}`,
        async () => {
          await site.cleanup();
          site = await backend.site();
          const engram = await site.open('hash');
          const ids = await fill(engram, 20);
          const other = await site.open();
          const written: string[] = [];
          const target = gatedTarget(2, async () => {
            // a record already staged is rewritten, and new ones arrive, embedded by the other process's model
            await other.update(
              ids[0] as string,
              { content: 'Episode 0: Alice moved crate 0 to the cold store instead.' },
              { scope: SCOPES[0] as string },
            );
            const results = await other.remember([
              { scope: 'acme/shared', content: 'Carol repaired the forklift during the reembed.' },
              { scope: 'acme/users/alice', layer: 'semantic', content: LONG_TEXT.replace(/kitchen/g, 'garage') },
            ]);
            written.push(...results.flatMap((r) => [r.id, ...(r.chunks ?? [])]));
          });
          const report = await engram.reembed({ embedder: target, batchSize: 4 });
          expect(report.vectors).toBe(ids.length + written.length);
          await expectVectorsOf(engram, new HashEmbedder({ dimension: 64 }), [...ids, ...written]);
          expect((await engram.recall('who repaired the forklift?', { scopes: SCOPES })).hits[0]?.content).toContain('forklift');
          expect((await engram.recall('crate 0 cold store', { scopes: SCOPES })).hits[0]?.content).toContain('cold store');
          // the other process opened before the switch: it must not mix the two vector spaces
          await expect(other.recall('forklift', { scopes: SCOPES })).rejects.toMatchObject({
            code: 'LOCKED',
            message: expect.stringContaining('open it again'),
          });
          await expect(other.remember({ scope: 'acme/shared', content: 'too late' })).rejects.toMatchObject({ code: 'LOCKED' });
          await other.close();
          const reopened = await site.open();
          expect(reopened.embedder.name).toBe('hash:64');
          expect((await reopened.recall('forklift', { scopes: SCOPES })).hits[0]?.content).toContain('forklift');
          await reopened.close();
          await engram.close();
        },
      );

      it('the switch embeds inside its transaction whatever is still unstaged', async () => {
        await site.cleanup();
        site = await backend.site();
        const engram = await site.open('hash');
        const ids = await fill(engram, 6);
        const staging = engram.store.vectorStaging;
        const model = new HashEmbedder({ dimension: 64 });
        await staging.beginStaging({ name: model.name, dimension: model.dimension });
        const page = await staging.unstagedRecords({ cursor: null, limit: 3 });
        const vectors = await model.embed(page.records.map(reembedText));
        expect(
          await staging.stageVectors(
            page.records.map((r, i) => ({ id: r.id, embedding: vectors[i] as Float32Array })),
            page.mark,
          ),
        ).toBe(3);
        await expect(staging.stageVectors([{ id: ids[0] as string, embedding: new Float32Array(8) }], page.mark)).rejects.toMatchObject({
          code: 'EMBEDDING_DIMENSION_MISMATCH',
        });
        let completed = 0;
        const switched = await staging.switchToStaged({ name: model.name, dimension: model.dimension }, async (records) => {
          completed += records.length;
          return model.embed(records.map(reembedText));
        });
        expect(switched.completed).toBe(ids.length - 3);
        expect(completed).toBe(ids.length - 3);
        await expect(engram.recall('crate', { scopes: SCOPES })).rejects.toMatchObject({ code: 'LOCKED' });
        await engram.close();
        const reopened = await site.open('hash:64');
        await expectVectorsOf(reopened, model, ids);
        await reopened.close();
      });
    },
  );
}
