/**
 * The bulk write path (`rememberBatches`): the next batches embed while one commits, and the outcome is
 * what `remember` per batch writes — same records, actions, order and ids — with each batch atomic.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  EngramError,
  isEngramError,
  ManualClock,
  type Embedder,
  type Engram,
  type RememberInput,
  type RememberResult,
} from '../../src/index.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 't/bulk';
const START = Date.parse('2024-03-01T09:00:00Z');

/** A real embedder (the hash one) that fails, or answers with a vector of the wrong length, for marked texts. */
class MarkedEmbedder implements Embedder {
  readonly #inner = new HashEmbedder();
  readonly name = this.#inner.name;
  readonly dimension = this.#inner.dimension;
  readonly calls: string[][] = [];
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    if (texts.some((t) => t.includes('[embed-fails]'))) throw new EngramError('EMBEDDING_FAILED', 'This text cannot be embedded.');
    const vectors = await this.#inner.embed(texts);
    return vectors.map((v, i) => (texts[i]?.includes('[wrong-length]') ? v.subarray(0, 7) : v));
  }
}

/** Inputs that exercise the write decisions across batch boundaries. */
function inputs(): RememberInput[] {
  const list: RememberInput[] = [];
  for (let i = 0; i < 23; i++) {
    list.push({
      scope: SCOPE,
      content: `Turn ${i}: Alice talked about the garden, the ${['roses', 'tomatoes', 'shed'][i % 3]} and week ${i}.`,
      source: { conversationId: 'c1', messageId: `m${i}` },
    });
  }
  list.push({ scope: SCOPE, layer: 'semantic', content: 'The deploy target is staging.' });
  list.push({ scope: SCOPE, content: 'Turn 3 again.', source: { conversationId: 'c1', messageId: 'm3' } }); // same source: unchanged
  list.push({ scope: SCOPE, layer: 'semantic', content: 'The deploy target moved from staging to production.' }); // supersedes across batches
  list.push({ scope: SCOPE, content: `A long note. ${'The quick brown fox jumps over the lazy dog near the river bank. '.repeat(45)}` }); // chunked
  list.push({ scope: 't/other', content: 'A memory of another scope in the same batch.' });
  return list;
}

/** What a store holds, with ids replaced by the position of the result that created them. */
async function snapshot(engram: Engram, results: readonly RememberResult[]): Promise<unknown[]> {
  const label = new Map<string, string>();
  results.forEach((r, i) => {
    if (!label.has(r.id)) label.set(r.id, `#${i}`);
    r.chunks?.forEach((c, j) => label.set(c, `#${i}.${j}`));
  });
  const rows = [];
  for (const scope of [SCOPE, 't/other']) {
    const records = await engram.store.listMemories({ scopes: [scope], limit: 1000, statuses: ['active', 'superseded'] });
    for (const r of records) {
      rows.push({
        id: label.get(r.id) ?? r.id,
        scope: r.scope,
        layer: r.layer,
        content: r.content,
        status: r.status,
        surprise: r.surprise,
        recordedAt: r.recordedAt,
        parent: r.data.parentId === undefined ? null : label.get(String(r.data.parentId)),
      });
    }
  }
  return rows;
}

function relabel(results: readonly RememberResult[]): unknown[] {
  const label = new Map<string, string>();
  results.forEach((r, i) => {
    if (!label.has(r.id)) label.set(r.id, `#${i}`);
  });
  return results.map((r) => ({
    action: r.action,
    id: label.get(r.id),
    superseded: r.superseded?.map((s) => label.get(s)),
    chunks: r.chunks?.length,
  }));
}

async function collect(iteration: AsyncIterable<RememberResult[]>): Promise<RememberResult[][]> {
  const batches: RememberResult[][] = [];
  for await (const batch of iteration) batches.push(batch);
  return batches;
}

describe('rememberBatches', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  const open = async (embedder?: Embedder): Promise<Engram> => {
    const ctx = await tempEngram({ clock: new ManualClock(START), ...(embedder !== undefined ? { embedder } : {}) });
    cleanups.push(ctx.cleanup);
    return ctx.engram;
  };

  it('writes exactly what remember() per batch writes: records, actions, order and ids', async () => {
    const plain = await open();
    const plainResults: RememberResult[] = [];
    const all = inputs();
    for (let i = 0; i < all.length; i += 5) plainResults.push(...(await plain.remember(all.slice(i, i + 5))));

    const bulk = await open();
    const batches = await collect(bulk.rememberBatches(inputs(), { batchSize: 5 }));
    expect(batches.map((b) => b.length)).toEqual([5, 5, 5, 5, 5, 3]);
    const bulkResults = batches.flat();

    expect(relabel(bulkResults)).toEqual(relabel(plainResults));
    expect(bulkResults.map((r) => r.action)).toContain('unchanged');
    expect(bulkResults.map((r) => r.action)).toContain('superseded');
    expect(await snapshot(bulk, bulkResults)).toEqual(await snapshot(plain, plainResults));
    // every id yielded is the id stored, and created records are stored in input order (ids are time-sortable)
    const created = bulkResults.filter((r) => r.action !== 'unchanged').map((r) => r.id);
    const stored = (await bulk.store.listMemories({ scopes: [SCOPE, 't/other'], limit: 1000, statuses: ['active', 'superseded'] }))
      .filter((r) => r.data.parentId === undefined)
      .map((r) => r.id);
    expect(stored).toEqual([...created].sort());
    expect(created).toEqual([...created].sort());
  });

  it('yields each batch after it committed, while later batches are already embedding', async () => {
    const embedder = new MarkedEmbedder();
    const engram = await open(embedder);
    const seen: number[] = [];
    for await (const batch of engram.rememberBatches(inputs().slice(0, 20), { batchSize: 5 })) {
      const stored = await engram.store.listMemories({ scopes: [SCOPE], limit: 1000 });
      expect(stored.map((r) => r.id)).toEqual(expect.arrayContaining(batch.map((r) => r.id)));
      seen.push(stored.length);
      if (seen.length === 1) expect(embedder.calls.length).toBe(3); // batches 2 and 3 embed while batch 1 commits
    }
    expect(seen).toEqual([5, 10, 15, 20]);
  });

  it('an embedding failure leaves the earlier batches written and nothing of that batch or later ones', async () => {
    const engram = await open(new MarkedEmbedder());
    const list = inputs().slice(0, 20);
    list[7] = { scope: SCOPE, content: 'This one cannot be embedded [embed-fails].' };
    const committed: RememberResult[][] = [];
    const error = await (async () => {
      try {
        for await (const batch of engram.rememberBatches(list, { batchSize: 5 })) committed.push(batch);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(isEngramError(error) && error.code).toBe('EMBEDDING_FAILED');
    expect(committed).toHaveLength(1);
    const stored = await engram.store.listMemories({ scopes: [SCOPE], limit: 1000 });
    expect(stored.map((r) => r.content)).toEqual(list.slice(0, 5).map((i) => i.content));
  });

  it('a failed transaction rolls back its batch only; later batches, though embedded, are not written', async () => {
    const engram = await open(new MarkedEmbedder());
    const list = inputs().slice(0, 20);
    list[12] = { scope: SCOPE, content: 'This vector has the wrong length [wrong-length].' };
    const committed: RememberResult[][] = [];
    await expect(
      (async () => {
        for await (const batch of engram.rememberBatches(list, { batchSize: 5 })) committed.push(batch);
      })(),
    ).rejects.toSatisfy(isEngramError);
    expect(committed).toHaveLength(2);
    const stored = await engram.store.listMemories({ scopes: [SCOPE], limit: 1000 });
    expect(stored.map((r) => r.content)).toEqual(list.slice(0, 10).map((i) => i.content));
  });

  it('validates every input before writing anything', async () => {
    const engram = await open();
    const list: unknown[] = inputs();
    list[17] = { scope: SCOPE, content: '' };
    await expect(collect(engram.rememberBatches(list as RememberInput[], { batchSize: 5 }))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(collect(engram.rememberBatches(inputs(), { batchSize: 0 }))).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await engram.store.listMemories({ scopes: [SCOPE], limit: 10 })).toEqual([]);
  });

  it('stopping the iteration early writes nothing more', async () => {
    const engram = await open();
    for await (const batch of engram.rememberBatches(inputs().slice(0, 20), { batchSize: 5 })) {
      expect(batch).toHaveLength(5);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await engram.store.listMemories({ scopes: [SCOPE], limit: 1000 })).toHaveLength(5);
  });
});
