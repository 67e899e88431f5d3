/**
 * What a purge removes beside the records it names: what was derived from them alone —
 * chunks of a removed document, concepts whose every ref is removed, records (statistics, reflections)
 * whose evidence is all removed — or that quotes them (an extractive reflection or summary), and which
 * predecessors become current again because every record that superseded them goes.
 */
import type { MemoryRecord } from '../memory.js';
import type { StoreReader } from '../ports/store.js';
import type { Scope } from '../scope.js';
import { isConcept } from '../record-kinds.js';
import { derivedRecords } from '../derived-records.js';

/** The records to delete and the claims to reinstate. */
export interface PurgePlan {
  /** Every record to delete, the named ones first. */
  removed: MemoryRecord[];
  /** Superseded claims whose every superseder is removed: they become active again. */
  restore: MemoryRecord[];
}

/** Builds the plan inside the purge's transaction (`reader` is the transaction). */
export async function planPurge(
  reader: StoreReader,
  scope: Scope,
  targets: readonly MemoryRecord[],
  options: { wholeScope: boolean },
): Promise<PurgePlan> {
  const removed = new Map(targets.map((r) => [r.id, r]));
  // everything in the scope goes: nothing can be derived from it alone elsewhere (refs and edges stay in a scope)
  if (options.wholeScope) return { removed: [...removed.values()], restore: [] };
  let frontier = [...removed.keys()];
  while (frontier.length > 0) {
    const next: MemoryRecord[] = [];
    // a derived record's provenance lists a capped sample of its evidence; its DERIVED_FROM edges name
    // all of it (a reflection over 200 memories quotes representatives its sample may not hold)
    const derived = await derivedRecords(reader, scope, frontier, (id) => removed.has(id));
    for (const record of derived.records.values()) {
      if (derivedAlone(record, removed, derived.linked.get(record.id) ?? [])) next.push(record);
    }
    const concepts = [...new Set((await reader.findConceptsByRef({ scopes: [scope], refIds: frontier })).map((r) => r.conceptId))].filter(
      (id) => !removed.has(id),
    );
    if (concepts.length > 0) {
      const refs = await reader.getConceptRefs({ scopes: [scope], conceptIds: concepts });
      const orphaned = concepts.filter((id) => refs.every((ref) => ref.conceptId !== id || removed.has(ref.refId)));
      next.push(...(await reader.getMemories(orphaned, [scope])));
    }
    for (const record of next) removed.set(record.id, record);
    frontier = next.map((r) => r.id);
  }
  return { removed: [...removed.values()], restore: await predecessorsToRestore(reader, scope, removed) };
}

/**
 * A chunk of a removed document, or a non-concept record whose every piece of evidence is removed, or
 * one that quotes a removed record: an extractive reflection or summary holds its evidence's words, so
 * keeping it would keep the purged text (and recall would still find it there).
 */
function derivedAlone(record: MemoryRecord, removed: ReadonlyMap<string, MemoryRecord>, linked: readonly string[]): boolean {
  const parent = record.data.parentId;
  if (typeof parent === 'string' && removed.has(parent)) return true;
  // a concept's derivedFrom is a capped sample of its episodes: its refs decide instead
  if (isConcept(record)) return false;
  const evidence = record.provenance.derivedFrom;
  if (evidence.length > 0 && evidence.every((id) => removed.has(id))) return true;
  return [...evidence, ...linked].some((id) => quotes(record, removed.get(id)));
}

/** Shortest wording whose presence in a derived record counts as a quote (shorter ones match by chance). */
export const QUOTE_MIN_CHARS = 16;
/** How much of the source's wording is looked for: extractive reflections clip their quotes at 140. */
export const QUOTE_CHARS = 60;

/** Does `derived` name `source` as a representative it quotes, or hold the start of its wording? */
function quotes(derived: MemoryRecord, source: MemoryRecord | undefined): boolean {
  if (source === undefined) return false;
  const representatives = (derived.data.reflection as { representatives?: unknown } | undefined)?.representatives;
  if (Array.isArray(representatives) && representatives.includes(source.id)) return true;
  const wording = source.content.trim().slice(0, QUOTE_CHARS);
  if (wording.length < QUOTE_MIN_CHARS) return false;
  return derived.content.includes(wording) || (derived.summary ?? '').includes(wording);
}

/** Claims superseded by a removed record whose every (transitive) superseder is removed too. */
async function predecessorsToRestore(
  reader: StoreReader,
  scope: Scope,
  removed: ReadonlyMap<string, MemoryRecord>,
): Promise<MemoryRecord[]> {
  const edges = await reader.getEdges({ scopes: [scope], ids: [...removed.keys()], types: ['SUPERSEDES'] });
  const candidates = [
    ...new Set(edges.filter((e) => e.invalidatedAt === null && removed.has(e.fromId) && !removed.has(e.toId)).map((e) => e.toId)),
  ];
  const restore: MemoryRecord[] = [];
  for (const record of await reader.getMemories(candidates, [scope])) {
    if (record.status === 'superseded' && (await onlyRemovedSuperseders(reader, scope, record.id, removed))) restore.push(record);
  }
  return restore;
}

/** Walks SUPERSEDES edges forward from `id`: true when every record reached is removed. */
async function onlyRemovedSuperseders(
  reader: StoreReader,
  scope: Scope,
  id: string,
  removed: ReadonlyMap<string, MemoryRecord>,
): Promise<boolean> {
  const seen = new Set([id]);
  let frontier = [id];
  while (frontier.length > 0 && seen.size < 1000) {
    const edges = await reader.getEdges({ scopes: [scope], ids: frontier, types: ['SUPERSEDES'] });
    const superseders = edges.filter((e) => e.invalidatedAt === null && frontier.includes(e.toId)).map((e) => e.fromId);
    if (superseders.some((s) => !removed.has(s))) return false;
    frontier = superseders.filter((s) => !seen.has(s));
    for (const s of frontier) seen.add(s);
  }
  return true;
}
