/**
 * Store contract, part vectors: every record written is pending until `setPartVectors` answers for it;
 * a content change makes it pending again and drops its parts; deleting a record drops both; parts
 * read back (quantised) only within the scopes asked for. Registered by `runStoreContract`.
 */
import { expect } from 'vitest';
import { cosineSimilarity } from '../../src/core/vectors.js';
import { makeRecord, seededVector } from './store-fixtures.js';
import { expectCode } from './store.contract.js';
import type { ContractContext } from './store-registry.contract.js';

const A = 'acme/a';
const B = 'acme/b';
const DIM = 8;

function unit(seed: number): Float32Array {
  const v = seededVector(DIM, seed);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

export function registerPartsContract(ctx: ContractContext): void {
  const { test, insert } = ctx;

  test('records written are pending for part vectors, in write order, by scope', async () => {
    const store = ctx.store();
    const [a1, b1, a2] = await insert([
      makeRecord({ scope: A, content: 'first. second sentence here.' }),
      makeRecord({ scope: B }),
      makeRecord({ scope: A }),
    ]);
    const all = await store.pendingParts({ scopes: 'all', limit: 10 });
    expect(all.map((c) => c.id)).toEqual([a1!.id, b1!.id, a2!.id]);
    expect(all[0]).toMatchObject({ id: a1!.id, scope: A, layer: a1!.layer, content: a1!.content });
    expect(all[0]!.data).toEqual(a1!.data);
    expect((await store.pendingParts({ scopes: [A], limit: 10 })).map((c) => c.id)).toEqual([a1!.id, a2!.id]);
    expect((await store.pendingParts({ scopes: [A], limit: 1 })).map((c) => c.id)).toEqual([a1!.id]);
    expect(await store.countPendingParts([A])).toBe(2);
    expect(await store.countPendingParts([A, B])).toBe(3);
  });

  test('setPartVectors stores parts, answers pending records, and reads back only in scope', async () => {
    const store = ctx.store();
    const [one, none] = await insert([makeRecord({ scope: A }), makeRecord({ scope: A })]);
    const parts = [unit(1), unit(2), unit(3)];
    const answered = await store.transaction((tx) =>
      tx.setPartVectors([
        { id: one!.id, scope: A, content: one!.content, parts },
        { id: none!.id, scope: A, content: none!.content, parts: [] },
      ]),
    );
    expect(answered).toBe(2);
    expect(await store.pendingParts({ scopes: 'all', limit: 10 })).toEqual([]);
    expect(await store.countPendingParts([A])).toBe(0);
    const read = await store.getPartVectors([A], [one!.id, none!.id, 'unknown-id']);
    expect([...read.keys()]).toEqual([one!.id]);
    const back = read.get(one!.id)!;
    expect(back).toHaveLength(3);
    back.forEach((vector, i) => {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(DIM);
      expect(cosineSimilarity(vector, parts[i]!)).toBeGreaterThan(0.99);
    });
    // another scope's read never sees them
    expect((await store.getPartVectors([B], [one!.id])).size).toBe(0);
    // partScores: the best cosine of a query with a record's parts, only for records with parts in scope
    const query = parts[1]!;
    const scores = await store.partScores({ scopes: [A], ids: [one!.id, none!.id], vector: query });
    expect([...scores.keys()]).toEqual([one!.id]);
    const expected = Math.max(...parts.map((p) => cosineSimilarity(p, query)));
    expect(scores.get(one!.id)).toBeCloseTo(expected, 2);
    expect((await store.partScores({ scopes: [B], ids: [one!.id], vector: query })).size).toBe(0);
    await expectCode(store.partScores({ scopes: [A], ids: [one!.id], vector: new Float32Array(DIM + 1) }), 'EMBEDDING_DIMENSION_MISMATCH');
  });

  test('part vectors and the pending list survive close and reopen', async () => {
    const store = ctx.store();
    const [done, waiting] = await insert([makeRecord({ scope: A }), makeRecord({ scope: A })]);
    await store.transaction((tx) => tx.setPartVectors([{ id: done!.id, scope: A, content: done!.content, parts: [unit(20), unit(21)] }]));
    const reopened = await ctx.reopen();
    expect((await reopened.getPartVectors([A], [done!.id])).get(done!.id)).toHaveLength(2);
    expect((await reopened.pendingParts({ scopes: [A], limit: 10 })).map((c) => c.id)).toEqual([waiting!.id]);
  });

  test('a content change drops the parts and makes the record pending again; a stale answer is skipped', async () => {
    const store = ctx.store();
    const [record] = await insert([makeRecord({ scope: A, content: 'the old text. it had two sentences.' })]);
    await store.transaction((tx) => tx.setPartVectors([{ id: record!.id, scope: A, content: record!.content, parts: [unit(4), unit(5)] }]));
    await store.transaction((tx) =>
      tx.updateMemory(record!.id, A, { content: 'the new text. with two sentences too.', updatedAt: record!.updatedAt + 1 }),
    );
    expect((await store.getPartVectors([A], [record!.id])).size).toBe(0);
    expect((await store.pendingParts({ scopes: [A], limit: 10 })).map((c) => c.content)).toEqual(['the new text. with two sentences too.']);
    // parts made from the old text (read before the edit) are not stored, and it stays pending
    const stale = await store.transaction((tx) =>
      tx.setPartVectors([{ id: record!.id, scope: A, content: record!.content, parts: [unit(6), unit(7)] }]),
    );
    expect(stale).toBe(0);
    expect((await store.getPartVectors([A], [record!.id])).size).toBe(0);
    expect(await store.countPendingParts([A])).toBe(1);
    // a patch that leaves the content as it is keeps parts and pending state alone
    await store.transaction((tx) =>
      tx.setPartVectors([{ id: record!.id, scope: A, content: 'the new text. with two sentences too.', parts: [unit(8), unit(9)] }]),
    );
    await store.transaction((tx) => tx.updateMemory(record!.id, A, { importance: 0.9, updatedAt: record!.updatedAt + 2 }));
    expect((await store.getPartVectors([A], [record!.id])).get(record!.id)).toHaveLength(2);
    expect(await store.countPendingParts([A])).toBe(0);
  });

  test('part scores read again follow every change between reads: new, replaced, cleared, edited, deleted', async () => {
    const store = ctx.store();
    const [one, two, three] = await insert([makeRecord({ scope: A }), makeRecord({ scope: A }), makeRecord({ scope: A })]);
    const ids = [one!.id, two!.id, three!.id];
    const query = unit(20);
    const scores = async () => store.partScores({ scopes: [A], ids, vector: query });
    const set = (record: typeof one, parts: Float32Array[]) =>
      store.transaction((tx) => tx.setPartVectors([{ id: record!.id, scope: A, content: record!.content, parts }]));
    expect((await scores()).size).toBe(0);
    await set(one, [unit(20), unit(21)]);
    await set(two, [unit(22), unit(23)]);
    expect((await scores()).get(one!.id)).toBeCloseTo(1, 2);
    expect(await scores()).toEqual(await scores());
    // replaced by parts far from the query
    await set(one, [unit(24), unit(25)]);
    expect((await scores()).get(one!.id)).toBeCloseTo(Math.max(cosineSimilarity(unit(24), query), cosineSimilarity(unit(25), query)), 2);
    // a new answer for a record that had none yet
    await set(three, [unit(20), unit(26)]);
    expect((await scores()).get(three!.id)).toBeCloseTo(1, 2);
    // answered with no parts: cleared
    await set(three, []);
    expect((await scores()).has(three!.id)).toBe(false);
    // a content edit drops the record's parts; a delete drops the record
    await store.transaction((tx) =>
      tx.updateMemory(one!.id, A, { content: 'another text. of two sentences.', updatedAt: one!.updatedAt + 1 }),
    );
    await store.transaction((tx) => tx.deleteMemories([two!.id], A));
    expect((await scores()).size).toBe(0);
    // never across scopes, whatever an earlier read of the other scope held
    await set(three, [unit(20), unit(27)]);
    expect((await scores()).has(three!.id)).toBe(true);
    expect((await store.partScores({ scopes: [B], ids, vector: query })).size).toBe(0);
  });

  test('an answer for a record of another scope or a deleted record stores nothing', async () => {
    const store = ctx.store();
    const [kept, gone] = await insert([makeRecord({ scope: A }), makeRecord({ scope: A })]);
    const wrongScope = await store.transaction((tx) =>
      tx.setPartVectors([{ id: kept!.id, scope: B, content: kept!.content, parts: [unit(10), unit(11)] }]),
    );
    expect(wrongScope).toBe(0);
    await store.transaction((tx) => tx.setPartVectors([{ id: gone!.id, scope: A, content: gone!.content, parts: [unit(12), unit(13)] }]));
    await store.transaction((tx) => tx.deleteMemories([gone!.id], A));
    expect((await store.getPartVectors([A], [gone!.id, kept!.id])).size).toBe(0);
    expect((await store.pendingParts({ scopes: 'all', limit: 10 })).map((c) => c.id)).toEqual([kept!.id]);
  });

  test('a part vector of another length is refused and nothing of the call is stored', async () => {
    const store = ctx.store();
    const [first, second] = await insert([makeRecord({ scope: A }), makeRecord({ scope: A })]);
    await expectCode(
      store.transaction((tx) =>
        tx.setPartVectors([
          { id: first!.id, scope: A, content: first!.content, parts: [unit(14), unit(15)] },
          { id: second!.id, scope: A, content: second!.content, parts: [new Float32Array(DIM + 1).fill(0.1), unit(16)] },
        ]),
      ),
      'EMBEDDING_DIMENSION_MISMATCH',
    );
    expect((await store.getPartVectors([A], [first!.id, second!.id])).size).toBe(0);
    expect(await store.countPendingParts([A])).toBe(2);
  });
}
