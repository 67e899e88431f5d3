/**
 * The read half of the store port over one connection: the store's read connection (committed data,
 * one snapshot per call) or, inside a transaction, the writer (which sees the transaction's own writes).
 */
import { getBeliefs } from './sqlite-beliefs.js';
import type { BeliefInterval } from '../../core/memory.js';
import { LAYERS, STATUSES, type Edge, type Layer, type MemoryRecord } from '../../core/memory.js';
import type { RelationType } from '../../core/relations.js';
import type {
  TimeSpan,
  BrowseQuery,
  ChannelHit,
  ScopeSelection,
  ScopeSummary,
  ConceptRef,
  ConceptRefQuery,
  StateEntry,
  StateListOptions,
  DailyCount,
  DecayTiers,
  LexicalQuery,
  ListQuery,
  NeighbourQuery,
  TemporalQuery,
  StoreReader,
  StoreStats,
  VectorQuery,
  AuditEntry,
  EpisodeHead,
} from '../../core/ports/store.js';
import { assertReadScopes, assertScope, type Scope } from '../../core/scope.js';
import type { AnnIndex, AnnSearchAhead } from './ann/ann-index.js';
import type { LexicalIndex, LexicalView } from './lexical/lexical-index.js';
import type { PendingLexicalRows } from './lexical/lexical-pending.js';
import { LexicalStatistics, searchLexical } from './lexical/sqlite-lexical.js';
import { readConcepts } from './sqlite-concepts.js';
import { listState, readState } from './sqlite-state.js';
import { readNeighbours, readTemporal } from './sqlite-context-queries.js';
import { browseMemories, findDerived, listScopes, summarizeScopes } from './sqlite-browse.js';
import { countRecordedPerDay, listConcepts, nextToDecay } from './sqlite-explore.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { assertDimension } from '../../core/vectors.js';
import { toEngramError } from './sqlite-errors.js';
import { storedMentionsOf } from '../stored-mentions.js';
import { arrayToMemory, inList, memoryColumns, rowToMemory, type MemoryRow } from './sqlite-rows.js';
import { previewVectors, searchVectors, searchVectorsAhead, type VectorSearchContext } from './ann/sqlite-vector-search.js';
import * as dump from './sqlite-dump.js';
import { readPartBlobs } from './sqlite-parts.js';
import { bestPartCosines, decodePartBlobs } from '../part-vectors.js';
import { assertEmbedderCurrent } from './ann/sqlite-vector-staging.js';
import { readVectors } from './ann/stored-vectors.js';
import type { VectorIndex } from './ann/vector-index.js';
import type { ReadCache } from './read-cache.js';
import { readSupersededGeneration } from './sqlite-superseded.js';
import { episodeHeadsOf, readConceptRefs, readConceptsByRef, readEdges, relationTypesOf } from './sqlite-cached-reads.js';

/** What a reader needs; `assertUsable` throws once the store is closed or the transaction is over. */
export interface ReaderContext {
  readonly connection: SqliteConnection;
  readonly index: VectorIndex;
  /** Approximate per-scope vector indexes, when the store has them. */
  readonly ann: AnnIndex | undefined;
  readonly dimension: number;
  /** The embedding model this store was opened with; vector reads refuse to run once a reembed switched it. */
  readonly embedderName: string;
  readonly memoryIndexThreshold: number;
  readonly memoryIndexWarmup: number;
  readonly assertUsable: () => void;
  /** The in-memory lexical index of the store's read connection (committed rows only). */
  readonly lexicalIndex?: LexicalIndex;
  /** Decoded records of a read connection that never writes (see `read-cache.ts`). */
  readonly readCache?: ReadCache;
  /** Inside a write transaction: the rows it wrote, which the lexical index answers beside its own. */
  readonly pendingLexical?: PendingLexicalRows;
}

/** Scope-local BM25 statistics, cached per connection (the writer sees its own uncommitted rows). */
const lexicalStatistics = new WeakMap<SqliteConnection, LexicalStatistics>();
function statisticsFor(connection: SqliteConnection): LexicalStatistics {
  let statistics = lexicalStatistics.get(connection);
  if (statistics === undefined) {
    statistics = new LexicalStatistics();
    lexicalStatistics.set(connection, statistics);
  }
  return statistics;
}

const MEMORY_COLUMNS = memoryColumns('m');

/** How many of the newest rows (times the rows wanted) `recentRowids` walks before it asks an index. */
const RECENT_WINDOW = 8;

/**
 * The rowids of the `n` newest records of `scope`, newest first. A small scope is read by its index
 * and sorted (it is counted first, along the same index, up to the window's size: a few microseconds).
 * A large scope being written holds the newest rows, so walking back from the end of the table finds
 * them at once; by its index (every row of the scope, sorted) only when the newest rows are mostly
 * other scopes'. A batch written to many small scopes walked the table's end for each scope first:
 * 0.09 ms a scope for nothing, a third of such a batch's time.
 */
function recentRowids(connection: SqliteConnection, scope: Scope, n: number): number[] {
  const window = n * RECENT_WINDOW;
  const byIndex = () =>
    connection
      .all<{ rowid: number }>('SELECT rowid FROM memories WHERE scope = ? ORDER BY rowid DESC LIMIT ?', scope, n)
      .map((r) => r.rowid);
  const rows =
    connection.get<{ rows: number }>(
      'SELECT count(*) AS rows FROM (SELECT 1 FROM memories INDEXED BY memories_scope_id WHERE scope = ? LIMIT ?)',
      scope,
      window,
    )?.rows ?? 0;
  if (rows < window) return byIndex();
  const last = connection.get<{ rowid: number | null }>('SELECT max(rowid) AS rowid FROM memories')?.rowid ?? 0;
  const newest = connection.all<{ rowid: number }>(
    'SELECT rowid FROM memories NOT INDEXED WHERE rowid > ? AND scope = ? ORDER BY rowid DESC LIMIT ?',
    last - window,
    scope,
    n,
  );
  // all rows of the scope after the window's start are there, so when they are n they are the newest n
  return newest.length === n ? newest.map((r) => r.rowid) : byIndex();
}

/**
 * The vector search's filters from the lexical index, from one view of it made on first use: the scan's
 * per-row test and the post-filter see the same rows.
 */
function lexicalFilters(
  lexical: LexicalIndex,
  connection: SqliteConnection,
  query: VectorQuery & { scopes: readonly Scope[] },
  pending: PendingLexicalRows | undefined,
): Pick<VectorSearchContext, 'visible' | 'accepts'> {
  let view: LexicalView | null | undefined;
  const viewed = (): LexicalView | null => (view === undefined ? (view = lexical.view(connection, query, pending)) : view);
  return { visible: (rowids) => viewed()?.ids(rowids) ?? null, accepts: () => viewed()?.visible ?? null };
}

export class SqliteReader implements StoreReader {
  readonly #context: ReaderContext;
  /** Settles when the last lexical search that waited for its turn has run (see `lexicalSearch`). */
  #lexicalTurn: Promise<void> = Promise.resolve();
  /** Vector searches started on the search thread whose reads have not taken them up yet. */
  #searchesAway = 0;

  constructor(context: ReaderContext) {
    this.#context = context;
  }

  /** Vectors the open transaction wrote (rowid → scope); none outside a transaction. */
  protected pendingVectors(): ReadonlyMap<number, string> | undefined {
    return undefined;
  }

  /** A vector the open transaction wrote, as it wrote it (`undefined`: read it from the table). */
  protected pendingVector(_rowid: number): Float32Array | undefined {
    return undefined;
  }

  async getMemories(ids: readonly string[], scopes: readonly Scope[]): Promise<MemoryRecord[]> {
    return this.read('get memories', (connection) => {
      const allowed = assertReadScopes(scopes);
      if (ids.length === 0) return [];
      const cache = this.#context.readCache;
      cache?.sync(connection);
      const wanted = new Set(ids);
      const byId = new Map<string, MemoryRecord>();
      const missing: string[] = [];
      for (const id of wanted) {
        const held = cache?.get(id);
        if (held === undefined) missing.push(id);
        else if (allowed.includes(held.scope)) byId.set(id, held);
      }
      if (missing.length > 0) {
        for (const row of connection.allArrays(
          `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE ${inList('m.id')} AND ${inList('m.scope')}`,
          JSON.stringify(missing),
          JSON.stringify(allowed),
        )) {
          const read = arrayToMemory(row);
          byId.set(read.id, cache === undefined ? read : cache.keep(read));
        }
      }
      const records: MemoryRecord[] = [];
      for (const id of wanted) {
        const record = byId.get(id);
        if (record !== undefined) records.push(record);
      }
      return records;
    });
  }

  async findBySourceKey(scope: Scope, sourceKeys: readonly string[]): Promise<Map<string, string>> {
    return this.read('find by source key', (connection) => {
      assertScope(scope);
      if (sourceKeys.length === 0) return new Map<string, string>();
      const rows = connection.all<{ source_key: string; id: string }>(
        `SELECT source_key, id FROM memories WHERE scope = ? AND ${inList('source_key')}`,
        scope,
        JSON.stringify(sourceKeys),
      );
      return new Map(rows.map((r) => [r.source_key, r.id]));
    });
  }

  async lexicalSearch(query: LexicalQuery): Promise<ChannelHit[]> {
    if (this.#context.ann?.searchesAhead !== true || this.pendingVectors() !== undefined) return this.#lexicalSearch(query);
    // A recall asks for its lexical channels first and its vector search next. When large scopes are
    // searched on the search thread, each lexical search takes a turn of the event loop after the one
    // before it: the vector search starts there first, and a query vector that an embedding worker sends
    // meanwhile is handed on between two lexical searches rather than after both.
    const previous = this.#lexicalTurn;
    let done = (): void => undefined;
    this.#lexicalTurn = new Promise<void>((resolve) => (done = resolve));
    try {
      await previous;
      await new Promise(setImmediate);
      return await this.#lexicalSearch(query);
    } finally {
      done();
    }
  }

  #lexicalSearch(query: LexicalQuery): Promise<ChannelHit[]> {
    return this.read('lexical search', (connection) =>
      searchLexical(
        connection,
        statisticsFor(connection),
        query,
        this.#context.lexicalIndex === undefined
          ? undefined
          : {
              index: this.#context.lexicalIndex,
              ...(this.#context.pendingLexical === undefined ? {} : { pending: this.#context.pendingLexical }),
            },
      ),
    );
  }

  mentionsOf(record: MemoryRecord): readonly TimeSpan[] | undefined {
    return storedMentionsOf(record);
  }

  vectorSearchesAway(): boolean {
    // a search whose answer has arrived is no longer away, though its caller has not resumed yet
    return this.#searchesAway > 0 && this.#context.ann?.searchingAway === true;
  }

  async vectorSearch(query: VectorQuery): Promise<ChannelHit[]> {
    const searching = this.#searchAhead(query);
    let ahead: Awaited<typeof searching>;
    if (searching !== undefined) {
      this.#searchesAway += 1;
      try {
        ahead = await searching;
      } finally {
        this.#searchesAway -= 1;
      }
    }
    return this.read('vector search', (connection) => {
      const scopes = assertReadScopes(query.scopes);
      assertDimension(query.vector, this.#context.dimension, 'query vector');
      assertEmbedderCurrent(connection, this.#context.embedderName);
      if (query.layers?.length === 0) return [];
      const pending = this.pendingVectors();
      const context: VectorSearchContext = {
        ...this.#searchContext(connection, query, scopes),
        ...(pending === undefined ? {} : { pending, pendingVector: (rowid: number) => this.pendingVector(rowid) }),
        ...(ahead === undefined || pending !== undefined ? {} : { ahead }),
      };
      return searchVectors(context, query, scopes);
    });
  }

  /**
   * While a vector search of this store runs on its search thread: a cheap first guess at its hits,
   * made on this thread (`previewVectors`); empty when none runs away, in a write transaction, or when
   * no scope of the query has a preview.
   */
  async vectorPreview(query: VectorQuery): Promise<ChannelHit[]> {
    if (!this.vectorSearchesAway() || this.pendingVectors() !== undefined) return [];
    return this.read('vector preview', (connection) => {
      const scopes = assertReadScopes(query.scopes);
      assertDimension(query.vector, this.#context.dimension, 'query vector');
      if (query.layers?.length === 0) return [];
      return previewVectors(this.#searchContext(connection, query, scopes), query, scopes);
    });
  }

  /** What a vector search of `query` reads with, outside a write transaction's rows. */
  #searchContext(connection: SqliteConnection, query: VectorQuery, scopes: readonly string[]): VectorSearchContext {
    const { lexicalIndex: lexical, pendingLexical } = this.#context;
    return {
      connection,
      index: this.#context.index,
      ann: this.#context.ann,
      memoryIndexThreshold: this.#context.memoryIndexThreshold,
      memoryIndexWarmup: this.#context.memoryIndexWarmup,
      ...(lexical === undefined ? {} : lexicalFilters(lexical, connection, { ...query, scopes }, pendingLexical)),
    };
  }

  /**
   * A large scope's HNSW search started on the store's search thread before the read, so this thread
   * serves other reads (a recall's lexical channels) meanwhile; `undefined` when none applies (no such
   * scope, a write transaction, or a query the read will refuse, which it then explains).
   */
  #searchAhead(query: VectorQuery): Promise<ReadonlyMap<string, AnnSearchAhead> | undefined> | undefined {
    const ann = this.#context.ann;
    if (ann === undefined || this.pendingVectors() !== undefined) return undefined;
    try {
      this.#context.assertUsable();
      const scopes = assertReadScopes(query.scopes);
      assertDimension(query.vector, this.#context.dimension, 'query vector');
      if (query.layers?.length === 0) return undefined;
      return searchVectorsAhead(ann, query, scopes)?.catch(() => undefined);
    } catch {
      return undefined;
    }
  }

  async listMemories(query: ListQuery): Promise<MemoryRecord[]> {
    return this.read('list memories', (connection) => {
      const scopes = assertReadScopes(query.scopes);
      const limit = Math.floor(query.limit);
      if (!(limit > 0) || query.layers?.length === 0 || query.statuses?.length === 0) return [];
      const clauses = [inList('m.scope')];
      const params: unknown[] = [JSON.stringify(scopes)];
      if (query.layers !== undefined) {
        clauses.push(inList('m.layer'));
        params.push(JSON.stringify(query.layers));
      }
      if (query.statuses !== undefined) {
        clauses.push(inList('m.status'));
        params.push(JSON.stringify(query.statuses));
      }
      if (query.afterId !== undefined) {
        clauses.push('m.id > ?');
        params.push(query.afterId);
      }
      const rows = connection.all<MemoryRow>(
        `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE ${clauses.join(' AND ')} ORDER BY m.id LIMIT ?`,
        ...params,
        limit,
      );
      return rows.map(rowToMemory);
    });
  }

  async browseMemories(query: BrowseQuery): Promise<MemoryRecord[]> {
    return this.read('browse memories', (connection) => browseMemories(connection, query));
  }

  async recentEpisodeHeads(query: { scopes: readonly Scope[]; limit: number }): Promise<EpisodeHead[]> {
    return this.read('sample episodes', (connection) => episodeHeadsOf(connection, this.#context.readCache, query));
  }

  async listScopes(selection: ScopeSelection): Promise<Scope[]> {
    return this.read('list scopes', (connection) => listScopes(connection, selection));
  }

  async summarizeScopes(scopes: readonly Scope[]): Promise<ScopeSummary[]> {
    return this.read('count scopes', (connection) => summarizeScopes(connection, scopes));
  }

  async findDerived(query: { scope: Scope; ids: readonly string[] }): Promise<MemoryRecord[]> {
    return this.read('find derived records', (connection) => findDerived(connection, query.scope, query.ids));
  }

  async getNeighbours(query: NeighbourQuery): Promise<Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }>> {
    return this.read('read neighbours', (connection) => readNeighbours(connection, query, this.#context.readCache));
  }

  async recentEmbeddings(scope: Scope, limit: number): Promise<Float32Array[]> {
    return (await this.recentEmbeddingsByScope([scope], limit)).get(scope) ?? [];
  }

  async recentEmbeddingsByScope(scopes: readonly Scope[], limit: number): Promise<Map<Scope, Float32Array[]>> {
    return this.read('read recent embeddings', (connection) => {
      for (const scope of scopes) assertScope(scope);
      assertEmbedderCurrent(connection, this.#context.embedderName);
      const n = Math.max(0, Math.min(10_000, Math.floor(limit)));
      const rowids = new Map([...new Set(scopes)].map((scope) => [scope, n === 0 ? [] : recentRowids(connection, scope, n)]));
      // whole vector chunks, not one row at a time: a scope's recent rows share one or two chunks
      const vectors = readVectors(connection, [...rowids.values()].flat(), this.#context.dimension);
      return new Map(
        [...rowids].map(([scope, ids]) => [
          scope,
          ids.flatMap((rowid) => {
            const vector = vectors.get(rowid);
            return vector === undefined ? [] : [vector];
          }),
        ]),
      );
    });
  }

  async temporalSearch(query: TemporalQuery): Promise<ChannelHit[]> {
    return this.read('temporal search', (connection) => readTemporal(connection, query));
  }

  async findClaims(query: { scope: Scope; layers: readonly Layer[]; subjects: readonly string[]; limit: number }): Promise<MemoryRecord[]> {
    return this.read('find claims', (connection) => {
      assertScope(query.scope);
      const limit = Math.floor(query.limit);
      if (!(limit > 0) || query.layers.length === 0 || query.subjects.length === 0) return [];
      // the unary + keeps the planner on the claim index: ordering by the browse index walks the whole scope
      const rows = connection.all<MemoryRow>(
        `SELECT ${MEMORY_COLUMNS} FROM memories m
         WHERE m.scope = ? AND ${inList('m.layer')} AND ${inList('m.claim_subject')} AND m.status = 'active'
         ORDER BY +m.recorded_at DESC, +m.id DESC LIMIT ?`,
        query.scope,
        JSON.stringify(query.layers),
        JSON.stringify(query.subjects),
        limit,
      );
      return rows.map(rowToMemory);
    });
  }

  async getEdges(query: { scopes: readonly Scope[]; ids: readonly string[]; types?: readonly string[] }): Promise<Edge[]> {
    return this.read('get edges', (connection) => readEdges(connection, this.#context.readCache, query));
  }

  async stats(scopes: readonly Scope[]): Promise<StoreStats> {
    return this.read('count memories', (connection) => {
      const allowed = JSON.stringify(assertReadScopes(scopes));
      // a JSON true reads as 1; isConcept() counts only that, not "true" or 1 stored by a caller
      const counts = connection.all<{ layer: string; status: string; concept: number; n: number }>(
        `SELECT layer, status, (layer = 'semantic' AND json_type(data, '$.concept') = 'true') AS concept, count(*) AS n
         FROM memories WHERE ${inList('scope')} GROUP BY layer, status, concept`,
        allowed,
      );
      const byLayer: Record<string, number> = Object.fromEntries(LAYERS.map((l) => [l, 0]));
      const byStatus: Record<string, number> = Object.fromEntries(STATUSES.map((s) => [s, 0]));
      let total = 0;
      let concepts = 0;
      for (const { layer, status, concept, n } of counts) {
        if (concept === 1) concepts += n;
        else byLayer[layer] = (byLayer[layer] ?? 0) + n;
        byStatus[status] = (byStatus[status] ?? 0) + n;
        total += n;
      }
      const edges = connection.get<{ n: number }>(`SELECT count(*) AS n FROM edges WHERE ${inList('scope')}`, allowed)?.n ?? 0;
      return { total, byLayer, concepts, byStatus, edges };
    });
  }

  async getRelationTypes(scopes: readonly Scope[]): Promise<RelationType[]> {
    return this.read('read relation types', (connection) => relationTypesOf(connection, this.#context.readCache, scopes));
  }

  async getConceptRefs(query: ConceptRefQuery): Promise<ConceptRef[]> {
    return this.read('read concept refs', (connection) => readConceptRefs(connection, this.#context.readCache, query));
  }

  async findConceptsByRef(query: { scopes: readonly Scope[]; refIds: readonly string[] }): Promise<ConceptRef[]> {
    return this.read('find concepts by ref', (connection) => readConceptsByRef(connection, this.#context.readCache, query));
  }

  async findConcepts(query: Parameters<StoreReader['findConcepts']>[0]): Promise<MemoryRecord[]> {
    return this.read('find concepts', (connection) => readConcepts(connection, query));
  }

  async getState(scope: Scope, key: string): Promise<StateEntry | null> {
    return this.read('read state', (connection) => readState(connection, scope, key));
  }

  async listState(scope: Scope, keyPrefix: string, limit: number, options?: StateListOptions): Promise<StateEntry[]> {
    return this.read('list state', (connection) => listState(connection, scope, keyPrefix, limit, options));
  }

  async countRecordedPerDay(query: { scopes: readonly Scope[]; days: number }): Promise<DailyCount[]> {
    return this.read('count records per day', (connection) => countRecordedPerDay(connection, query));
  }

  async nextToDecay(query: { scopes: readonly Scope[]; idleMs: DecayTiers; limit: number }): Promise<MemoryRecord[]> {
    return this.read('list records next to decay', (connection) => nextToDecay(connection, query));
  }

  async listConcepts(query: { scopes: readonly Scope[]; limit: number }): Promise<MemoryRecord[]> {
    return this.read('list concepts', (connection) => listConcepts(connection, query));
  }

  async listEdges(query: { scope: Scope; afterId?: string; limit: number }): Promise<Edge[]> {
    return this.read('list edges', (connection) => dump.listEdges(connection, query));
  }

  async listConceptRefs(query: {
    scopes: readonly Scope[];
    after?: string;
    limit: number;
  }): Promise<{ refs: ConceptRef[]; next: string | null }> {
    return this.read('list concept refs', (connection) => dump.listConceptRefs(connection, query));
  }

  async getPartVectors(scopes: readonly Scope[], ids: readonly string[]): Promise<Map<string, Float32Array[]>> {
    return this.read('read part vectors', (connection) => {
      assertReadScopes(scopes);
      assertEmbedderCurrent(connection, this.#context.embedderName);
      return decodePartBlobs(readPartBlobs(connection, scopes, ids, this.#context.readCache), this.#context.dimension);
    });
  }

  async partScores(query: { scopes: readonly Scope[]; ids: readonly string[]; vector: Float32Array }): Promise<Map<string, number>> {
    return this.read('score part vectors', (connection) => {
      const scopes = assertReadScopes(query.scopes);
      assertDimension(query.vector, this.#context.dimension, 'query vector');
      assertEmbedderCurrent(connection, this.#context.embedderName);
      return bestPartCosines(readPartBlobs(connection, scopes, query.ids, this.#context.readCache), query.vector);
    });
  }

  async getEmbeddings(scope: Scope, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.read('read embeddings', (connection) => {
      assertEmbedderCurrent(connection, this.#context.embedderName);
      return dump.getEmbeddings(connection, scope, ids);
    });
  }

  async getBeliefs(ids: readonly string[], scopes: readonly Scope[]): Promise<Map<string, BeliefInterval[]>> {
    return this.read('read belief intervals', (connection) => getBeliefs(connection, ids, scopes));
  }

  async listAudit(query: { scope: Scope; afterId?: string; limit: number }): Promise<AuditEntry[]> {
    return this.read('list audit entries', (connection) => dump.listAudit(connection, query));
  }

  async supersededGeneration(scope: Scope): Promise<number> {
    return this.read('read the generation of superseded claims', (connection) => readSupersededGeneration(connection, scope));
  }

  /** Runs `fn` in one snapshot of the connection and maps failures to `EngramError`. */
  protected async read<T>(action: string, fn: (connection: SqliteConnection) => T): Promise<T> {
    this.#context.assertUsable();
    const { connection } = this.#context;
    try {
      return connection.snapshot(() => fn(connection));
    } catch (error) {
      throw toEngramError(error, action);
    }
  }
}
