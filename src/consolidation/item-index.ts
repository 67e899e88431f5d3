/**
 * The items memories share, for recombination and insight: each current episodic or semantic memory
 * of a scope (derived knowledge left out) with the concepts that refer to it, its named entities
 * (normalised like concept names, so `Orders DB` and the concept `orders_db` are one item), and the
 * causal links between its concepts and others (a CAUSES edge between two concepts). Built once per
 * run and shared by the phases that need it.
 */
import { conceptName } from '../core/concepts/candidates.js';
import { isConcept, isChunkParent, isCycleKnowledge, isPromoted, isReflection } from '../core/record-kinds.js';
import type { MemoryRecord } from '../core/memory.js';
import { scanRecords, type PhaseContext } from './phase-context.js';

/** One memory as recombination sees it. */
export interface IndexedMemory {
  id: string;
  /** When it happened (occurredAt, else validFrom). */
  at: number;
  session: string | null;
  salience: number;
  content: string;
  /** Success or failure of an episode; else the sign of a strong feeling (valence ≥ 0.3 or ≤ −0.3); else null. */
  outcome: boolean | null;
  tool: string | null;
}

/** A link from an item to another through a causal edge between their concepts. */
export interface CausalLink {
  /** The item reached. */
  item: string;
  /** How it reads: `schema_change CAUSES deploy_failure`. */
  label: string;
}

export interface ItemIndex {
  memories: Map<string, IndexedMemory>;
  /** Items of each memory. */
  itemsOf: Map<string, Set<string>>;
  /** Memories of each item (its document frequency is the size). */
  memoriesOf: Map<string, Set<string>>;
  /** Causal links per item. */
  causal: Map<string, CausalLink[]>;
  /** Concept record id per item, where the item is a concept. */
  conceptIds: Map<string, string>;
}

const SHARED_KEY = 'item-index';

/** Is this a memory of its own (not derived bookkeeping or knowledge the cycle wrote)? */
export function isRecombinable(record: MemoryRecord): boolean {
  return !(isConcept(record) || isChunkParent(record) || isPromoted(record) || isReflection(record) || isCycleKnowledge(record));
}

/** The outcome of a memory: an episode's success, else the sign of a strong feeling, else null. */
export function outcomeOf(record: Pick<MemoryRecord, 'data' | 'emotion'>): boolean | null {
  const success = record.data.outcome?.success;
  if (typeof success === 'boolean') return success;
  const valence = record.emotion?.valence;
  if (typeof valence === 'number' && Math.abs(valence) >= 0.3) return valence > 0;
  return null;
}

/** The session of a memory: its episode context, else the conversation it came from. */
export function sessionOf(record: MemoryRecord): string | null {
  return record.data.context?.sessionId ?? record.provenance.sources.find((s) => s.conversationId !== undefined)?.conversationId ?? null;
}

/** The item index of the run's scope (built on first use, then shared by the run's phases). */
export async function itemIndex(ctx: PhaseContext): Promise<ItemIndex> {
  const cached = ctx.shared.get(SHARED_KEY) as ItemIndex | undefined;
  if (cached !== undefined) return cached;
  const { store, config } = ctx.deps;
  const records: MemoryRecord[] = [];
  const concepts: MemoryRecord[] = [];
  for await (const page of scanRecords(store, {
    scope: ctx.scope,
    layers: ['episodic', 'semantic'],
    statuses: ['active'],
    pageSize: config.pageSize,
  })) {
    for (const r of page) {
      if (isConcept(r)) concepts.push(r);
      else if (isRecombinable(r)) records.push(r);
    }
  }
  const nameOf = new Map(concepts.map((c) => [c.id, conceptName(String(c.data.name ?? c.content))]));
  const conceptsOf = new Map<string, string[]>();
  const causal: { from: string; to: string }[] = [];
  const ids = concepts.map((c) => c.id);
  for (let i = 0; i < ids.length; i += 200) {
    const chunk = ids.slice(i, i + 200);
    for (const ref of await store.getConceptRefs({ scopes: [ctx.scope], conceptIds: chunk, layers: ['episodic', 'semantic'] })) {
      conceptsOf.set(ref.refId, [...(conceptsOf.get(ref.refId) ?? []), nameOf.get(ref.conceptId) as string]);
    }
    for (const edge of await store.getEdges({ scopes: [ctx.scope], ids: chunk, types: ['CAUSES'] })) {
      const from = nameOf.get(edge.fromId);
      const to = nameOf.get(edge.toId);
      if (edge.invalidatedAt === null && edge.validTo === null && from !== undefined && to !== undefined) causal.push({ from, to });
    }
  }
  const index = indexFromRecords(records, (r) => conceptsOf.get(r.id) ?? [], causal);
  for (const [id, name] of nameOf) index.conceptIds.set(name, id);
  ctx.shared.set(SHARED_KEY, index);
  return index;
}

/**
 * An item index from memories, the concept names that refer to each, and causal links between
 * concepts (pure: the phases read all three from the store; tests give them directly).
 */
export function indexFromRecords(
  records: readonly MemoryRecord[],
  conceptsOf: (record: MemoryRecord) => readonly string[],
  causal: readonly { from: string; to: string }[] = [],
): ItemIndex {
  const index: ItemIndex = { memories: new Map(), itemsOf: new Map(), memoriesOf: new Map(), causal: new Map(), conceptIds: new Map() };
  for (const r of records) {
    const tool = r.data.action?.tool;
    index.memories.set(r.id, {
      id: r.id,
      at: r.occurredAt ?? r.validFrom,
      session: sessionOf(r),
      salience: r.salience,
      content: r.content,
      outcome: outcomeOf(r),
      tool: tool !== undefined && tool.trim() !== '' ? conceptName(tool) : null,
    });
    const items = new Set([...r.entities.map(conceptName), ...conceptsOf(r)].filter((item) => item.length > 0));
    index.itemsOf.set(r.id, items);
    for (const item of items) index.memoriesOf.set(item, (index.memoriesOf.get(item) ?? new Set<string>()).add(r.id));
  }
  for (const { from, to } of causal) {
    if (from === to) continue;
    const label = `${from} CAUSES ${to}`;
    for (const [a, b] of [
      [from, to],
      [to, from],
    ] as const) {
      const list = index.causal.get(a) ?? [];
      if (!list.some((l) => l.item === b)) list.push({ item: b, label });
      index.causal.set(a, list);
    }
  }
  dropSubsumedItems(index);
  return index;
}

/**
 * Within one memory, an item whose words are all part of another of its items (`auth` and `service`
 * beside `auth_service`: goal tokens beside the entity they came from) is the same evidence twice, so
 * it is dropped there; otherwise the two would always co-occur and look like a finding.
 */
export function dropSubsumedItems(index: Pick<ItemIndex, 'itemsOf' | 'memoriesOf'>): void {
  for (const [id, items] of index.itemsOf) {
    const words = [...items].map((item) => ({ item, parts: new Set(item.split('_')) }));
    for (const { item, parts } of words) {
      const subsumed = words.some(
        (other) => other.item !== item && other.parts.size > parts.size && [...parts].every((p) => other.parts.has(p)),
      );
      if (!subsumed) continue;
      items.delete(item);
      const ids = index.memoriesOf.get(item);
      ids?.delete(id);
      if (ids !== undefined && ids.size === 0) index.memoriesOf.delete(item);
    }
  }
}
