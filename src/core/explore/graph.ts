/**
 * The knowledge graph of some scopes as nodes and edges: the concepts and the relations between them,
 * or, around a focus record or concept, its neighbourhood (its edges and concept refs, one hop, with
 * the edges among the nodes found). Current edges only; bounded by `limit` nodes.
 */
import { EngramError, messages } from '../errors.js';
import type { Edge, Layer, MemoryRecord } from '../memory.js';
import type { ConceptRef, StoreReader } from '../ports/store.js';
import type { Scope } from '../scope.js';
import { isEdgeVisible } from '../graph/edge-visibility.js';
import { DEFAULT_GRAPH_LIMIT } from './schemas.js';
import { excerpt } from './overview.js';
import { isConcept } from '../record-kinds.js';

/** The edge type of a concept ref: from the record to the concept it feeds. */
export const REF_TYPE = 'REF';
const LABEL_CHARS = 80;

export interface GraphNode {
  id: string;
  scope: string;
  label: string;
  layer: Layer;
  kind: 'concept' | 'record';
  salience: number;
}

export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  type: string;
  weight: number;
}

export interface GraphView {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** True when more nodes were there than `limit` allowed. */
  truncated: boolean;
}

export interface GraphQuery {
  scopes: readonly Scope[];
  /** Only edges of these types (`REF` for concept refs); every type when absent. */
  relationTypes?: readonly string[];
  focus?: string;
  limit?: number;
  now: number;
}

/** The graph of `query.scopes` (see the module comment). */
export async function graphView(store: StoreReader, query: GraphQuery): Promise<GraphView> {
  const limit = query.limit ?? DEFAULT_GRAPH_LIMIT;
  const types = query.relationTypes === undefined ? undefined : new Set(query.relationTypes);
  const wantsRefs = types === undefined || types.has(REF_TYPE);
  let nodes: MemoryRecord[];
  let truncated = false;
  if (query.focus === undefined) {
    const concepts = await store.listConcepts({ scopes: query.scopes, limit: limit + 1 });
    truncated = concepts.length > limit;
    nodes = concepts.slice(0, limit);
  } else {
    const [focus] = await store.getMemories([query.focus], query.scopes);
    if (focus === undefined) throw new EngramError('NOT_FOUND', messages.notFound(query.focus), { details: { id: query.focus } });
    const neighbours: string[] = [];
    for (const edge of await currentEdges(store, query, [focus.id], types))
      neighbours.push(edge.fromId === focus.id ? edge.toId : edge.fromId);
    if (wantsRefs)
      for (const ref of await refsTouching(store, query.scopes, [focus]))
        neighbours.push(ref.conceptId === focus.id ? ref.refId : ref.conceptId);
    const distinct = [...new Set(neighbours)].filter((id) => id !== focus.id);
    truncated = distinct.length > limit - 1;
    const found = await store.getMemories(distinct.slice(0, limit - 1), query.scopes);
    // forgotten and expired records are no part of the graph
    nodes = [focus, ...found.filter((r) => r.status !== 'deleted' && r.status !== 'expired')];
  }
  const ids = new Set(nodes.map((n) => n.id));
  const edges: GraphEdge[] = [];
  for (const edge of ids.size > 0 ? await currentEdges(store, query, [...ids], types) : []) {
    if (ids.has(edge.fromId) && ids.has(edge.toId))
      edges.push({ id: edge.id, from: edge.fromId, to: edge.toId, type: edge.type, weight: edge.weight });
  }
  if (wantsRefs && query.focus !== undefined) {
    for (const ref of await refsTouching(store, query.scopes, nodes)) {
      if (ids.has(ref.conceptId) && ids.has(ref.refId))
        edges.push({ id: refEdgeId(ref), from: ref.refId, to: ref.conceptId, type: REF_TYPE, weight: 1 });
    }
  }
  return { nodes: nodes.map(toNode), edges: dedupe(edges), truncated };
}

/** The id of a ref edge (refs have no id of their own). */
export function refEdgeId(ref: Pick<ConceptRef, 'conceptId' | 'refId'>): string {
  return `ref:${ref.refId}:${ref.conceptId}`;
}

async function currentEdges(store: StoreReader, query: GraphQuery, ids: string[], types: ReadonlySet<string> | undefined): Promise<Edge[]> {
  const edgeTypes = types === undefined ? undefined : [...types].filter((t) => t !== REF_TYPE);
  if (edgeTypes !== undefined && edgeTypes.length === 0) return [];
  const edges = await store.getEdges({ scopes: query.scopes, ids, ...(edgeTypes !== undefined ? { types: edgeTypes } : {}) });
  return edges.filter((e) => isEdgeVisible(e, {}, query.now));
}

/** Refs from the concepts among `records` and refs to the other records. */
async function refsTouching(store: StoreReader, scopes: readonly Scope[], records: readonly MemoryRecord[]): Promise<ConceptRef[]> {
  const concepts = records.filter(isConcept).map((r) => r.id);
  const others = records.filter((r) => !isConcept(r)).map((r) => r.id);
  const [from, to] = await Promise.all([
    concepts.length > 0 ? store.getConceptRefs({ scopes, conceptIds: concepts }) : [],
    others.length > 0 ? store.findConceptsByRef({ scopes, refIds: others }) : [],
  ]);
  return [...from, ...to];
}

function toNode(record: MemoryRecord): GraphNode {
  const data = (record.data as MemoryRecord['data'] | undefined) ?? {};
  const name = typeof data.name === 'string' && data.name.trim().length > 0 ? data.name : undefined;
  return {
    id: record.id,
    scope: record.scope,
    label: excerpt(name ?? record.content, LABEL_CHARS),
    layer: record.layer,
    kind: isConcept(record) ? 'concept' : 'record',
    salience: record.salience,
  };
}

function dedupe(edges: GraphEdge[]): GraphEdge[] {
  const seen = new Set<string>();
  return edges.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
}
