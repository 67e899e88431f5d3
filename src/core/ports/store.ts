/**
 * The storage port (DESIGN §8). Every read takes the scopes it may see and the store enforces them:
 * a record outside those scopes is never returned, counted or modified, whatever the id.
 * No layer above a store writes SQL.
 */
import type { Edge, Layer, MemoryRecord, MemoryStatus, NewMemory, TimeFilter } from '../memory.js';
import type { Scope } from '../scope.js';

/** What a store can do natively; shared code reads these instead of branching on the backend. */
export interface StoreCapabilities {
  /** Approximate nearest-neighbour index available (else exact search). */
  readonly annIndex: boolean;
  /** Several processes may write the same store at once. */
  readonly multiProcess: boolean;
}

/** One ranked hit of a search channel. `score`: higher is better, channel-specific scale. */
export interface ChannelHit {
  id: string;
  score: number;
}

export interface ScopedQuery extends TimeFilter {
  scopes: readonly Scope[];
  /** Only these layers (an empty list matches nothing); every layer when absent. */
  layers?: readonly Layer[];
  /** Evaluate time filters at this instant (the engine's clock). */
  now: number;
  limit: number;
}

export interface LexicalQuery extends ScopedQuery {
  /**
   * Terms as typed by the user; the store handles stemming and escaping, so no input is ever a syntax
   * error. Terms are OR-ed; a term with spaces counts as its words. Weight defaults to 1; ≤ 0 drops it.
   */
  terms: readonly { term: string; weight?: number }[];
  /**
   * BM25 parameters (default k1 1.2, b 0.75). Document frequencies and lengths are those of the
   * searched scopes, never of the whole store, so one scope's vocabulary does not skew another's.
   */
  bm25?: { k1?: number; b?: number };
}

export interface VectorQuery extends ScopedQuery {
  vector: Float32Array;
}

export interface ListQuery {
  scopes: readonly Scope[];
  layers?: readonly Layer[];
  statuses?: readonly MemoryStatus[];
  /** Keyset pagination by id (ids are time-sortable): return ids strictly greater. */
  afterId?: string;
  limit: number;
}

export interface StoreStats {
  total: number;
  byLayer: Record<string, number>;
  byStatus: Record<string, number>;
  edges: number;
}

/** Partial update of mutable fields; `id` and `scope` select the record. */
export type MemoryPatch = Partial<
  Pick<
    MemoryRecord,
    | 'content'
    | 'summary'
    | 'tags'
    | 'entities'
    | 'importance'
    | 'salience'
    | 'surprise'
    | 'emotion'
    | 'pinned'
    | 'mentionCount'
    | 'confidence'
    | 'status'
    | 'provenance'
    | 'validFrom'
    | 'validTo'
    | 'occurredAt'
    | 'invalidatedAt'
    | 'data'
  >
> & { updatedAt: number };

/** Reads available both on the store and inside a transaction. */
export interface StoreReader {
  /** Records by id in the order of `ids`, only those in `scopes`; missing or out-of-scope ids are simply absent. */
  getMemories(ids: readonly string[], scopes: readonly Scope[]): Promise<MemoryRecord[]>;
  /** The record ingested from this source key in this scope, if any (idempotent re-ingest). */
  findBySourceKey(scope: Scope, sourceKeys: readonly string[]): Promise<Map<string, string>>;
  /** BM25 over content (and tags), best first, visible under the query's time filter. */
  lexicalSearch(query: LexicalQuery): Promise<ChannelHit[]>;
  /** k-NN by cosine similarity, best first, visible under the query's time filter. Exact unless `annIndex`. */
  vectorSearch(query: VectorQuery): Promise<ChannelHit[]>;
  /** Records in id order (keyset pagination), any status unless `statuses` is given. */
  listMemories(query: ListQuery): Promise<MemoryRecord[]>;
  /** Active claims in one scope and layer with the given subject (for supersession and dedup). */
  findClaims(query: { scope: Scope; layers: readonly Layer[]; subjects: readonly string[]; limit: number }): Promise<MemoryRecord[]>;
  /** Edges touching any of the ids, within scopes. */
  getEdges(query: { scopes: readonly Scope[]; ids: readonly string[]; types?: readonly string[] }): Promise<Edge[]>;
  stats(scopes: readonly Scope[]): Promise<StoreStats>;
  /**
   * For each id, up to `window` records immediately before and after it in its thread (`threadKeyOf`:
   * same scope and thread key, ordered by occurredAt then id), visible under the query's time filter.
   * Ids without a thread, or outside `scopes`, are absent from the map.
   */
  getNeighbours(query: NeighbourQuery): Promise<Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }>>;
  /**
   * The embeddings of the `limit` most recently written memories of `scope` (any status), newest first:
   * a cheap reference sample for novelty (surprise) on write.
   */
  recentEmbeddings(scope: Scope, limit: number): Promise<Float32Array[]>;
  /** Records whose occurredAt (else validFrom) falls in [start, end), visible under the time filter, most recent first. */
  temporalSearch(query: TemporalQuery): Promise<ChannelHit[]>;
}

export interface NeighbourQuery extends TimeFilter {
  scopes: readonly Scope[];
  ids: readonly string[];
  window: number;
  now: number;
}

export interface TemporalQuery extends ScopedQuery {
  start: number;
  end: number;
}

/** Writes; only available inside `Store.transaction`, so each call site is atomic. */
export interface StoreTransaction extends StoreReader {
  insertMemories(memories: readonly NewMemory[]): Promise<void>;
  /** Applies a patch if the record exists in `scope`; returns whether it did. */
  updateMemory(id: string, scope: Scope, patch: MemoryPatch): Promise<boolean>;
  /** Replaces a record's embedding (after a content edit). */
  updateEmbedding(id: string, scope: Scope, embedding: Float32Array): Promise<void>;
  insertEdges(edges: readonly Edge[]): Promise<void>;
  /** Closes edges in transaction time (sets `invalidatedAt`), within `scope`; returns how many changed. */
  invalidateEdges(ids: readonly string[], scope: Scope, at: number): Promise<number>;
}

export interface Store extends StoreReader {
  readonly capabilities: StoreCapabilities;
  /**
   * Runs `fn` atomically: every write inside commits together or not at all, and no other writer
   * (in this process or another) interleaves. Rejections roll back and propagate.
   */
  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /** Records reads: bumps accessCount and lastAccessedAt. Best effort, may be batched. */
  recordAccess(ids: readonly string[], at: number): Promise<void>;
  /** Reads a metadata value (e.g. the embedding model name). */
  getMeta(key: string): Promise<string | null>;
  setMeta(key: string, value: string): Promise<void>;
  /** Flushes pending work and releases handles. Idempotent. */
  close(): Promise<void>;
}
