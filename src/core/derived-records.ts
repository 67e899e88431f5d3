/**
 * What was derived from some records, as purge and forget both need it: the records whose provenance
 * names one of them (a capped sample of their evidence) or whose DERIVED_FROM edges do (all of it), with
 * the ids each one's edges name.
 */
import type { MemoryRecord } from './memory.js';
import type { StoreReader } from './ports/store.js';
import type { Scope } from './scope.js';

/**
 * The records of `scope` derived from any of `ids` (chunks by `data.parentId` included), leaving out
 * those `skip` names; `linked` maps each derived record to the ids among `ids` its live DERIVED_FROM
 * edges point to.
 */
export async function derivedRecords(
  reader: StoreReader,
  scope: Scope,
  ids: readonly string[],
  skip: (id: string) => boolean = () => false,
): Promise<{ records: Map<string, MemoryRecord>; linked: Map<string, string[]> }> {
  const wanted = new Set(ids);
  const linked = new Map<string, string[]>();
  for (const edge of await reader.getEdges({ scopes: [scope], ids, types: ['DERIVED_FROM'] })) {
    if (edge.invalidatedAt !== null || !wanted.has(edge.toId) || skip(edge.fromId)) continue;
    linked.set(edge.fromId, [...(linked.get(edge.fromId) ?? []), edge.toId]);
  }
  const records = new Map((await reader.findDerived({ scope, ids })).filter((r) => !skip(r.id)).map((r) => [r.id, r]));
  const unseen = [...linked.keys()].filter((id) => !records.has(id));
  for (const record of unseen.length > 0 ? await reader.getMemories(unseen, [scope]) : []) records.set(record.id, record);
  return { records, linked };
}
