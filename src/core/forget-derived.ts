/**
 * Forget reaches what was derived from a record alone: a statistic, caution, reflection or promoted
 * pattern whose every piece of evidence is forgotten (or gone) is forgotten with the last of it, and
 * restoring that record restores it. Concepts are names, not statements, and chunks follow their
 * document on their own (see `#setStatus`): neither is touched here. Everything happens in the
 * caller's transaction.
 */
import type { MemoryRecord } from './memory.js';
import type { StoreTransaction } from './ports/store.js';
import { derivedRecords } from './derived-records.js';
import { isConcept } from './record-kinds.js';
import type { Scope } from './scope.js';

/** Statuses of evidence that still supports what was derived from it. */
const SUPPORTING = new Set(['active', 'superseded', 'decayed']);

/** Records of `scope` derived from `id` but its chunks and concepts (see {@link derivedRecords}). */
async function derivedFrom(tx: StoreTransaction, scope: Scope, id: string): Promise<MemoryRecord[]> {
  const { records } = await derivedRecords(tx, scope, [id]);
  return [...records.values()].filter((r) => !isConcept(r) && r.data.parentId !== id);
}

/** Every piece of evidence `record` rests on: its provenance sample and its DERIVED_FROM edges. */
async function evidenceOf(tx: StoreTransaction, scope: Scope, record: MemoryRecord): Promise<string[]> {
  const ids = new Set(record.provenance.derivedFrom);
  for (const edge of await tx.getEdges({ scopes: [scope], ids: [record.id], types: ['DERIVED_FROM'] }))
    if (edge.invalidatedAt === null && edge.fromId === record.id) ids.add(edge.toId);
  return [...ids];
}

/**
 * Forgets the active records derived from `forgotten` (just forgotten) none of whose evidence still
 * supports them; returns their ids.
 */
export async function forgetDerivedAlone(tx: StoreTransaction, scope: Scope, forgotten: MemoryRecord, now: number): Promise<string[]> {
  const done: string[] = [];
  for (const record of await derivedFrom(tx, scope, forgotten.id)) {
    if (record.status !== 'active') continue;
    const evidence = (await evidenceOf(tx, scope, record)).filter((id) => id !== forgotten.id);
    const found = evidence.length > 0 ? await tx.getMemories(evidence, [scope]) : [];
    // a concept it names (a caution is about one) is not evidence for it
    if (found.some((r) => !isConcept(r) && SUPPORTING.has(r.status))) continue;
    await tx.updateMemory(record.id, scope, { status: 'deleted', updatedAt: now, data: { ...record.data, forgottenWith: forgotten.id } });
    done.push(record.id);
  }
  return done;
}

/** Restores what was forgotten with `restored` (see {@link forgetDerivedAlone}); returns their ids. */
export async function restoreForgottenWith(tx: StoreTransaction, scope: Scope, restored: MemoryRecord, now: number): Promise<string[]> {
  const done: string[] = [];
  for (const record of await derivedFrom(tx, scope, restored.id)) {
    if (record.status !== 'deleted' || record.data.forgottenWith !== restored.id) continue;
    const { forgottenWith: _, ...data } = record.data;
    await tx.updateMemory(record.id, scope, { status: 'active', updatedAt: now, data });
    done.push(record.id);
  }
  return done;
}
