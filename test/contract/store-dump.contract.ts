/**
 * Store contract, full ordered reads and raw restores (dump and restore, the migrator).
 * Registered by `runStoreContract`, so every backend runs these; they describe behaviour only.
 */
import { expect } from 'vitest';
import type { MemoryRecord } from '../../src/core/memory.js';
import type { AuditEntry } from '../../src/core/ports/store.js';
import { DAY, T0, makeEdge, makeFullRecord, makeRecord, seededVector } from './store-fixtures.js';
import { expectCode } from './store.contract.js';
import type { ContractContext } from './store-registry.contract.js';

const A = 'acme/a';
const B = 'acme/b';
const DIM = 8;

export function registerDumpContract(ctx: ContractContext): void {
  const { test, insert } = ctx;

  test('restoreMemories keeps ids and every field, skips stored ids and reads back in scope and id order', async () => {
    const store = ctx.store();
    const full = makeFullRecord({ scope: A, status: 'superseded' });
    const forgotten = makeRecord({ scope: A, status: 'deleted', accessCount: 4, lastAccessedAt: T0 + DAY });
    const other = makeRecord({ scope: B });
    const vector = seededVector(DIM, 77);
    const inserted = await store.transaction((tx) =>
      tx.restoreMemories([
        { record: full, embedding: vector },
        { record: forgotten, embedding: seededVector(DIM, 78) },
        { record: other, embedding: seededVector(DIM, 79) },
      ]),
    );
    expect(inserted).toEqual([full.id, forgotten.id, other.id]);
    // a second restore (a resumed import) writes nothing, even for a changed copy
    const again = await store.transaction((tx) => tx.restoreMemories([{ record: { ...full, content: 'changed' }, embedding: vector }]));
    expect(again).toEqual([]);
    const [read] = await store.getMemories([full.id], [A]);
    expect(read).toEqual(full);
    const listed = await store.listMemories({ scopes: [A], limit: 10 });
    expect(listed.map((r) => r.id)).toEqual([full.id, forgotten.id].sort());
    expect(listed.find((r) => r.id === forgotten.id)).toEqual(forgotten);
    const embeddings = await store.getEmbeddings(A, [full.id, other.id, 'missing']);
    expect([...embeddings.keys()]).toEqual([full.id]);
    expect(Array.from(embeddings.get(full.id)!)).toEqual(Array.from(vector));
    await expectCode(
      store.transaction((tx) => tx.restoreMemories([{ record: makeRecord(), embedding: new Float32Array(3) }])),
      'EMBEDDING_DIMENSION_MISMATCH',
    );
  });

  test('listEdges pages a scope in id order, open and closed edges, and restoreEdges is idempotent', async () => {
    const store = ctx.store();
    const [a, b, c] = await insert([makeRecord({ scope: A }), makeRecord({ scope: A }), makeRecord({ scope: B })]);
    const closed = makeEdge(A, a!.id, b!.id, {
      type: 'CAUSES',
      weight: 0.25,
      validTo: T0 + 2 * DAY,
      invalidatedAt: T0 + 3 * DAY,
      metadata: { why: 'ü' },
    });
    const open = makeEdge(A, b!.id, a!.id);
    const edges = [open, closed].sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(await store.transaction((tx) => tx.restoreEdges([...edges, edges[0]!]))).toEqual(edges.map((e) => e.id));
    expect(await store.transaction((tx) => tx.restoreEdges(edges))).toEqual([]);
    expect(await store.listEdges({ scope: A, limit: 10 })).toEqual(edges);
    expect(await store.listEdges({ scope: A, afterId: edges[0]!.id, limit: 10 })).toEqual([edges[1]]);
    expect(await store.listEdges({ scope: A, limit: 1 })).toEqual([edges[0]]);
    expect(await store.listEdges({ scope: B, limit: 10 })).toEqual([]);
    // both ends must be records of the edge's own scope
    await expectCode(
      store.transaction((tx) => tx.restoreEdges([makeEdge(A, a!.id, c!.id)])),
      'INVALID_INPUT',
    );
    await expectCode(store.listEdges({ scope: '../x', limit: 1 }), 'INVALID_INPUT');
  });

  test('listConceptRefs pages refs of several scopes in one global insertion order', async () => {
    const store = ctx.store();
    const records = await insert([
      makeRecord({ scope: A, layer: 'semantic', data: { concept: true, name: 'mug' } }),
      makeRecord({ scope: B, layer: 'semantic', data: { concept: true, name: 'cup' } }),
      makeRecord({ scope: A }),
      makeRecord({ scope: A }),
      makeRecord({ scope: B }),
    ]);
    const [mug, cup, e1, e2, e3] = records as [MemoryRecord, MemoryRecord, MemoryRecord, MemoryRecord, MemoryRecord];
    await store.transaction(async (tx) => {
      await tx.addConceptRefs({ scope: A, conceptId: mug.id, layer: 'episodic', refIds: [e2.id] });
      await tx.addConceptRefs({ scope: B, conceptId: cup.id, layer: 'episodic', refIds: [e3.id] });
      await tx.addConceptRefs({ scope: A, conceptId: mug.id, layer: 'semantic', refIds: [mug.id] });
      await tx.addConceptRefs({ scope: A, conceptId: mug.id, layer: 'episodic', refIds: [e1.id] });
    });
    const all = [
      { scope: A, conceptId: mug.id, layer: 'episodic', refId: e2.id },
      { scope: B, conceptId: cup.id, layer: 'episodic', refId: e3.id },
      { scope: A, conceptId: mug.id, layer: 'semantic', refId: mug.id },
      { scope: A, conceptId: mug.id, layer: 'episodic', refId: e1.id },
    ];
    expect(await store.listConceptRefs({ scopes: [A, B], limit: 10 })).toEqual({ refs: all, next: null });
    expect((await store.listConceptRefs({ scopes: [A], limit: 10 })).refs).toEqual(all.filter((r) => r.scope === A));
    const first = await store.listConceptRefs({ scopes: [A, B], limit: 3 });
    expect(first.refs).toEqual(all.slice(0, 3));
    expect(first.next).not.toBeNull();
    expect(await store.listConceptRefs({ scopes: [A, B], after: first.next!, limit: 3 })).toEqual({ refs: all.slice(3), next: null });
    await expectCode(store.listConceptRefs({ scopes: [A], after: 'x', limit: 3 }), 'INVALID_INPUT');
    await expectCode(store.listConceptRefs({ scopes: [], limit: 3 }), 'INVALID_INPUT');
  });

  test('listAudit pages a scope in id order and restoreAudit is idempotent', async () => {
    const store = ctx.store();
    const entry = (id: string, scope = A): AuditEntry => ({
      id,
      at: T0 + DAY,
      actor: 'cli',
      action: 'purge',
      scope,
      count: 2,
      details: { records: 2, selectors: ['tag'] },
    });
    const entries = [entry('01B'), entry('01A'), entry('01C', B)];
    expect(await store.transaction((tx) => tx.restoreAudit(entries))).toEqual(['01B', '01A', '01C']);
    expect(await store.transaction((tx) => tx.restoreAudit(entries))).toEqual([]);
    expect(await store.listAudit({ scope: A, limit: 10 })).toEqual([entry('01A'), entry('01B')]);
    expect(await store.listAudit({ scope: A, afterId: '01A', limit: 10 })).toEqual([entry('01B')]);
  });
}
