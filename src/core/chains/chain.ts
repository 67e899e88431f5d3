/**
 * Decision chains (seed 001's third layer, built on episodes and edges rather than a new layer):
 * a decision, the rationale that settled it (`DECIDED`), the alternatives it turned down
 * (`REJECTED`), and what it led to (`LED_TO`: outcomes and follow-up decisions). A chain is the
 * connected set of records linked by those edge types, read whole, in order, within the read's scopes
 * and time instants (edges and records alike).
 */
import { isVisible, type Edge, type MemoryRecord, type TimeFilter } from '../memory.js';
import { iso } from '../memory-view.js';
import type { StoreReader } from '../ports/store.js';
import { readBeliefs } from '../read-beliefs.js';
import { CHAIN_RELATIONS } from '../relations.js';
import type { Scope } from '../scope.js';
import { isEdgeVisible } from '../graph/edge-visibility.js';

/** What a member is to its chain. */
export type ChainRole = 'rationale' | 'decision' | 'rejected' | 'outcome' | 'follow-up';

/** One record of a chain, in chain order. */
export interface ChainMember {
  id: string;
  scope: Scope;
  role: ChainRole;
  content: string;
  layer: MemoryRecord['layer'];
  status: MemoryRecord['status'];
  importance: number | null;
  occurredAt: string | null;
  recordedAt: string;
  /** A decision's own rationale, when the episode recorded one. */
  rationale?: string;
  /** The chain edge that reached this member from an earlier one (absent for the first). */
  via?: { type: string; from: string };
}

/** The most records one chain reads (a longer chain is cut, earliest members kept). */
export const MAX_CHAIN_MEMBERS = 50;

export interface ChainQuery extends TimeFilter {
  scopes: readonly Scope[];
  /** The records whose chains are wanted. */
  ids: readonly string[];
  now: number;
  maxMembers?: number;
}

/**
 * The chain of each of `ids` that belongs to one (an id without chain edges is absent), ordered from
 * rationale through decision, rejected alternatives, outcomes and follow-ups (edge direction first,
 * then event time). Records and edges not visible under the query's instants are left out.
 */
export async function readChains(reader: StoreReader, query: ChainQuery): Promise<Map<string, ChainMember[]>> {
  const out = new Map<string, ChainMember[]>();
  const done = new Map<string, ChainMember[]>();
  for (const id of query.ids) {
    const known = done.get(id);
    if (known !== undefined) {
      out.set(id, known);
      continue;
    }
    const { records, edges } = await component(reader, query, id);
    if (edges.length === 0) continue;
    const members = orderChain(records, edges);
    for (const member of members) done.set(member.id, members);
    if (members.some((m) => m.id === id)) out.set(id, members);
  }
  return out;
}

/** The records and visible chain edges connected to `start`, breadth first, capped. */
async function component(
  reader: StoreReader,
  query: ChainQuery,
  start: string,
): Promise<{ records: Map<string, MemoryRecord>; edges: Edge[] }> {
  const cap = query.maxMembers ?? MAX_CHAIN_MEMBERS;
  const records = new Map<string, MemoryRecord>();
  const edges = new Map<string, Edge>();
  const [first] = await reader.getMemories([start], query.scopes);
  const firstBeliefs = await readBeliefs(reader, [start], query.scopes, query);
  if (first === undefined || !isVisible(first, query, query.now, firstBeliefs.get(start))) return { records, edges: [] };
  records.set(first.id, first);
  let frontier = [first.id];
  while (frontier.length > 0 && records.size < cap) {
    const found = (await reader.getEdges({ scopes: query.scopes, ids: frontier, types: CHAIN_RELATIONS })).filter((e) =>
      isEdgeVisible(e, query, query.now),
    );
    const next = [...new Set(found.flatMap((e) => [e.fromId, e.toId]))].filter((id) => !records.has(id));
    // under a knownAt, each record is judged by what was believed of it then
    const [candidates, beliefs] = await Promise.all([
      reader.getMemories(next, query.scopes),
      readBeliefs(reader, next, query.scopes, query),
    ]);
    const reached = candidates.filter((r) => isVisible(r, query, query.now, beliefs.get(r.id))).slice(0, cap - records.size);
    for (const record of reached) records.set(record.id, record);
    for (const edge of found) if (records.has(edge.fromId) && records.has(edge.toId)) edges.set(edge.id, edge);
    frontier = reached.map((r) => r.id);
  }
  return { records, edges: [...edges.values()] };
}

/** Topological order along the chain edges (a rationale before its decision, a decision before what it led to), ties by event time then id. */
function orderChain(records: ReadonlyMap<string, MemoryRecord>, edges: readonly Edge[]): ChainMember[] {
  const incoming = new Map<string, Edge[]>();
  const outgoing = new Map<string, Edge[]>();
  for (const edge of edges) {
    (incoming.get(edge.toId) ?? incoming.set(edge.toId, []).get(edge.toId) ?? []).push(edge);
    (outgoing.get(edge.fromId) ?? outgoing.set(edge.fromId, []).get(edge.fromId) ?? []).push(edge);
  }
  const time = (r: MemoryRecord): number => r.occurredAt ?? r.validFrom;
  const byTime = (a: MemoryRecord, b: MemoryRecord): number => time(a) - time(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const waiting = new Map(
    [...records.keys()].map((id) => [id, (incoming.get(id) ?? []).filter((e) => records.has(e.fromId) && e.fromId !== id).length]),
  );
  const ordered: MemoryRecord[] = [];
  const placed = new Set<string>();
  while (ordered.length < records.size) {
    const ready = [...records.values()].filter((r) => !placed.has(r.id) && (waiting.get(r.id) ?? 0) === 0).sort(byTime);
    // a cycle (A LED_TO B LED_TO A): take the earliest remaining record
    const next = ready[0] ?? [...records.values()].filter((r) => !placed.has(r.id)).sort(byTime)[0];
    if (next === undefined) break;
    ordered.push(next);
    placed.add(next.id);
    for (const edge of outgoing.get(next.id) ?? []) waiting.set(edge.toId, (waiting.get(edge.toId) ?? 1) - 1);
  }
  return ordered.map((record) => {
    const via = (incoming.get(record.id) ?? []).find(
      (e) => placed.has(e.fromId) && ordered.indexOf(records.get(e.fromId) as MemoryRecord) < ordered.indexOf(record),
    );
    const rationale = record.data.decision?.rationale;
    return {
      id: record.id,
      scope: record.scope,
      role: roleOf(record, incoming.get(record.id) ?? [], outgoing.get(record.id) ?? []),
      content: record.content,
      layer: record.layer,
      status: record.status,
      importance: record.importance,
      occurredAt: iso(record.occurredAt),
      recordedAt: iso(record.recordedAt) as string,
      ...(rationale !== undefined && rationale.length > 0 ? { rationale } : {}),
      ...(via !== undefined ? { via: { type: via.type, from: via.fromId } } : {}),
    };
  });
}

function roleOf(record: MemoryRecord, incoming: readonly Edge[], outgoing: readonly Edge[]): ChainRole {
  const has = (edges: readonly Edge[], type: string): boolean => edges.some((e) => e.type === type);
  if (has(incoming, 'REJECTED')) return 'rejected';
  const decision = has(incoming, 'DECIDED') || has(outgoing, 'REJECTED') || (record.data.decision?.intent ?? '').length > 0;
  if (decision) return has(incoming, 'LED_TO') ? 'follow-up' : 'decision';
  if (has(incoming, 'LED_TO')) return has(outgoing, 'LED_TO') ? 'follow-up' : 'outcome';
  if (has(outgoing, 'DECIDED')) return 'rationale';
  return 'decision';
}

/**
 * The importance a chain lends each of `records` for decay: the highest importance among the visible
 * members of its chain (unscored counts as 1), or the record's own when it is in no chain. Seed 001:
 * a chain's records follow the decay tier of their most important member.
 */
export async function chainImportance(
  reader: StoreReader,
  scope: Scope,
  records: readonly MemoryRecord[],
  now: number,
): Promise<Map<string, number>> {
  // one edge read tells which records are in a chain at all; only those are walked
  const linked = new Set(
    (await reader.getEdges({ scopes: [scope], ids: records.map((r) => r.id), types: CHAIN_RELATIONS })).flatMap((e) => [e.fromId, e.toId]),
  );
  const chains = await readChains(reader, {
    scopes: [scope],
    ids: records.filter((r) => linked.has(r.id)).map((r) => r.id),
    now,
    includeSuperseded: true,
  });
  const out = new Map<string, number>();
  for (const record of records) {
    const own = record.importance ?? 1;
    const members = chains.get(record.id);
    out.set(record.id, members === undefined ? own : Math.max(own, ...members.map((m) => m.importance ?? 1)));
  }
  return out;
}

/** Sets `chain` on each hit that belongs to a decision chain, read under the same scopes and instants. */
export async function attachChains<T extends { id: string; chain?: ChainMember[] }>(
  reader: StoreReader,
  hits: T[],
  query: Omit<ChainQuery, 'ids'>,
): Promise<void> {
  const chains = await readChains(reader, { ...query, ids: hits.map((h) => h.id) });
  for (const hit of hits) {
    const chain = chains.get(hit.id);
    if (chain !== undefined) hit.chain = chain;
  }
}
