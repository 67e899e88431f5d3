/**
 * Forget reaches what was derived from a record alone: a statistic, caution, reflection or promoted
 * pattern whose every piece of evidence is forgotten (or gone) is forgotten with the last of it, and
 * restoring that record restores it. A concept (a name) is forgotten the same way once no record that
 * names it still stands, so a forgotten person's name does not stay behind in lists, the graph or
 * recall; a later record naming it again brings it back (`reviveForgottenConcepts`). Chunks follow their
 * document on their own (see `#setStatus`). Everything happens in the caller's transaction.
 */
import type { MemoryRecord } from './memory.js';
import { CONCEPT_REFS_CAP, type StoreTransaction } from './ports/store.js';
import { dropKeptPart, unsupersededPatch } from './write/resolve-claim.js';
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
    await forgetWith(tx, record, forgotten.id, now);
    done.push(record.id);
  }
  return done;
}

/**
 * Forgets the active concepts named by `forgotten` (just forgotten) that no other record still naming
 * them supports; returns their ids. A concept whose ref set of some layer is full keeps its place: older
 * refs were evicted from it, and one of those records may still stand.
 */
export async function forgetConceptsNamedAlone(
  tx: StoreTransaction,
  scope: Scope,
  forgotten: MemoryRecord,
  now: number,
): Promise<string[]> {
  if (isConcept(forgotten)) return [];
  const conceptIds = [...new Set((await tx.findConceptsByRef({ scopes: [scope], refIds: [forgotten.id] })).map((r) => r.conceptId))];
  if (conceptIds.length === 0) return [];
  const refs = await tx.getConceptRefs({ scopes: [scope], conceptIds });
  const others = [...new Set(refs.filter((r) => r.refId !== forgotten.id).map((r) => r.refId))];
  const supporting = new Set(
    (others.length > 0 ? await tx.getMemories(others, [scope]) : []).filter((r) => SUPPORTING.has(r.status)).map((r) => r.id),
  );
  const done: string[] = [];
  for (const concept of await tx.getMemories(conceptIds, [scope])) {
    if (!isConcept(concept) || concept.status !== 'active') continue;
    const own = refs.filter((r) => r.conceptId === concept.id);
    const perLayer = new Map<string, number>();
    for (const ref of own) perLayer.set(ref.layer, (perLayer.get(ref.layer) ?? 0) + 1);
    if ([...perLayer.values()].some((n) => n >= CONCEPT_REFS_CAP)) continue;
    if (own.some((r) => supporting.has(r.refId))) continue;
    await forgetWith(tx, concept, forgotten.id, now);
    done.push(concept.id);
  }
  return done;
}

/**
 * The concepts of `scope` named `names` that were forgotten with the records naming them (not by a
 * caller forgetting the concept itself), made active again, by name: a new record names them.
 */
export async function reviveForgottenConcepts(
  tx: StoreTransaction,
  scope: Scope,
  names: readonly string[],
  now: number,
): Promise<Map<string, MemoryRecord>> {
  const revived = new Map<string, MemoryRecord>();
  if (names.length === 0) return revived;
  const found = await tx.findConcepts({ scopes: [scope], names, statuses: ['deleted'], limit: names.length * 4 + 10 });
  for (const concept of found) {
    const name = String(concept.data.name ?? '')
      .trim()
      .toLowerCase();
    if (!isConcept(concept) || typeof (concept.data as MemoryRecord['data']).forgottenWith !== 'string' || revived.has(name)) continue;
    revived.set(name, await bringBack(tx, concept, now));
  }
  return revived;
}

/**
 * Restores what was forgotten with the last of its evidence (see {@link forgetDerivedAlone} and
 * {@link forgetConceptsNamedAlone}) now that `restored`, one piece of it, stands again; returns their ids.
 */
export async function restoreForgottenWith(tx: StoreTransaction, scope: Scope, restored: MemoryRecord, now: number): Promise<string[]> {
  const done: string[] = [];
  const conceptIds = [...new Set((await tx.findConceptsByRef({ scopes: [scope], refIds: [restored.id] })).map((r) => r.conceptId))];
  const concepts = conceptIds.length > 0 ? await tx.getMemories(conceptIds, [scope]) : [];
  for (const record of [...(await derivedFrom(tx, scope, restored.id)), ...concepts.filter(isConcept)]) {
    // forgotten with the last of its evidence (perhaps another record than this one, which now stands again)
    if (record.status !== 'deleted' || typeof record.data.forgottenWith !== 'string') continue;
    await bringBack(tx, record, now);
    done.push(record.id);
  }
  return done;
}

/** Forgets `record` with the record `id` names: restoring that record (or other evidence) brings it back. */
async function forgetWith(tx: StoreTransaction, record: MemoryRecord, id: string, now: number): Promise<void> {
  await tx.updateMemory(record.id, record.scope, { status: 'deleted', updatedAt: now, data: { ...record.data, forgottenWith: id } });
}

/** Makes a record forgotten with its evidence active again, without the mark; answers it as it is now. */
async function bringBack(tx: StoreTransaction, record: MemoryRecord, now: number): Promise<MemoryRecord> {
  const { forgottenWith: _, ...data } = record.data as MemoryRecord['data'];
  await tx.updateMemory(record.id, record.scope, { status: 'active', updatedAt: now, data });
  return { ...record, status: 'active', updatedAt: now, data };
}

/**
 * The claims `forgotten` (just forgotten) had superseded are current again: a correction that is gone
 * corrects nothing, so the slot is not left without a value. Each is marked `data.reinstatedFrom`, and
 * the links are closed; restoring the correction supersedes them anew (`correctedAgainBy`). What the
 * supersession had kept apart of a claim (`keptFrom`) goes, as the claim is whole again. Returns their ids.
 */
export async function reinstateCorrected(tx: StoreTransaction, scope: Scope, forgotten: MemoryRecord, now: number): Promise<string[]> {
  const edges = (await tx.getEdges({ scopes: [scope], ids: [forgotten.id], types: ['SUPERSEDES'] })).filter(
    (e) => e.fromId === forgotten.id && e.invalidatedAt === null,
  );
  if (edges.length === 0) return [];
  const done: string[] = [];
  for (const old of await tx.getMemories([...new Set(edges.map((e) => e.toId))], [scope])) {
    if (old.status !== 'superseded' || old.data.supersededBy !== forgotten.id) continue;
    const patch = unsupersededPatch(old);
    const data = { ...patch.data, reinstatedFrom: forgotten.id };
    await tx.updateMemory(old.id, scope, { status: 'active', validTo: patch.validTo, invalidatedAt: null, data, updatedAt: now });
    await dropKeptPart(tx, old);
    done.push(old.id);
  }
  await tx.invalidateEdges(
    edges.filter((e) => done.includes(e.toId)).map((e) => e.id),
    scope,
    now,
  );
  return done;
}

/** The claims reinstated when `restored` was forgotten (see {@link reinstateCorrected}), still current: to be superseded anew. */
export async function correctedAgainBy(tx: StoreTransaction, scope: Scope, restored: MemoryRecord, now: number): Promise<MemoryRecord[]> {
  const edges = (await tx.getEdges({ scopes: [scope], ids: [restored.id], types: ['SUPERSEDES'] })).filter((e) => e.fromId === restored.id);
  const targets = edges.length > 0 ? await tx.getMemories([...new Set(edges.map((e) => e.toId))], [scope]) : [];
  const again: MemoryRecord[] = [];
  for (const record of targets) {
    if (record.status !== 'active' || record.data.reinstatedFrom !== restored.id) continue;
    const { reinstatedFrom: _, ...data } = record.data as MemoryRecord['data'];
    await tx.updateMemory(record.id, scope, { data, updatedAt: now });
    again.push({ ...record, data, updatedAt: now });
  }
  return again;
}
