/**
 * Exact k-NN by cosine similarity over the read's scopes. Small scopes are searched by sqlite-vec
 * inside SQLite, large ones by the in-memory index. Candidates are over-fetched, then filtered against
 * the database (scopes, layers, status, time); when too few survive and a source may hold more,
 * k grows and the search repeats, so inactive records never starve a result.
 */
import type { ChannelHit, VectorQuery } from '../../core/ports/store.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { inList, visibilityClause } from './sqlite-rows.js';
import { cosineSimilarity, type ScoredRow, type VectorIndex } from './vector-index.js';

/** sqlite-vec refuses larger k in one KNN query. */
const VEC0_MAX_K = 4096;
const GROWTH = 4;

export interface VectorSearchContext {
  /** Runs KNN and the post-filter: the transaction's connection inside one, so it sees its own writes. */
  readonly connection: SqliteConnection;
  readonly index: VectorIndex;
  readonly memoryIndexThreshold: number;
  readonly memoryIndexWarmup: number;
  /**
   * Rowids whose vectors the open transaction wrote, by scope. The shared index knows only committed
   * vectors, so these are skipped there and scored from the transaction's connection instead.
   */
  readonly pending?: ReadonlyMap<number, string>;
}

interface Source {
  rows: ScoredRow[];
  /** Fewer than k came back: this source holds nothing more. */
  exhausted: boolean;
}

/** Best-first hits; `scopes` are already validated and the vector's dimension checked. */
export function searchVectors(context: VectorSearchContext, query: VectorQuery, scopes: readonly string[]): ChannelHit[] {
  const { connection, index } = context;
  const limit = Math.floor(query.limit);
  if (!(limit > 0)) return [];
  const { memoryIndexThreshold: threshold, memoryIndexWarmup: warmup } = context;
  const isLarge = (scope: string): boolean =>
    index.isLoaded(scope) ||
    (threshold !== Infinity && index.countSearch(scope) > warmup && scopeSize(connection, scope) > threshold);
  const inMemory = new Set(scopes.filter(isLarge));
  for (const scope of inMemory) index.sync(scope);
  const filter = visibleFilter(query, scopes);
  let k = Math.max(limit * 2, limit + 16);
  for (;;) {
    const small = scopes.filter((scope) => !inMemory.has(scope));
    if (small.length > 0 && k > VEC0_MAX_K) {
      // sqlite-vec cannot fetch that many; these scopes are small enough to hold in memory
      for (const scope of small) {
        index.sync(scope);
        inMemory.add(scope);
      }
      continue;
    }
    const sources: Source[] = [];
    // one KNN per scope: given several partitions at once, sqlite-vec returns k from each
    for (const scope of small) sources.push(exhaustible(knn(connection, query.vector, scope, k), k));
    const pending = pendingIn(context.pending, inMemory);
    for (const scope of inMemory) sources.push(exhaustible(index.search(scope, query.vector, k, pending), k));
    if (pending.size > 0) sources.push({ rows: scorePending(connection, query.vector, pending), exhausted: true });

    // a hit is certain only if no unfinished source could still return something better
    let floor = -Infinity;
    for (const source of sources) {
      const last = source.rows[source.rows.length - 1];
      if (!source.exhausted && last !== undefined) floor = Math.max(floor, last.score);
    }
    const candidates = mergeBest(sources);
    const visible = filter(connection, candidates.map((c) => c.rowid));
    const hits: ChannelHit[] = [];
    for (const candidate of candidates) {
      if (candidate.score < floor || hits.length >= limit) break;
      const id = visible.get(candidate.rowid);
      if (id !== undefined) hits.push({ id, score: candidate.score });
    }
    if (hits.length >= limit || sources.every((s) => s.exhausted)) return hits;
    k *= GROWTH;
  }
}

function exhaustible(rows: ScoredRow[], k: number): Source {
  return { rows, exhausted: rows.length < k };
}

function scopeSize(connection: SqliteConnection, scope: string): number {
  return connection.get<{ n: number }>('SELECT count(*) AS n FROM memories WHERE scope = ?', scope)?.n ?? 0;
}

function knn(connection: SqliteConnection, vector: Float32Array, scope: string, k: number): ScoredRow[] {
  const rows = connection.all<{ rowid: number; distance: number | null }>(
    'SELECT rowid, distance FROM memory_vectors WHERE embedding MATCH ? AND k = ? AND scope = ? ORDER BY distance',
    vectorBlob(vector),
    k,
    scope,
  );
  // a zero vector has no direction: sqlite-vec gives no distance, the index gives similarity 0
  return rows.map((r) => ({ rowid: r.rowid, score: r.distance === null ? 0 : 1 - r.distance }));
}

function pendingIn(pending: ReadonlyMap<number, string> | undefined, scopes: ReadonlySet<string>): Set<number> {
  const rowids = new Set<number>();
  if (pending !== undefined) for (const [rowid, scope] of pending) if (scopes.has(scope)) rowids.add(rowid);
  return rowids;
}

function scorePending(connection: SqliteConnection, vector: Float32Array, rowids: ReadonlySet<number>): ScoredRow[] {
  const rows: ScoredRow[] = [];
  for (const rowid of rowids) {
    const row = connection.get<{ embedding: Uint8Array }>('SELECT embedding FROM memory_vectors WHERE rowid = ?', BigInt(rowid));
    if (row === undefined) continue;
    const stored = new Float32Array(new Uint8Array(row.embedding).buffer);
    rows.push({ rowid, score: cosineSimilarity(vector, stored) });
  }
  return rows.sort((a, b) => b.score - a.score);
}

function mergeBest(sources: readonly Source[]): ScoredRow[] {
  const best = new Map<number, ScoredRow>();
  for (const source of sources) for (const row of source.rows) if (!best.has(row.rowid)) best.set(row.rowid, row);
  return [...best.values()].sort((a, b) => b.score - a.score || a.rowid - b.rowid);
}

type VisibleFilter = (connection: SqliteConnection, rowids: readonly number[]) => Map<number, string>;

/** The candidates that pass scopes, layers and the time filter, as rowid → id. */
function visibleFilter(query: VectorQuery, scopes: readonly string[]): VisibleFilter {
  const visibility = visibilityClause(query, query.now, 'm');
  const layers = query.layers === undefined ? '' : ` AND ${inList('m.layer')}`;
  const sql = `SELECT m.rowid AS rowid, m.id AS id FROM memories m
    WHERE ${inList('m.rowid')} AND ${inList('m.scope')}${layers} AND ${visibility.sql}`;
  const params = [JSON.stringify(scopes), ...(query.layers === undefined ? [] : [JSON.stringify(query.layers)]), ...visibility.params];
  return (connection, rowids) => {
    if (rowids.length === 0) return new Map();
    const rows = connection.all<{ rowid: number; id: string }>(sql, JSON.stringify(rowids), ...params);
    return new Map(rows.map((r) => [r.rowid, r.id]));
  };
}

/** The bytes of a vector as sqlite-vec expects them (little-endian float32). */
export function vectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}
