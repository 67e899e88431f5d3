/**
 * Where a memory stands among others: its supersession chain (both time axes of every version) and
 * its provenance (what it was derived from, what was derived from it, the concepts it feeds).
 */
import { EngramError, messages } from '../errors.js';
import type { Edge, Layer, MemoryRecord, Provenance, SourceRef } from '../memory.js';
import { iso } from '../memory-view.js';
import type { StoreReader } from '../ports/store.js';
import type { Scope } from '../scope.js';
import { excerpt } from './overview.js';

/** Most versions one chain holds. */
const MAX_CHAIN = 1000;

/** One version of a claim, with valid time (validFrom/validTo) and transaction time (recordedAt/supersededAt). */
export interface ChainVersion {
  id: string;
  content: string;
  status: MemoryRecord['status'];
  validFrom: string;
  validTo: string | null;
  recordedAt: string;
  /** When the store stopped believing it (the supersession was recorded), or null while current. */
  supersededAt: string | null;
  /** Versions this one superseded (current SUPERSEDES edges from it). */
  supersedes: string[];
  /** Versions that superseded this one (current SUPERSEDES edges to it). */
  supersededBy: string[];
}

/** The supersession chain `id` belongs to, oldest first (valid time, then transaction time, then id). */
export async function supersessionChain(store: StoreReader, id: string, scopes: readonly Scope[]): Promise<{ chain: ChainVersion[] }> {
  const [start] = await store.getMemories([id], scopes);
  if (start === undefined) throw new EngramError('NOT_FOUND', messages.notFound(id), { details: { id } });
  const { records: seen, edges } = await supersessionLinks(store, start, scopes);
  // an undone supersession (unsupersede) closed its edge: the versions stay linked in the chain, not in these fields
  const current = edges.filter((e) => e.invalidatedAt === null && seen.has(e.fromId) && seen.has(e.toId));
  const records = [...seen.values()].sort((a, b) => a.validFrom - b.validFrom || a.recordedAt - b.recordedAt || (a.id < b.id ? -1 : 1));
  return {
    chain: records.map((r) => {
      const by = current.filter((e) => e.toId === r.id);
      return {
        id: r.id,
        content: r.content,
        status: r.status,
        validFrom: iso(r.validFrom) ?? '',
        validTo: iso(r.validTo),
        recordedAt: iso(r.recordedAt) ?? '',
        supersededAt: by.length > 0 ? iso(r.invalidatedAt ?? Math.min(...by.map((e) => e.recordedAt))) : null,
        supersedes: current.filter((e) => e.fromId === r.id).map((e) => e.toId),
        supersededBy: by.map((e) => e.fromId),
      };
    }),
  };
}

/**
 * Every record linked to `start` through SUPERSEDES edges (both directions, transitively; at most 1000)
 * and those edges, open or closed. Reads through `store`, so a skipping reader leaves damaged records out.
 */
export async function supersessionLinks(
  store: StoreReader,
  start: MemoryRecord,
  scopes: readonly Scope[],
): Promise<{ records: Map<string, MemoryRecord>; edges: Edge[] }> {
  const seen = new Map<string, MemoryRecord>([[start.id, start]]);
  const edges = new Map<string, Edge>();
  let frontier = [start.id];
  while (frontier.length > 0 && seen.size < MAX_CHAIN) {
    const next: string[] = [];
    for (const edge of await store.getEdges({ scopes, ids: frontier, types: ['SUPERSEDES'] })) {
      edges.set(edge.id, edge);
      for (const end of [edge.fromId, edge.toId]) if (!seen.has(end) && !next.includes(end)) next.push(end);
    }
    for (const record of await store.getMemories(next, scopes)) seen.set(record.id, record);
    frontier = next.filter((n) => seen.has(n));
  }
  return { records: seen, edges: [...edges.values()] };
}

/** A record as provenance lists it. */
export interface RecordSummary {
  id: string;
  scope: string;
  layer: Layer;
  /** The content, cut to 200 characters. */
  content: string;
  status: MemoryRecord['status'];
  recordedAt: string;
  /** How it is linked: `derivedFrom` (evidence), `chunk` (a chunk of a document and its parent document). */
  link: 'derivedFrom' | 'chunk';
}

/** A concept a memory feeds, with its statistics when grounding computed some. */
export interface FedConcept {
  id: string;
  name: string | null;
  content: string;
  salience: number;
  /** The layer under which the concept refers to the memory. */
  refLayer: Layer;
  statistics: { id: string; content: string; metric: Record<string, unknown> | null }[];
}

export interface ProvenanceView {
  id: string;
  kind: Provenance['kind'] | null;
  /** Records it was derived from (its evidence) and, for a chunk, the document it is a chunk of. */
  sources: RecordSummary[];
  /** Where the raw material came from: conversations and messages, uris. */
  messages: SourceRef[];
  /** Records derived from it: chunks of it, records that name it as evidence. */
  derived: RecordSummary[];
  concepts: FedConcept[];
}

/** The provenance of `id` within `scopes`. */
export async function provenanceOf(store: StoreReader, id: string, scopes: readonly Scope[]): Promise<ProvenanceView> {
  const [record] = await store.getMemories([id], scopes);
  if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(id), { details: { id } });
  const provenance = (record.provenance as Provenance | undefined) ?? { kind: null, sources: [], derivedFrom: [] };
  const data = (record.data as MemoryRecord['data'] | undefined) ?? {};
  const evidence = Array.isArray(provenance.derivedFrom) ? provenance.derivedFrom : [];
  const parent = typeof data.parentId === 'string' ? [data.parentId] : [];
  const [sourceRecords, derivedRecords, refs] = await Promise.all([
    store.getMemories([...new Set([...parent, ...evidence])], scopes),
    store.findDerived({ scope: record.scope, ids: [record.id] }),
    store.findConceptsByRef({ scopes, refIds: [record.id] }),
  ]);
  const sources = sourceRecords.map((r) => summary(r, parent.includes(r.id) ? 'chunk' : 'derivedFrom'));
  const derived = derivedRecords.map((r) =>
    summary(r, (r.data as MemoryRecord['data'] | undefined)?.parentId === record.id ? 'chunk' : 'derivedFrom'),
  );
  const conceptIds = [...new Set(refs.map((r) => r.conceptId))];
  const [conceptRecords, statRefs] = await Promise.all([
    conceptIds.length > 0 ? store.getMemories(conceptIds, scopes) : [],
    conceptIds.length > 0 ? store.getConceptRefs({ scopes, conceptIds, layers: ['statistical'] }) : [],
  ]);
  const statistics = new Map(
    (statRefs.length > 0 ? await store.getMemories([...new Set(statRefs.map((r) => r.refId))], scopes) : []).map((r) => [r.id, r]),
  );
  const concepts = conceptRecords.map((c): FedConcept => {
    const cdata = (c.data as MemoryRecord['data'] | undefined) ?? {};
    return {
      id: c.id,
      name: typeof cdata.name === 'string' ? cdata.name : null,
      content: excerpt(c.content),
      salience: c.salience,
      refLayer: refs.find((r) => r.conceptId === c.id)?.layer ?? record.layer,
      statistics: statRefs
        .filter((r) => r.conceptId === c.id)
        .flatMap((r) => {
          const stat = statistics.get(r.refId);
          if (stat === undefined || stat.status !== 'active') return [];
          const metric = (stat.data as MemoryRecord['data'] | undefined)?.metric;
          return [{ id: stat.id, content: stat.content, metric: metric ?? null }];
        }),
    };
  });
  return {
    id: record.id,
    kind: provenance.kind ?? null,
    sources,
    messages: Array.isArray(provenance.sources) ? provenance.sources : [],
    derived,
    concepts,
  };
}

function summary(record: MemoryRecord, link: RecordSummary['link']): RecordSummary {
  return {
    id: record.id,
    scope: record.scope,
    layer: record.layer,
    content: excerpt(record.content),
    status: record.status,
    recordedAt: iso(record.recordedAt) ?? '',
    link,
  };
}
