/**
 * Novelty (surprise) of a write batch spanning more scopes than the novelty arena holds: the references
 * past the arena's memory are scored by the plain loop, so the write succeeds and scores as it would with
 * room to spare. (A 256-row block per scope made one `remember` of 4,500 scopes of 512-d vectors fail with
 * "the novelty arena is full".) The arena is given a small budget here; the store, the embedder and the
 * write path are the real ones.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/index.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { parseInput, rememberInputSchema } from '../../src/core/schemas.js';
import { NoveltyScratch, rememberAll } from '../../src/core/write/remember.js';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { tempDir } from '../helpers/temp.js';

const START = Date.parse('2026-03-01T09:00:00Z');

describe('novelty past the arena’s memory', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function store(): Promise<SqliteStore> {
    const dir = tempDir();
    const embedder = new HashEmbedder();
    const opened = await openSqliteStore({
      path: join(dir.dir, 'engram.db'),
      embedding: { name: embedder.name, dimension: embedder.dimension },
    });
    cleanups.push(dir.cleanup, () => opened.close());
    return opened;
  }

  /** Writes the same history, then one batch over `scopes` scopes, with the given scratch; the batch's surprise values. */
  async function surprises(novelty: NoveltyScratch, scopes: number): Promise<number[]> {
    const s = await store();
    const clock = new ManualClock(START);
    const deps = { store: s, embedder: new HashEmbedder(), clock, wallClock: clock, novelty };
    const parse = (scope: string, content: string) => parseInput(rememberInputSchema, { scope, content }, 'memory');
    const history = Array.from({ length: scopes }, (_, i) =>
      [0, 1, 2].map((j) => parse(`t/u${i}`, `user ${i} note ${j}: kiln ${j} loom ${i % 7}`)),
    ).flat();
    await rememberAll(deps, history);
    clock.advance(60_000);
    // each scope's new event, then a repeat of its first note
    const batch = Array.from({ length: scopes }, (_, i) => parse(`t/u${i}`, `user ${i} news: anvil ${i % 5} harbour`)).concat(
      Array.from({ length: scopes }, (_, i) => parse(`t/u${i}`, `user ${i} note 0: kiln 0 loom ${i % 7} again`)),
    );
    const results = await rememberAll(deps, batch);
    const records = await s.getMemories(
      results.map((r) => r.id),
      Array.from({ length: scopes }, (_, i) => `t/u${i}`),
    );
    return records.map((r) => r.surprise);
  }

  it('scores a batch whose references overflow the arena as one with room, and writes all of it', async () => {
    // hash vectors are 256-d: a 32-row first block is 32 KB, so 256 KB holds the query, the scan output
    // and a handful of scopes' first blocks; the other scopes spill
    const small = new NoveltyScratch({ limitBytes: 256 * 1024 });
    const ample = new NoveltyScratch();
    const [spilled, inArena] = [await surprises(small, 40), await surprises(ample, 40)];
    expect(spilled).toHaveLength(80);
    spilled.forEach((value, i) => expect(value).toBeCloseTo(inArena[i]!, 5));
    // the repeats (second half) are less surprising than each scope's news
    for (let i = 0; i < 40; i++) expect(spilled[40 + i]!).toBeLessThan(spilled[i]!);
  });
});
