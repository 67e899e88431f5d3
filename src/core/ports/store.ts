/**
 * The storage port. Every read takes the scopes it may see and the store enforces them:
 * a record outside those scopes is never returned, counted or modified, whatever the id.
 * No layer above a store writes SQL.
 */
import type { BeliefInterval, Edge, Layer, MemoryRecord, MemoryStatus, NewMemory, StoredBelief, TimeFilter, WallClock } from '../memory.js';
import type { RelationType } from '../relations.js';
import type { Scope } from '../scope.js';
import type { VectorStaging } from './vector-staging.js';

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
  /** Lexical hits: the idf-weighted share of the query's terms the memory contains (0..1). */
  coverage?: number;
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
  /**
   * Up to this many hits (at least `limit`) where more cost the search nothing: an exact search scans
   * every vector whatever k is. An approximate index, whose search grows with the hits asked, returns
   * `limit` and at most the few more its search found anyway. The semantic channel's part re-score
   * widens its candidates this way (`partWidening`).
   */
  widenTo?: number;
}

export interface ListQuery {
  scopes: readonly Scope[];
  layers?: readonly Layer[];
  statuses?: readonly MemoryStatus[];
  /** Keyset pagination by id (ids are time-sortable): return ids strictly greater. */
  afterId?: string;
  limit: number;
}

/** The start of an episode's content and the people it perceived (`StoreReader.recentEpisodeHeads`). */
export interface EpisodeHead {
  head: string;
  people: readonly string[];
}

/** How much of an episode's content `recentEpisodeHeads` returns: enough for a "Name: " speaker prefix. */
export const EPISODE_HEAD_CHARS = 100;

/** Orders of `browseMemories`: by transaction time, valid time, importance or last access. */
export const BROWSE_SORTS = ['recordedAt', 'validFrom', 'importance', 'accessedAt'] as const;
export type BrowseSort = (typeof BROWSE_SORTS)[number];

/** What a browse (and a purge by filter) selects, beside its scopes. Every given field narrows. */
export interface BrowseFilter {
  /** Only these layers (an empty list matches nothing). */
  layers?: readonly Layer[];
  /** Only these statuses (an empty list matches nothing); every status when absent. */
  statuses?: readonly MemoryStatus[];
  /** Records carrying this tag (ASCII letters compare case-insensitively). */
  tag?: string;
  /** Records naming this entity (ASCII letters compare case-insensitively). */
  entity?: string;
  /**
   * Records whose content, summary or kept text (past wordings, episode fields, claim) contains this text
   * (a plain substring; ASCII letters case-insensitive).
   */
  text?: string;
  /** Valid time overlaps [validFrom, validTo): `record.validTo` is null or after `validFrom`. */
  validFrom?: number;
  /** Valid time overlaps [validFrom, validTo): `record.validFrom` is before `validTo`. */
  validTo?: number;
  /** `recordedAt >= recordedFrom`. */
  recordedFrom?: number;
  /** `recordedAt < recordedTo`. */
  recordedTo?: number;
}

/** One page of a browse: keyset pagination on (sort key, id); see `browseSortKey` for the keys. */
export interface BrowseQuery extends BrowseFilter {
  scopes: readonly Scope[];
  sort: BrowseSort;
  order: 'asc' | 'desc';
  /** Only records strictly after this (sort key, id) position in the order. */
  after?: { key: number; id: string };
  /**
   * Only records visible at an instant (`isVisible(record, visibleAt, visibleAt.now)`): what was true
   * at `asOf` as it was believed at `knownAt`. Narrows `statuses` further when both are given.
   */
  visibleAt?: TimeFilter & { now: number };
  limit: number;
}

/** Records recorded on one UTC day (`day`: whole days since 1970-01-01) in one layer, any status. */
export interface DailyCount {
  day: number;
  layer: Layer;
  count: number;
}

/** Idle times before decay by importance tier (below 0.5, 0.5 to 0.7, above; unscored counts as 1). */
export interface DecayTiers {
  low: number;
  medium: number;
  high: number;
}

/** Options of `listState` beyond the prefix: the order of keys and where to start. */
export interface StateListOptions {
  /** Key order, code points (default `asc`). */
  order?: 'asc' | 'desc';
  /** Only keys strictly after this one in `order`. */
  after?: string;
}

/** Counts of one scope that holds records. */
export interface ScopeSummary {
  scope: Scope;
  total: number;
  byLayer: Record<string, number>;
  byStatus: Record<string, number>;
}

/** Which scopes `listScopes` looks at: those of some tenants, or every scope of the store (its owner). */
export type ScopeSelection = { tenants: readonly string[] } | 'all';

/** What `deleteMemories` removed besides the records (history is counted by the caller, which holds the records). */
export interface DeletedCounts {
  records: number;
  edges: number;
  refs: number;
  /** Lexical and vector index entries of the records. */
  indexEntries: number;
}

/** One audit entry: who did what, when, to how many records. Never any content. */
export interface AuditEntry {
  id: string;
  at: number;
  actor: string;
  action: 'purge' | 'expire';
  scope: Scope;
  count: number;
  /** Counts and the names of the selectors used (never their values, which may quote content). */
  details: Record<string, unknown>;
}

export interface StoreStats {
  total: number;
  /** Records per layer, concepts not included (they are in `concepts`). */
  byLayer: Record<string, number>;
  /** Concept records (semantic, `data.concept === true`), any status; `total` includes them. */
  concepts: number;
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
  /**
   * The belief intervals of records `ids` in `scopes` (what the store believed of each record's validity
   * before each change of it), oldest first; a record whose validity never changed is absent. Pass them
   * to `isVisible` for a `knownAt` read of records held in memory.
   */
  getBeliefs(ids: readonly string[], scopes: readonly Scope[]): Promise<Map<string, BeliefInterval[]>>;
  /** The record ingested from this source key in this scope, if any (idempotent re-ingest). */
  findBySourceKey(scope: Scope, sourceKeys: readonly string[]): Promise<Map<string, string>>;
  /** BM25 over content (and tags), best first, visible under the query's time filter. */
  lexicalSearch(query: LexicalQuery): Promise<ChannelHit[]>;
  /** k-NN by cosine similarity, best first, visible under the query's time filter. Exact unless `annIndex`. */
  vectorSearch(query: VectorQuery): Promise<ChannelHit[]>;
  /**
   * One page of records of `scopes` under the filter, ordered by the sort key then id (code-point
   * order), ascending or descending, strictly after `after`: at most `limit`. Any status unless
   * `statuses` is given. The sort keys are those of `browseSortKey` (importance null ranks as 1,
   * never accessed as `NEVER_ACCESSED`), so a caller can resume from the last record it got.
   */
  browseMemories(query: BrowseQuery): Promise<MemoryRecord[]>;
  /**
   * The newest `limit` active episodes of `scopes` by recording time, newest first, each as the first
   * `EPISODE_HEAD_CHARS` characters of its content and the people its `perception` names (none when it
   * names none or its data cannot be read): what recall samples to learn who speaks in a scope.
   */
  recentEpisodeHeads(query: { scopes: readonly Scope[]; limit: number }): Promise<EpisodeHead[]>;
  /**
   * The scopes that hold at least one record (any status), in code-point order: every scope of the
   * store for `'all'`, else those whose tenant (first segment) is one of `tenants`. The one read that
   * names no scopes: it discovers them, and says nothing else about them.
   */
  listScopes(selection: ScopeSelection): Promise<Scope[]>;
  /** Counts by layer and status of each of `scopes` that holds records, in code-point order of scope. */
  summarizeScopes(scopes: readonly Scope[]): Promise<ScopeSummary[]>;
  /**
   * Records of `scope` derived from any of `ids`: chunks whose `data.parentId` is one of them, and
   * records whose `provenance.derivedFrom` names one of them. Damaged records are left out.
   */
  findDerived(query: { scope: Scope; ids: readonly string[] }): Promise<MemoryRecord[]>;
  /** Records in id order (keyset pagination), any status unless `statuses` is given. */
  listMemories(query: ListQuery): Promise<MemoryRecord[]>;
  /** Active claims in one scope and layer with the given subject (for supersession and dedup). */
  findClaims(query: { scope: Scope; layers: readonly Layer[]; subjects: readonly string[]; limit: number }): Promise<MemoryRecord[]>;
  /**
   * The stored part vectors (`setPartVectors`) of those of `ids` that live in `scopes` and have any; a
   * record with none, unknown or out of scope is absent. Vectors may come back quantised (int8 with a
   * scale, cosines within ~0.01 of those written).
   */
  getPartVectors(scopes: readonly Scope[], ids: readonly string[]): Promise<Map<string, Float32Array[]>>;
  /**
   * For those of `ids` in `scopes` that have part vectors: the highest cosine of `vector` with any of
   * them (what recall re-ranks by; computed where the parts are, without decoding them into floats).
   */
  partScores(query: { scopes: readonly Scope[]; ids: readonly string[]; vector: Float32Array }): Promise<Map<string, number>>;
  /** Edges touching any of the ids, within scopes. */
  getEdges(query: { scopes: readonly Scope[]; ids: readonly string[]; types?: readonly string[] }): Promise<Edge[]>;
  stats(scopes: readonly Scope[]): Promise<StoreStats>;
  /**
   * For each id, up to `window` records immediately before and after it in its thread (`threadKeyOf`:
   * same scope and thread key, ordered by occurredAt then id), visible under the query's time filter.
   * An episode without a thread key has for neighbours the adjacent episodes of its scope that have no
   * thread key either and happened within `gapMs` of it (when `gapMs` > 0). Other ids without a
   * thread, or outside `scopes`, are absent from the map.
   */
  getNeighbours(query: NeighbourQuery): Promise<Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }>>;
  /**
   * Whether a vector search this store started is running off the caller's thread right now (the SQLite
   * store's search thread searching a large scope): a recall waiting for its semantic hits then has the
   * thread free, and reads ahead what its later stages need (`recall.ts`). Optional; absent means no.
   */
  vectorSearchesAway?(): boolean;
  /**
   * While a `vectorSearch` of `query` runs off the caller's thread (`vectorSearchesAway`): a cheap first
   * guess at its hits, answered on the caller's thread (the SQLite store searches the same HNSW file
   * with a small search expansion), for reading ahead what the hits will need while the search runs.
   * Hits may be missing or extra; the search's own answer is what counts. Empty when the store has no
   * guess. Optional; absent means no guesses.
   */
  vectorPreview?(query: VectorQuery): Promise<ChannelHit[]>;
  /**
   * The times the text of a record this store returned names apart from when it was written, as the
   * store keeps them (`mentionWindows` in `core/recall/mentioned-time.ts`, stored by `setMentions`);
   * undefined when it holds none for it yet (the caller reads the text). Optional.
   */
  mentionsOf?(record: MemoryRecord): readonly TimeSpan[] | undefined;
  /**
   * The embeddings of the `limit` most recently written memories of `scope` (any status), newest first:
   * a cheap reference sample for novelty (surprise) on write.
   */
  recentEmbeddings(scope: Scope, limit: number): Promise<Float32Array[]>;
  /**
   * `recentEmbeddings` of several scopes in one read, by scope (every scope asked for is a key): a write
   * batch spanning many scopes reads them at once instead of one round trip each.
   */
  recentEmbeddingsByScope(scopes: readonly Scope[], limit: number): Promise<Map<Scope, Float32Array[]>>;
  /** Records whose occurredAt (else validFrom) falls in [start, end), visible under the time filter, most recent first. */
  temporalSearch(query: TemporalQuery): Promise<ChannelHit[]>;

  // --- layers: relation registry, concept refs, state documents ---

  /**
   * The relation types `scopes` may use: every built-in plus the types registered by the tenants of
   * `scopes` (first segments), never another tenant's. Ordered by name in code-point order (SQL
   * `COLLATE "C"`), then tenant. Throws `INVALID_INPUT` for an empty or invalid scope list.
   */
  getRelationTypes(scopes: readonly Scope[]): Promise<RelationType[]>;
  /**
   * Concept refs of `conceptIds` within `scopes` (optionally only `layers`), in insertion order, oldest
   * first (one global order: within each (concept, layer) it is the FIFO order of the capped set).
   */
  getConceptRefs(query: ConceptRefQuery): Promise<ConceptRef[]>;
  /** The reverse lookup: refs (hence concepts) pointing at any of `refIds`, within `scopes`, in insertion order. */
  findConceptsByRef(query: { scopes: readonly Scope[]; refIds: readonly string[] }): Promise<ConceptRef[]>;
  /**
   * Records of `layers` (default `['semantic']`) within `scopes` whose `data.name` equals one of `names`
   * after ASCII lower-casing and trimming on both sides (non-ASCII letters compare exactly). Only
   * `statuses` (default `['active']`). Ordered by recordedAt then id, oldest first; at most `limit` (default 1000).
   */
  findConcepts(query: {
    scopes: readonly Scope[];
    names: readonly string[];
    layers?: readonly Layer[];
    statuses?: readonly MemoryStatus[];
    limit?: number;
  }): Promise<MemoryRecord[]>;
  /** A state document (cursor, report, checkpoint) of one scope, or null. */
  getState(scope: Scope, key: string): Promise<StateEntry | null>;
  /**
   * State documents of `scope` whose key starts with `keyPrefix` (literally, no wildcards), ordered by
   * key in code-point order (SQL `COLLATE "C"`), ascending unless `options.order` is `desc`, strictly
   * after `options.after` in that order, at most `limit`.
   */
  listState(scope: Scope, keyPrefix: string, limit: number, options?: StateListOptions): Promise<StateEntry[]>;

  // --- exploring what is stored (overview, graph) ---

  /**
   * How many records of `scopes` were recorded on each UTC day, per layer (any status), for the `days`
   * most recent days that have any (an aggregate: no record is read), oldest day first.
   */
  countRecordedPerDay(query: { scopes: readonly Scope[]; days: number }): Promise<DailyCount[]>;
  /**
   * Active, unpinned episodic and semantic records of `scopes` (concepts and chunked-document parents
   * left out) in the order decay reaches them: last activity (last access, else recordedAt) plus the
   * idle time of their importance tier (`idleMs`), soonest first, then id; at most `limit`. Emotion and
   * exemptions are not weighed here (the caller applies the exact policy to what it gets).
   */
  nextToDecay(query: { scopes: readonly Scope[]; idleMs: DecayTiers; limit: number }): Promise<MemoryRecord[]>;
  /** Active concepts (semantic, `data.concept === true`) of `scopes`, by salience (highest first) then id; at most `limit`. */
  listConcepts(query: { scopes: readonly Scope[]; limit: number }): Promise<MemoryRecord[]>;
  // --- full ordered reads (dump and migration): every status, every field, one scope at a time ---

  /**
   * Edges of `scope`, open and closed, in id order (code points), ids strictly after `afterId`; at most
   * `limit`. Throws `INVALID_INPUT` for an invalid scope.
   */
  listEdges(query: { scope: Scope; afterId?: string; limit: number }): Promise<Edge[]>;
  /**
   * Concept refs of `scopes` in insertion order (oldest first: the one global order `getConceptRefs`
   * follows), strictly after `after` (the `next` of the previous page; from the start when absent); at
   * most `limit`. `next` is null on the last page. Cursors are opaque and only valid for this store.
   */
  listConceptRefs(query: { scopes: readonly Scope[]; after?: string; limit: number }): Promise<{ refs: ConceptRef[]; next: string | null }>;
  /** The stored embeddings of `ids` in `scope` (any status); ids unknown there are absent. */
  getEmbeddings(scope: Scope, ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Audit entries of `scope` in id order (code points), ids strictly after `afterId`; at most `limit`. */
  listAudit(query: { scope: Scope; afterId?: string; limit: number }): Promise<AuditEntry[]>;
  /**
   * A number that every write (of any process) changes, in its own transaction, when it inserts,
   * deletes or changes a superseded semantic record of `scope` tagged `captured`, or makes such a
   * record superseded or no longer so; 0 for a scope never so written. Only equality means anything:
   * what a reader derived from those records (the index of corrected claims) holds while it is unchanged.
   */
  supersededGeneration(scope: Scope): Promise<number>;
}

/** An API key as stored: only the SHA-256 hash (hex) of the key itself. Times are epoch ms. */
export interface StoredApiKey {
  id: string;
  hash: string;
  tenant: string;
  label: string | null;
  createdAt: number;
  revokedAt: number | null;
}

/** The cap of a concept's refs per layer (seed 000, MAX_REFS_PER_LAYER). */
export const CONCEPT_REFS_CAP = 200;

/** One member of a concept's per-layer ref set: concept `conceptId` refers to record `refId` of `layer`. */
export interface ConceptRef {
  scope: Scope;
  conceptId: string;
  layer: Layer;
  refId: string;
}

export interface ConceptRefQuery {
  scopes: readonly Scope[];
  conceptIds: readonly string[];
  layers?: readonly Layer[];
  /**
   * Only refs to records current at this instant (as `isVisible` with no time filter: not forgotten,
   * expired or decayed, nor ended in valid time), told from the records' rows without reading them whole.
   */
  visibleAt?: number;
}

/** A per-scope JSON document keyed by name. `value` is any JSON value (not undefined). */
export interface StateEntry {
  scope: Scope;
  key: string;
  value: unknown;
  updatedAt: number;
}

/** A background job to enqueue (e.g. concept extraction of a new episode). */
export interface NewJob {
  scope: Scope;
  /** What to do, e.g. `extract-concepts`; workers claim by kind. */
  kind: string;
  /** JSON payload for the worker. */
  payload: unknown;
  /**
   * While a job of the same scope, kind and dedupeKey is pending or running, enqueueing another is a
   * no-op. Completed and failed jobs do not block.
   */
  dedupeKey?: string;
}

/** A claimed job. `attempts` counts claims including this one. */
export interface Job {
  id: string;
  scope: Scope;
  kind: string;
  payload: unknown;
  dedupeKey: string | null;
  attempts: number;
  enqueuedAt: number;
  /** Epoch ms until which this claim is held; after it another worker may claim the job again. */
  leaseUntil: number;
  lastError: string | null;
}

export interface ClaimJobsQuery {
  kinds: readonly string[];
  /** Jobs of these scopes only, or `'all'` for a maintenance worker serving every scope of the store. */
  scopes: readonly Scope[] | 'all';
  limit: number;
  /** Who claims (unique per worker, e.g. `host:pid:random`). */
  owner: string;
  leaseMs: number;
  /** Wall-clock epoch ms (leases are shared by processes). */
  now: number;
}

/** Pending, running (claimed, lease not yet completed) and failed (gave up) job counts. */
export interface JobCounts {
  pending: number;
  running: number;
  failed: number;
}

export interface JobBacklog extends JobCounts {
  byKind: Record<string, JobCounts>;
}

export interface NeighbourQuery extends TimeFilter {
  scopes: readonly Scope[];
  ids: readonly string[];
  window: number;
  now: number;
  /** Largest event-time distance between neighbouring episodes that have no thread key; 0 or absent: none. */
  gapMs?: number;
  /**
   * Records the caller already read in this request, by id: a store may hand back these objects for
   * neighbours it finds among them instead of reading and decoding their rows again. Which neighbours
   * there are is decided by the store as always (thread order and the time filter).
   */
  known?: ReadonlyMap<string, MemoryRecord>;
}

export interface TemporalQuery extends ScopedQuery {
  start: number;
  end: number;
}

/** A stretch of time, [start, end) in epoch ms. */
export interface TimeSpan {
  readonly start: number;
  readonly end: number;
}

/** A record whose mentioned times are to be stored: its text and when it was written (`writtenAt`). */
export interface MentionsCandidate {
  readonly id: string;
  readonly scope: Scope;
  readonly content: string;
  readonly written: number;
  /** The writer's wall clock (`data.wallClock`), when the write gave one. */
  readonly wallClock?: WallClock;
}

/**
 * A record whose part vectors are still to be made: every record written, and every record whose
 * content changed, is pending until `setPartVectors` answers for it (with vectors or with none).
 */
export interface PartsCandidate {
  readonly id: string;
  readonly scope: Scope;
  readonly layer: Layer;
  readonly content: string;
  /** The record's data document; `{}` when the stored one does not decode. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** The part vectors of one record, made from `content` (stored only while the record still has it). */
export interface PartVectors {
  readonly id: string;
  readonly scope: Scope;
  readonly content: string;
  /** Empty: the record has no parts (one sentence, a chunk, a concept…); it is no longer pending. */
  readonly parts: readonly Float32Array[];
}

/** Writes; only available inside `Store.transaction`, so each call site is atomic. */
export interface StoreTransaction extends StoreReader {
  insertMemories(memories: readonly NewMemory[]): Promise<void>;
  /**
   * Applies a patch if the record exists in `scope`; returns whether it did. A patch that changes the
   * record's validity (`validFrom`, `validTo`, `invalidatedAt`) keeps, in the same write, the belief it
   * ends (`endedBeliefs`, ending at `patch.updatedAt`), so `knownAt` reads of before it still answer it.
   */
  updateMemory(id: string, scope: Scope, patch: MemoryPatch): Promise<boolean>;
  /** Replaces a record's embedding (after a content edit). */
  updateEmbedding(id: string, scope: Scope, embedding: Float32Array): Promise<void>;
  /**
   * Stores part vectors and takes their records off the pending list. A record gone, or whose content
   * is no longer the entry's `content` (edited since it was read), is skipped and stays pending.
   * Vectors must have the store's dimension (else `EMBEDDING_DIMENSION_MISMATCH`). Returns how many
   * records were answered.
   */
  setPartVectors(entries: readonly PartVectors[]): Promise<number>;
  insertEdges(edges: readonly Edge[]): Promise<void>;
  /** Closes edges in transaction time (sets `invalidatedAt`), within `scope`; returns how many changed. */
  invalidateEdges(ids: readonly string[], scope: Scope, at: number): Promise<number>;
  /** Changes an edge's weight and/or replaces its metadata, within `scope`; returns whether the edge exists there. */
  updateEdge(id: string, scope: Scope, patch: { weight?: number; metadata?: Record<string, unknown> }): Promise<boolean>;

  // --- layers ---

  /**
   * Adds a relation type to the registry of `type.tenant` (required: a valid tenant, else
   * `INVALID_INPUT`). Idempotent: if `name` is a built-in, or already registered by that tenant, with
   * the same `symmetric`, the stored type is returned unchanged (builtIn, proposedBy and registeredAt of
   * the first registration stay); with a different `symmetric` it throws `CONFLICT`. Another tenant's
   * registration of the same name neither conflicts nor is returned. The name must already be
   * normalised (`normalizeRelationName`).
   */
  registerRelationType(type: RelationType): Promise<RelationType>;
  /**
   * Replaces the description and/or proposer of a type `tenant` registered (never a built-in: a valid
   * tenant is required, else `INVALID_INPUT`); its name, direction and registration time stay. Returns
   * whether the tenant has the type. `redact` cleans the registry with it.
   */
  updateRelationType(tenant: string, name: string, patch: { description?: string | null; proposedBy?: string | null }): Promise<boolean>;
  /**
   * Appends `refIds` (in order) to the ref set of (`conceptId`, `layer`) in `scope`. A ref already in
   * the set keeps its place (no duplicate, no move). Then, while the set holds more than `cap` (default
   * CONCEPT_REFS_CAP = 200), the oldest refs are evicted. Both the concept and every ref must be
   * existing records of `scope` (else `INVALID_INPUT`, nothing written). Returns the refs newly added that
   * are still in the set, and every ref evicted by this call (oldest first; may include refs of this call when it adds more than `cap`).
   */
  addConceptRefs(input: {
    scope: Scope;
    conceptId: string;
    layer: Layer;
    refIds: readonly string[];
    cap?: number;
  }): Promise<{ added: string[]; evicted: string[] }>;
  /**
   * Re-points every ref to `fromRefId` in `scope` at `toRefId` (compression keeps the id chain): the
   * ref keeps its place in each set; where a set already holds `toRefId` the `fromRefId` entry is just
   * removed. `toRefId` must exist in `scope`. Returns how many refs now point at `toRefId` instead.
   */
  moveConceptRefs(fromRefId: string, toRefId: string, scope: Scope): Promise<number>;
  /** Removes every ref to any of `refIds` in `scope` from every concept; returns how many were removed. */
  removeConceptRefs(refIds: readonly string[], scope: Scope): Promise<number>;
  /**
   * Hard-deletes the records `ids` of `scope` (purge, the only hard delete), with every
   * edge and concept ref touching them and their lexical and vector index entries; other scopes are
   * never touched, unknown ids are ignored. Freed space is overwritten where the backend can
   * (`scrubDeleted` finishes the job after commit).
   */
  deleteMemories(ids: readonly string[], scope: Scope): Promise<DeletedCounts>;
  /**
   * Expiry for good, keeping a tombstone (purge's hard delete of a record's content): for each record of
   * `scope` named in `tombstones`, removes every edge and concept ref touching it, its lexical and vector
   * index entries and its source key, then applies its `patch` (which blanks the content; see
   * `core/purge/expire.ts`). The row itself stays, so `getMemories` and browsing still answer the id.
   * Other scopes are never touched; unknown ids are ignored. `records` counts the tombstones made.
   */
  tombstoneMemories(tombstones: readonly { id: string; patch: MemoryPatch }[], scope: Scope): Promise<DeletedCounts>;
  /** Appends one audit entry (committed with the transaction). */
  appendAudit(entry: AuditEntry): Promise<void>;

  // --- raw restores (dump import and migration): ids and every field kept, idempotent ---

  /**
   * Inserts records exactly as given (ids, both time axes, status, counters, every field) with their
   * embeddings, in order. A record whose id is already stored (in any scope) is left as it is. Returns
   * the ids inserted. Embeddings must have the store's dimension (else `EMBEDDING_DIMENSION_MISMATCH`).
   */
  restoreMemories(memories: readonly NewMemory[]): Promise<string[]>;
  /**
   * Inserts edges exactly as given. An edge whose id is already stored is left as it is. Both ends must
   * be records of the edge's scope (else `INVALID_INPUT`, nothing written). Returns the ids inserted.
   */
  restoreEdges(edges: readonly Edge[]): Promise<string[]>;
  /**
   * Inserts belief intervals exactly as given, each only where its record is stored in its scope (so
   * restore the records first); an interval already stored (same record and `knownTo`) is left as it is.
   * Returns how many were inserted.
   */
  restoreBeliefs(beliefs: readonly StoredBelief[]): Promise<number>;
  /** Inserts audit entries exactly as given; an id already stored is left as it is. Returns the ids inserted. */
  restoreAudit(entries: readonly AuditEntry[]): Promise<string[]>;
  /** Creates or replaces a state document; `value` must be JSON-serialisable. */
  setState(scope: Scope, key: string, value: unknown, at: number): Promise<void>;
  /** Deletes a state document; returns whether it existed. */
  deleteState(scope: Scope, key: string): Promise<boolean>;
  /**
   * Queues background jobs, committed with the transaction (so an episode and its extraction job are
   * written together). Jobs are claimed oldest first. Returns how many were queued (dedupe no-ops excluded).
   */
  enqueueJobs(jobs: readonly NewJob[], at: number): Promise<number>;
}

export interface Store extends StoreReader {
  readonly capabilities: StoreCapabilities;
  /** Moving the store to another embedding model in place (`reembed`): staged vectors and the switch. */
  readonly vectorStaging: VectorStaging;
  /**
   * Runs `fn` atomically: every write inside commits together or not at all, and no other writer
   * (in this process or another) interleaves. Rejections roll back and propagate.
   */
  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /** Records reads: bumps accessCount and lastAccessedAt. Best effort, may be batched. */
  recordAccess(ids: readonly string[], at: number): Promise<void>;
  /** Reads a metadata value (e.g. the embedding model name). */
  getMeta(key: string): Promise<string | null>;
  /**
   * Takes the lease `name` for `owner` for `ttlMs`: true if it was free, expired, or
   * already held by `owner` (then renewed); false while another owner's lease runs. Uses the wall clock,
   * since leases are shared with other processes; a holder that dies simply lets its lease expire.
   * Never call it (or any job method below) inside `transaction`'s callback.
   */
  acquireJobLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Releases the lease if `owner` holds it; returns whether it did. */
  releaseJobLock(name: string, owner: string): Promise<boolean>;
  /**
   * Atomically claims up to `limit` jobs of `kinds` that are pending (and due) or whose lease expired
   * (`leaseUntil <= now`), oldest first: each gets `owner`, `leaseUntil = now + leaseMs` and one more
   * attempt. Two concurrent claimers (in any processes) never get the same job while its lease runs.
   */
  claimJobs(query: ClaimJobsQuery): Promise<Job[]>;
  /** Removes jobs `owner` still holds (a job re-claimed by another owner is not touched); returns how many. */
  completeJobs(ids: readonly string[], owner: string): Promise<number>;
  /**
   * Records a failure of a job `owner` holds: with attempts < `maxAttempts` (default 3) it becomes
   * pending again, due at `now + retryAfterMs` (default 0) → `'retry'`; otherwise it is kept as
   * failed (counted in the backlog, never claimed again) → `'failed'`. `'lost'` when `owner` no longer holds it.
   */
  failJob(
    id: string,
    owner: string,
    error: string,
    options: { now: number; maxAttempts?: number; retryAfterMs?: number },
  ): Promise<'retry' | 'failed' | 'lost'>;
  /** Job counts of `scopes` by state and kind (for `stats`). */
  jobBacklog(scopes: readonly Scope[]): Promise<JobBacklog>;
  /**
   * Up to `limit` records whose part vectors are still to be made (`PartsCandidate`), in write order,
   * of `scopes` (every scope for `'all'`: a maintenance read, like the job queue's).
   */
  pendingParts(query: { scopes: readonly Scope[] | 'all'; limit: number }): Promise<PartsCandidate[]>;
  /**
   * Up to `limit` records of `scopes` (every scope for `'all'`: a maintenance read) whose mentioned times
   * are not stored yet (written or edited since). Optional, with `setMentions`: a store that keeps none
   * leaves both out.
   */
  pendingMentions?(query: { scopes: readonly Scope[] | 'all'; limit: number }): Promise<MentionsCandidate[]>;
  /**
   * Stores the mentioned times of each entry whose record still has that content and write time (one
   * transaction); returns how many were stored. The rest were edited meanwhile and stay pending.
   */
  setMentions?(entries: readonly (MentionsCandidate & { mentions: readonly TimeSpan[] })[]): Promise<number>;
  /** How many records of `scopes` still wait for their mentioned times (with {@link Store.pendingMentions}). */
  countPendingMentions?(scopes: readonly Scope[]): Promise<number>;
  /** How many records of `scopes` still wait for their part vectors. */
  countPendingParts(scopes: readonly Scope[]): Promise<number>;
  setMeta(key: string, value: string): Promise<void>;
  /**
   * After a committed `deleteMemories`: makes what the deleted rows left behind unreadable from the
   * storage files where the backend can (compacts the lexical index, truncates the write-ahead log,
   * drops derived vector-index files of `scopes`, which are rebuilt from the stored vectors). Never
   * call it inside `transaction`'s callback.
   */
  scrubDeleted(scopes: readonly Scope[]): Promise<void>;

  // --- API keys: one row each, so concurrent writers (any processes) never lose one ---

  /**
   * Inserts one key row atomically. `CONFLICT` if its id or hash is already stored (nothing written).
   * Rows are never deleted, so a store that has had a key can tell (`countApiKeys().total > 0`).
   */
  insertApiKey(key: StoredApiKey): Promise<void>;
  /** Every stored key, revoked ones too, oldest first (createdAt, then id). */
  listApiKeys(): Promise<StoredApiKey[]>;
  /** The key with this SHA-256 hash (hex), revoked or not, or null. */
  findApiKey(hash: string): Promise<StoredApiKey | null>;
  /**
   * Sets `revokedAt = at` on the key `id` if it is not revoked yet (a single conditional update, so
   * concurrent revokes keep the first instant). Returns the stored row afterwards, or null for an unknown id.
   */
  revokeApiKey(id: string, at: number): Promise<StoredApiKey | null>;
  /** How many keys were ever created (`total`, revoked included) and how many are unrevoked (`active`). */
  countApiKeys(): Promise<{ total: number; active: number }>;
  /** Flushes pending work and releases handles. Idempotent. */
  close(): Promise<void>;
}
