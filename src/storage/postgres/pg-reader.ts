/**
 * The read half of the store port over PostgreSQL: the pool (committed data) or, inside a transaction,
 * its session (which sees the transaction's own writes). Every query names its scopes.
 */
import { getBeliefs } from './pg-beliefs.js';
import type { BeliefInterval } from '../../core/memory.js';
import { EngramError, messages } from '../../core/errors.js';
import { LAYERS, STATUSES, type Edge, type Layer, type MemoryRecord } from '../../core/memory.js';
import type {
  TimeSpan,
  BrowseQuery,
  ChannelHit,
  ScopeSelection,
  ScopeSummary,
  LexicalQuery,
  ListQuery,
  NeighbourQuery,
  StoreReader,
  StoreStats,
  TemporalQuery,
  VectorQuery,
  EpisodeHead,
} from '../../core/ports/store.js';
import { storedMentionsOf } from '../stored-mentions.js';
import { assertReadScopes, assertScope, type Scope } from '../../core/scope.js';
import type { RelationType } from '../../core/relations.js';
import type {
  AuditEntry,
  ConceptRef,
  ConceptRefQuery,
  DailyCount,
  DecayTiers,
  StateEntry,
  StateListOptions,
} from '../../core/ports/store.js';
import * as dump from './pg-dump.js';
import type { MemoryStatus } from '../../core/memory.js';
import type { PgQueryable } from './pg-driver.js';
import { readRelationTypes } from './pg-relations.js';
import { readSupersededGeneration } from './pg-superseded.js';
import { readConceptRefs, readConcepts, readConceptsByRef } from './pg-concepts.js';
import { listState, readState } from './pg-state.js';
import type { VectorCache } from './pg-vector-cache.js';
import { assertDimension } from '../../core/vectors.js';
import { toEngramError } from './pg-errors.js';
import { searchLexical } from './pg-lexical.js';
import { assertEmbedderCurrent } from './pg-vector-staging.js';
import { readNeighbours } from './pg-neighbours.js';
import { readPartBlobs, type PartBlobCache } from './pg-parts.js';
import { bestPartCosines, decodePartBlobs } from '../part-vectors.js';
import { browseMemories, findDerived, listScopes, recentEpisodeHeads, summarizeScopes } from './pg-browse.js';
import { countRecordedPerDay, listConcepts, nextToDecay } from './pg-explore.js';
import type { VectorStorage } from './pg-migrations.js';
import { windowBound } from '../temporal-reads.js';
import {
  EDGE_COLUMNS,
  memoryColumns,
  Params,
  parseVectorText,
  rowToEdge,
  rowToMemory,
  vectorLiteral,
  visibilityClause,
  type EdgeRow,
  type MemoryRow,
  type Tables,
} from './pg-rows.js';

export interface PgReaderContext {
  readonly db: PgQueryable;
  readonly tables: Tables;
  readonly dimension: number;
  /** The embedding model this store was opened with; vector reads refuse to run once a reembed switched it. */
  readonly embedderName: string;
  /** Check the recorded model before vector reads (a transaction checked it when it took the writer lock). */
  readonly checkEmbedder: boolean;
  readonly vectors: VectorStorage;
  /** Scopes (summed) larger than this use the HNSW index when there is one; smaller ones are searched exactly. */
  readonly annThreshold: number;
  /** Runs `fn` where `SET LOCAL` applies: a short transaction, or the open one. */
  readonly withLocalSettings: <T>(fn: (db: PgQueryable) => Promise<T>) => Promise<T>;
  readonly assertUsable: () => void;
  /** In-process vectors for exact search without pgvector (absent with pgvector). */
  readonly vectorCache?: VectorCache;
  /** Part blobs read before, kept while their scope's generation holds; outside transactions only. */
  readonly partCache?: PartBlobCache;
}

const COLUMNS = memoryColumns('m');

export class PgReader implements StoreReader {
  readonly #context: PgReaderContext;

  constructor(context: PgReaderContext) {
    this.#context = context;
  }

  protected get tables(): Tables {
    return this.#context.tables;
  }

  async getBeliefs(ids: readonly string[], scopes: readonly Scope[]): Promise<Map<string, BeliefInterval[]>> {
    return this.read('read belief intervals', (db) => getBeliefs(db, this.tables, ids, scopes));
  }

  async getMemories(ids: readonly string[], scopes: readonly Scope[]): Promise<MemoryRecord[]> {
    return this.read('get memories', async (db) => {
      const allowed = assertReadScopes(scopes);
      if (ids.length === 0) return [];
      const rows = await db.query<MemoryRow>(
        `SELECT ${COLUMNS} FROM ${this.tables.memories} m WHERE m.id = ANY($1::text[]) AND m.scope = ANY($2::text[])`,
        [[...ids], [...allowed]],
      );
      const byId = new Map(rows.rows.map((row) => [row.id, row]));
      const records: MemoryRecord[] = [];
      for (const id of new Set(ids)) {
        const row = byId.get(id);
        if (row !== undefined) records.push(rowToMemory(row));
      }
      return records;
    });
  }

  async findBySourceKey(scope: Scope, sourceKeys: readonly string[]): Promise<Map<string, string>> {
    return this.read('find by source key', async (db) => {
      assertScope(scope);
      if (sourceKeys.length === 0) return new Map<string, string>();
      const rows = await db.query<{ source_key: string; id: string }>(
        `SELECT source_key, id FROM ${this.tables.memories} WHERE scope = $1 AND source_key = ANY($2::text[])`,
        [scope, [...sourceKeys]],
      );
      return new Map(rows.rows.map((r) => [r.source_key, r.id]));
    });
  }

  async lexicalSearch(query: LexicalQuery): Promise<ChannelHit[]> {
    return this.read('lexical search', (db) => searchLexical(db, this.tables, query));
  }

  async vectorSearch(query: VectorQuery): Promise<ChannelHit[]> {
    return this.read('vector search', async (db) => {
      const scopes = assertReadScopes(query.scopes);
      assertDimension(query.vector, this.#context.dimension, 'query vector');
      await this.#assertEmbedderCurrent(db);
      const asked = Math.floor(query.limit);
      if (!(asked > 0) || query.layers?.length === 0) return [];
      // an exact search costs the same for more hits (`widenTo`)
      const widened = Number.isFinite(query.widenTo) ? Math.max(asked, Math.floor(query.widenTo as number)) : asked;
      const { vectors, annThreshold } = this.#context;
      const p = new Params();
      const target = p.add(vectorLiteral(query.vector, vectors));
      const where = [`m.scope = ANY(${p.add([...scopes])}::text[])`];
      if (query.layers !== undefined) where.push(`m.layer = ANY(${p.add([...query.layers])}::text[])`);
      where.push(visibilityClause(query, query.now, 'm', p, this.tables));
      if (vectors === 'array') return this.#exactFromCache(db, query, scopes, widened);
      const size = annThreshold === Infinity ? 0 : await this.#scopeSize(db, scopes);
      if (size <= annThreshold) {
        // exact: the ORDER BY is not the bare distance, so the planner cannot pick the approximate index
        const rows = await db.query<{ id: string; score: number }>(
          `SELECT m.id, 1 - (m.embedding <=> ${target}::vector) AS score FROM ${this.tables.memories} m
           WHERE ${where.join(' AND ')} ORDER BY score DESC, m.id LIMIT ${p.add(widened)}`,
          p.values,
        );
        return rows.rows.map((r) => ({ id: r.id, score: Number(r.score) }));
      }
      // approximate: HNSW with iterative scans, so filtered-out rows never starve the result; its
      // candidate list (ef, from the asked limit) bounds the widening, as more would search further
      const ef = Math.min(1000, Math.max(100, asked * 4));
      const limit = Math.max(asked, Math.min(widened, ef));
      const rows = await this.#context.withLocalSettings(async (session) => {
        await session.query(`SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`, [
          String(ef),
        ]);
        return session.query<{ id: string; score: number }>(
          `SELECT m.id, 1 - (m.embedding <=> ${target}::vector) AS score FROM ${this.tables.memories} m
           WHERE ${where.join(' AND ')} ORDER BY m.embedding <=> ${target}::vector LIMIT ${p.add(limit)}`,
          p.values,
        );
      });
      return rows.rows.map((r) => ({ id: r.id, score: Number(r.score) })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    });
  }

  /**
   * Exact k-NN over the in-process vectors, then the filters in SQL; when too few candidates survive
   * (inactive, other layer, outside the time filter), k grows and the search repeats.
   */
  async #exactFromCache(db: PgQueryable, query: VectorQuery, scopes: readonly string[], limit: number): Promise<ChannelHit[]> {
    const cache = this.#context.vectorCache;
    if (cache === undefined) throw new EngramError('INTERNAL', messages.storageUnavailable('exact vector search has no vector cache'));
    for (const scope of scopes) await cache.sync(db, this.tables, scope);
    const total = cache.total(scopes);
    let k = Math.max(limit * 2, limit + 16);
    for (;;) {
      const candidates = cache.top(scopes, query.vector, k);
      if (candidates.length === 0) return [];
      const p = new Params();
      const where = [`m.id = ANY(${p.add(candidates.map((c) => c.id))}::text[])`, `m.scope = ANY(${p.add([...scopes])}::text[])`];
      if (query.layers !== undefined) where.push(`m.layer = ANY(${p.add([...query.layers])}::text[])`);
      where.push(visibilityClause(query, query.now, 'm', p, this.tables));
      const visible = new Set(
        (await db.query<{ id: string }>(`SELECT m.id FROM ${this.tables.memories} m WHERE ${where.join(' AND ')}`, p.values)).rows.map(
          (r) => r.id,
        ),
      );
      const hits = candidates.filter((c) => visible.has(c.id));
      if (hits.length >= limit || k >= total) return hits.slice(0, limit);
      k *= 4;
    }
  }

  async #scopeSize(db: PgQueryable, scopes: readonly string[]): Promise<number> {
    const row = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.tables.memories} WHERE scope = ANY($1::text[])`, [
      [...scopes],
    ]);
    return Number(row.rows[0]?.n ?? 0);
  }

  async listMemories(query: ListQuery): Promise<MemoryRecord[]> {
    return this.read('list memories', async (db) => {
      const scopes = assertReadScopes(query.scopes);
      const limit = Math.floor(query.limit);
      if (!(limit > 0) || query.layers?.length === 0 || query.statuses?.length === 0) return [];
      const p = new Params();
      const where = [`m.scope = ANY(${p.add([...scopes])}::text[])`];
      if (query.layers !== undefined) where.push(`m.layer = ANY(${p.add([...query.layers])}::text[])`);
      if (query.statuses !== undefined) where.push(`m.status = ANY(${p.add([...query.statuses])}::text[])`);
      if (query.afterId !== undefined) where.push(`m.id > ${p.add(query.afterId)}`);
      const rows = await db.query<MemoryRow>(
        `SELECT ${COLUMNS} FROM ${this.tables.memories} m WHERE ${where.join(' AND ')} ORDER BY m.id COLLATE "C" LIMIT ${p.add(limit)}`,
        p.values,
      );
      return rows.rows.map(rowToMemory);
    });
  }

  async browseMemories(query: BrowseQuery): Promise<MemoryRecord[]> {
    return this.read('browse memories', (db) => browseMemories(db, this.tables, query));
  }

  async recentEpisodeHeads(query: { scopes: readonly Scope[]; limit: number }): Promise<EpisodeHead[]> {
    return this.read('sample episodes', (db) => recentEpisodeHeads(db, this.tables, query));
  }

  async listScopes(selection: ScopeSelection): Promise<Scope[]> {
    return this.read('list scopes', (db) => listScopes(db, this.tables, selection));
  }

  async summarizeScopes(scopes: readonly Scope[]): Promise<ScopeSummary[]> {
    return this.read('count scopes', (db) => summarizeScopes(db, this.tables, scopes));
  }

  async findDerived(query: { scope: Scope; ids: readonly string[] }): Promise<MemoryRecord[]> {
    return this.read('find derived records', (db) => findDerived(db, this.tables, query.scope, query.ids));
  }

  mentionsOf(record: MemoryRecord): readonly TimeSpan[] | undefined {
    return storedMentionsOf(record);
  }

  async getNeighbours(query: NeighbourQuery): Promise<Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }>> {
    return this.read('read neighbours', (db) => readNeighbours(db, this.tables, query));
  }

  async recentEmbeddings(scope: Scope, limit: number): Promise<Float32Array[]> {
    return (await this.recentEmbeddingsByScope([scope], limit)).get(scope) ?? [];
  }

  async recentEmbeddingsByScope(scopes: readonly Scope[], limit: number): Promise<Map<Scope, Float32Array[]>> {
    return this.read('read recent embeddings', async (db) => {
      for (const scope of scopes) assertScope(scope);
      await this.#assertEmbedderCurrent(db);
      const n = Math.max(0, Math.min(10_000, Math.floor(limit)));
      const unique = [...new Set(scopes)];
      const byScope = new Map<Scope, Float32Array[]>(unique.map((scope) => [scope, []]));
      if (n === 0 || unique.length === 0) return byScope;
      // each scope's newest rows along its (scope, seq) index; the vectors become text after the limit:
      // with no statistics yet (a freshly loaded table) the planner may sort the whole scope, and
      // converting every row first took 0.4 s at 10k records
      const rows = await db.query<{ scope: string; e: string }>(
        `SELECT s.scope, r.e FROM unnest($1::text[]) WITH ORDINALITY AS s(scope, i)
         CROSS JOIN LATERAL (SELECT embedding::text AS e, seq FROM (SELECT embedding, seq FROM ${this.tables.memories}
           WHERE scope = s.scope AND embedding IS NOT NULL ORDER BY seq DESC LIMIT $2) recent) r
         ORDER BY s.i, r.seq DESC`,
        [unique, n],
      );
      for (const row of rows.rows) byScope.get(row.scope)?.push(parseVectorText(row.e));
      return byScope;
    });
  }

  async temporalSearch(query: TemporalQuery): Promise<ChannelHit[]> {
    return this.read('temporal search', async (db) => {
      const scopes = assertReadScopes(query.scopes);
      const limit = Math.floor(query.limit);
      if (!(limit > 0) || query.layers?.length === 0 || !(query.end > query.start)) return [];
      const eventTime = 'coalesce(m.occurred_at, m.valid_from)';
      /** The filters of one statement: its scope condition, the layers, the window from `from`, visibility. */
      const where = (p: Params, scope: string, from: number): string => {
        const parts = [scope];
        if (query.layers !== undefined) parts.push(`m.layer = ANY(${p.add([...query.layers])}::text[])`);
        parts.push(`${eventTime} >= ${p.add(from)} AND ${eventTime} < ${p.add(query.end)}`);
        parts.push(visibilityClause(query, query.now, 'm', p, this.tables));
        return parts.join(' AND ');
      };
      // each scope's newest `limit` event times along the event-time index, then the exact order from
      // their bound on (`temporal-reads.ts`)
      const newest: number[] = [];
      for (const scope of scopes) {
        const p = new Params();
        const times = await db.query<{ t: string | number }>(
          `SELECT ${eventTime} AS t FROM ${this.tables.memories} m
           WHERE ${where(p, `m.scope = ${p.add(scope)}`, query.start)} ORDER BY ${eventTime} DESC LIMIT ${p.add(limit)}`,
          p.values,
        );
        for (const { t } of times.rows) newest.push(Number(t));
      }
      if (newest.length === 0) return [];
      const from = windowBound(newest, limit, query.start);
      const p = new Params();
      const rows = await db.query<{ id: string; t: number }>(
        `SELECT m.id, ${eventTime} AS t FROM ${this.tables.memories} m
         WHERE ${where(p, `m.scope = ANY(${p.add([...scopes])}::text[])`, from)} ORDER BY t DESC, m.id COLLATE "C" DESC LIMIT ${p.add(limit)}`,
        p.values,
      );
      const span = query.end - query.start;
      // closer to the window's centre scores higher, 0.5..1
      const centre = query.start + span / 2;
      return rows.rows.map((r) => ({ id: r.id, score: 1 - Math.min(0.5, Math.abs(Number(r.t) - centre) / span) }));
    });
  }

  async findClaims(query: { scope: Scope; layers: readonly Layer[]; subjects: readonly string[]; limit: number }): Promise<MemoryRecord[]> {
    return this.read('find claims', async (db) => {
      assertScope(query.scope);
      const limit = Math.floor(query.limit);
      if (!(limit > 0) || query.layers.length === 0 || query.subjects.length === 0) return [];
      const rows = await db.query<MemoryRow>(
        `SELECT ${COLUMNS} FROM ${this.tables.memories} m
         WHERE m.scope = $1 AND m.layer = ANY($2::text[]) AND m.claim_subject = ANY($3::text[]) AND m.status = 'active'
         ORDER BY m.recorded_at DESC, m.id COLLATE "C" DESC LIMIT $4`,
        [query.scope, [...query.layers], [...query.subjects], limit],
      );
      return rows.rows.map(rowToMemory);
    });
  }

  async getPartVectors(scopes: readonly Scope[], ids: readonly string[]): Promise<Map<string, Float32Array[]>> {
    return this.read('read part vectors', async (db) => {
      const allowed = assertReadScopes(scopes);
      if (ids.length === 0) return new Map<string, Float32Array[]>();
      await this.#assertEmbedderCurrent(db);
      return decodePartBlobs(await readPartBlobs(db, this.tables, { scopes: allowed, ids }), this.#context.dimension);
    });
  }

  async partScores(query: { scopes: readonly Scope[]; ids: readonly string[]; vector: Float32Array }): Promise<Map<string, number>> {
    return this.read('score part vectors', async (db) => {
      const scopes = assertReadScopes(query.scopes);
      assertDimension(query.vector, this.#context.dimension, 'query vector');
      if (query.ids.length === 0) return new Map<string, number>();
      await this.#assertEmbedderCurrent(db);
      const { partCache } = this.#context;
      const read = { scopes, ids: query.ids };
      const blobs = partCache === undefined ? await readPartBlobs(db, this.tables, read) : await partCache.read(db, this.tables, read);
      return bestPartCosines(blobs, query.vector);
    });
  }

  async getEdges(query: { scopes: readonly Scope[]; ids: readonly string[]; types?: readonly string[] }): Promise<Edge[]> {
    return this.read('get edges', async (db) => {
      const scopes = [...assertReadScopes(query.scopes)];
      if (query.ids.length === 0 || query.types?.length === 0) return [];
      const types = query.types === undefined ? '' : ' AND type = ANY($3::text[])';
      const rows = await db.query<EdgeRow>(
        `SELECT ${EDGE_COLUMNS} FROM ${this.tables.edges}
         WHERE scope = ANY($1::text[]) AND (from_id = ANY($2::text[]) OR to_id = ANY($2::text[]))${types} ORDER BY seq`,
        [scopes, [...query.ids], ...(query.types === undefined ? [] : [[...query.types]])],
      );
      return rows.rows.map(rowToEdge);
    });
  }

  async stats(scopes: readonly Scope[]): Promise<StoreStats> {
    return this.read('count memories', async (db) => {
      const allowed = [...assertReadScopes(scopes)];
      // only a JSON true makes a concept, as isConcept() reads it
      const counts = await db.query<{ layer: string; status: string; concept: boolean; n: number }>(
        `SELECT layer, status, (CASE WHEN layer = 'semantic' THEN (data::jsonb -> 'concept') = 'true'::jsonb ELSE false END) IS TRUE AS concept, count(*)::int AS n
         FROM ${this.tables.memories} WHERE scope = ANY($1::text[]) GROUP BY 1, 2, 3`,
        [allowed],
      );
      const byLayer: Record<string, number> = Object.fromEntries(LAYERS.map((l) => [l, 0]));
      const byStatus: Record<string, number> = Object.fromEntries(STATUSES.map((s) => [s, 0]));
      let total = 0;
      let concepts = 0;
      for (const { layer, status, concept, n } of counts.rows) {
        if (concept) concepts += Number(n);
        else byLayer[layer] = (byLayer[layer] ?? 0) + Number(n);
        byStatus[status] = (byStatus[status] ?? 0) + Number(n);
        total += Number(n);
      }
      const edges = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.tables.edges} WHERE scope = ANY($1::text[])`, [
        allowed,
      ]);
      return { total, byLayer, concepts, byStatus, edges: Number(edges.rows[0]?.n ?? 0) };
    });
  }

  async getRelationTypes(scopes: readonly Scope[]): Promise<RelationType[]> {
    return this.read('read relation types', (db) => readRelationTypes(db, this.tables, scopes));
  }

  async getConceptRefs(query: ConceptRefQuery): Promise<ConceptRef[]> {
    return this.read('read concept refs', (db) => readConceptRefs(db, this.tables, query));
  }

  async findConceptsByRef(query: { scopes: readonly Scope[]; refIds: readonly string[] }): Promise<ConceptRef[]> {
    return this.read('find concepts by ref', (db) => readConceptsByRef(db, this.tables, query));
  }

  async findConcepts(query: {
    scopes: readonly Scope[];
    names: readonly string[];
    layers?: readonly Layer[];
    statuses?: readonly MemoryStatus[];
    limit?: number;
  }): Promise<MemoryRecord[]> {
    return this.read('find concepts', (db) => readConcepts(db, this.tables, query));
  }

  async getState(scope: Scope, key: string): Promise<StateEntry | null> {
    return this.read('read state', (db) => readState(db, this.tables, scope, key));
  }

  async listState(scope: Scope, keyPrefix: string, limit: number, options?: StateListOptions): Promise<StateEntry[]> {
    return this.read('list state', (db) => listState(db, this.tables, scope, keyPrefix, limit, options));
  }

  async countRecordedPerDay(query: { scopes: readonly Scope[]; days: number }): Promise<DailyCount[]> {
    return this.read('count records per day', (db) => countRecordedPerDay(db, this.tables, query));
  }

  async nextToDecay(query: { scopes: readonly Scope[]; idleMs: DecayTiers; limit: number }): Promise<MemoryRecord[]> {
    return this.read('list records next to decay', (db) => nextToDecay(db, this.tables, query));
  }

  async listConcepts(query: { scopes: readonly Scope[]; limit: number }): Promise<MemoryRecord[]> {
    return this.read('list concepts', (db) => listConcepts(db, this.tables, query));
  }

  async listEdges(query: { scope: Scope; afterId?: string; limit: number }): Promise<Edge[]> {
    return this.read('list edges', (db) => dump.listEdges(db, this.tables, query));
  }

  async listConceptRefs(query: {
    scopes: readonly Scope[];
    after?: string;
    limit: number;
  }): Promise<{ refs: ConceptRef[]; next: string | null }> {
    return this.read('list concept refs', (db) => dump.listConceptRefs(db, this.tables, query));
  }

  async getEmbeddings(scope: Scope, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.read('read embeddings', async (db) => {
      await this.#assertEmbedderCurrent(db);
      return dump.getEmbeddings(db, this.tables, scope, ids);
    });
  }

  async listAudit(query: { scope: Scope; afterId?: string; limit: number }): Promise<AuditEntry[]> {
    return this.read('list audit entries', (db) => dump.listAudit(db, this.tables, query));
  }

  async supersededGeneration(scope: Scope): Promise<number> {
    return this.read('read the generation of superseded claims', (db) => readSupersededGeneration(db, this.tables, scope));
  }

  /** Runs `fn` against this reader's connection and maps failures to `EngramError`. */
  async #assertEmbedderCurrent(db: PgQueryable): Promise<void> {
    if (this.#context.checkEmbedder) await assertEmbedderCurrent(db, this.tables, this.#context.embedderName);
  }

  protected async read<T>(action: string, fn: (db: PgQueryable) => Promise<T>): Promise<T> {
    this.#context.assertUsable();
    try {
      return await fn(this.#context.db);
    } catch (error) {
      throw toEngramError(error, action);
    }
  }
}
