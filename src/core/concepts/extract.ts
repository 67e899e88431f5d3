/**
 * Concept extraction: find or create the concepts records name and add the records to their per-layer
 * ref sets. Idempotent (re-running adds no duplicate concept or ref), safe against concurrent workers
 * (the final lookup runs inside the write transaction).
 */
import type { ConceptData, Layer, MemoryRecord } from '../memory.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Store, StoreReader } from '../ports/store.js';
import type { Scope } from '../scope.js';
import { newRecord } from '../record-factory.js';
import { isConcept } from '../record-kinds.js';
import { conceptCandidates, type ConceptCandidate } from './candidates.js';
import { reviveForgottenConcepts } from '../forget-derived.js';

export interface ConceptDeps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
}

/** What one extraction did. */
export interface ExtractionReport {
  examined: number;
  conceptsCreated: number;
  refsAdded: number;
}

/** A new concept record for `candidate` in `scope` (semantic layer, provenance kind episodic). */
export function newConceptRecord(scope: Scope, candidate: ConceptCandidate, now: number, derivedFrom: readonly string[]): MemoryRecord {
  return newRecord({
    now,
    scope,
    layer: 'semantic',
    content: candidate.name.replace(/_/g, ' '),
    confidence: 0.5,
    provenance: { kind: 'episodic', sources: [], derivedFrom: derivedFrom.slice(0, 20) },
    data: { concept: true, name: candidate.name, category: candidate.category } satisfies ConceptData,
  });
}

/** Prefer records marked as concepts, then the oldest. */
async function conceptsByName(reader: StoreReader, scope: Scope, names: readonly string[]): Promise<Map<string, MemoryRecord>> {
  const found = names.length === 0 ? [] : await reader.findConcepts({ scopes: [scope], names, limit: names.length * 4 + 10 });
  const byName = new Map<string, MemoryRecord>();
  for (const record of found) {
    const name = String(record.data.name ?? '')
      .trim()
      .toLowerCase();
    const current = byName.get(name);
    if (current === undefined || (!isConcept(current) && isConcept(record))) byName.set(name, record);
  }
  return byName;
}

/**
 * Finds or creates the concepts `records` name and adds each record to its concepts' ref sets (layer
 * of the record, insertion order = record order). Records of several scopes are handled per scope;
 * a concept and its refs always share a scope.
 */
export async function extractConcepts(deps: ConceptDeps, records: readonly MemoryRecord[]): Promise<ExtractionReport> {
  const report: ExtractionReport = { examined: records.length, conceptsCreated: 0, refsAdded: 0 };
  const byScope = new Map<Scope, MemoryRecord[]>();
  for (const record of records) {
    if (isConcept(record) || record.status === 'deleted' || record.status === 'expired') continue;
    byScope.set(record.scope, [...(byScope.get(record.scope) ?? []), record]);
  }
  for (const [scope, list] of byScope) {
    const candidates = list.map((record) => ({ record, concepts: conceptCandidates(record) }));
    const wanted = new Map<string, ConceptCandidate>();
    for (const c of candidates) for (const concept of c.concepts) if (!wanted.has(concept.name)) wanted.set(concept.name, concept);
    if (wanted.size === 0) continue;
    const known = await conceptsByName(deps.store, scope, [...wanted.keys()]);
    const missing = [...wanted.values()].filter((c) => !known.has(c.name));
    // embed outside the write transaction, so writers never wait for the model
    const vectors = missing.length > 0 ? await deps.embedder.embed(missing.map((c) => c.name.replace(/_/g, ' '))) : [];
    const now = deps.clock.now();
    const done = await deps.store.transaction(async (tx) => {
      // the records as they are now, under the write lock: one purged or forgotten since it was read
      // (a purge while a cycle drains) names no concept, so nothing is derived from text that is gone
      const existing = new Set(
        (
          await tx.getMemories(
            list.map((r) => r.id),
            [scope],
          )
        )
          .filter((r) => r.status !== 'deleted' && r.status !== 'expired')
          .map((r) => r.id),
      );
      const live = candidates.filter((c) => existing.has(c.record.id));
      const present = await conceptsByName(tx, scope, [...wanted.keys()]);
      // a concept forgotten with the records that named it comes back when a record names it again
      const named = new Set(live.flatMap((c) => c.concepts.map((x) => x.name)));
      const absent = [...named].filter((name) => !present.has(name));
      for (const [name, concept] of await reviveForgottenConcepts(tx, scope, absent, now)) present.set(name, concept);
      let created = 0;
      const inserts = missing.flatMap((candidate, i) => {
        if (present.has(candidate.name)) return [];
        const firstRefs = live.filter((c) => c.concepts.some((x) => x.name === candidate.name)).map((c) => c.record.id);
        if (firstRefs.length === 0) return [];
        const record = newConceptRecord(scope, candidate, now, firstRefs);
        present.set(candidate.name, record);
        created++;
        return [{ record, embedding: vectors[i] as Float32Array }];
      });
      if (inserts.length > 0) await tx.insertMemories(inserts);
      let added = 0;
      const refsOf = new Map<string, Map<Layer, string[]>>();
      for (const { record, concepts } of live) {
        for (const concept of concepts) {
          const target = present.get(concept.name);
          if (target === undefined || target.id === record.id) continue;
          const layers = refsOf.get(target.id) ?? new Map<Layer, string[]>();
          layers.set(record.layer, [...(layers.get(record.layer) ?? []), record.id]);
          refsOf.set(target.id, layers);
        }
      }
      for (const [conceptId, layers] of refsOf) {
        for (const [layer, refIds] of layers) {
          added += (await tx.addConceptRefs({ scope, conceptId, layer, refIds })).added.length;
        }
      }
      return { created, added };
    });
    report.conceptsCreated += done.created;
    report.refsAdded += done.added;
  }
  return report;
}
