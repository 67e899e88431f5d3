/**
 * k-NN by cosine similarity over the read's scopes. Scopes up to `memoryIndexThreshold` rows are
 * searched exactly by the in-memory index once warm and while they fit its budget, else by sqlite-vec
 * inside SQLite; larger ones by their approximate HNSW index when the store has one, else by the exact
 * in-memory index. Candidates are over-fetched, then filtered against the database (scopes, layers,
 * status, time); when too few survive and a source may hold more, k (and with it the HNSW candidate
 * list) grows and the search repeats, so inactive records never starve a result. A query's `widenTo`
 * applies in full where every source is exact, and at an HNSW scope only to the rows it returned anyway.
 */
import type { ChannelHit, VectorQuery } from '../../../core/ports/store.js';
import type { AnnIndex, AnnSearchAhead } from './ann-index.js';
import type { SqliteConnection } from '../sqlite-connection.js';
import { inList, visibilityClause } from '../sqlite-rows.js';
import { cosineSimilarity, type ScoredRow, type VectorIndex } from './vector-index.js';

/** sqlite-vec refuses larger k in one KNN query. */
const VEC0_MAX_K = 4096;
const GROWTH = 4;
/** Rows asked of an approximate index beyond the limit, for those the post-filter drops. */
const APPROXIMATE_MARGIN = 16;

export interface VectorSearchContext {
  /** Runs KNN and the post-filter: the transaction's connection inside one, so it sees its own writes. */
  readonly connection: SqliteConnection;
  readonly index: VectorIndex;
  /** Approximate per-scope indexes; absent when the store searches exactly. */
  readonly ann?: AnnIndex;
  readonly memoryIndexThreshold: number;
  readonly memoryIndexWarmup: number;
  /**
   * Rowids whose vectors the open transaction wrote, by scope. The shared indexes know only committed
   * vectors, so these are skipped there and scored from the transaction's connection instead.
   */
  readonly pending?: ReadonlyMap<number, string>;
  /** The vector of a pending row as the transaction wrote it, when it still holds it (else it is read). */
  readonly pendingVector?: (rowid: number) => Float32Array | undefined;
  /**
   * The post-filter from an in-memory copy of the filtered fields (the lexical index), when it has one:
   * the same rows as the SQL filter, or `null` to use SQL.
   */
  readonly visible?: (rowids: readonly number[]) => Map<number, string> | null;
  /**
   * The same filter one row at a time (`null`: none), made once a search: the exact index skips rows it
   * refuses, so one scan yields k survivors instead of growing k and scanning again.
   */
  readonly accepts?: () => ((rowid: number) => boolean) | null;
  /** HNSW searches run ahead on the search thread (`searchAhead`), by scope: the first round uses them. */
  readonly ahead?: ReadonlyMap<string, AnnSearchAhead>;
}

interface Source {
  rows: ScoredRow[];
  /** This source holds nothing more. */
  exhausted: boolean;
  /** A row it did not return may still score up to this. */
  floor: number;
}

/** Best-first hits; `scopes` are already validated and the vector's dimension checked. */
export function searchVectors(context: VectorSearchContext, query: VectorQuery, scopes: readonly string[]): ChannelHit[] {
  const { connection, index, ann } = context;
  const asked = Math.floor(query.limit);
  if (!(asked > 0)) return [];
  const { exact: inMemory, approximate } = chooseIndexes(context, scopes);
  const widenTo = widenedTo(query, asked);
  // exact sources cost the same for more hits; an approximate search grows with them, so there only
  // the rows its first search returns anyway (the margin for the post-filter) widen the result
  const limit = approximate.size === 0 ? widenTo : asked;
  const filter = visibleFilter(query, scopes);
  let accept: ((rowid: number) => boolean) | undefined;
  if (inMemory.size > 0) accept = context.accepts?.() ?? undefined;
  let k = firstK(limit, approximate, ann);
  const keep = Math.max(limit, Math.min(widenTo, k));
  for (;;) {
    const small = scopes.filter((scope) => !inMemory.has(scope) && !approximate.has(scope));
    if (small.length > 0 && k > VEC0_MAX_K) {
      // sqlite-vec cannot fetch that many; these scopes are small enough to hold in memory
      for (const scope of small) {
        index.sync(scope, { evictable: true });
        inMemory.add(scope);
      }
      continue;
    }
    const sources: Source[] = [];
    // one KNN per scope: given several partitions at once, sqlite-vec returns k from each
    for (const scope of small) sources.push(exhaustible(knn(connection, query.vector, scope, k), k));
    const pending = pendingIn(context.pending, new Set([...inMemory, ...approximate]));
    for (const scope of inMemory) sources.push(exhaustible(index.search(scope, query.vector, k, pending, accept), k));
    const annSources: Array<[string, Source]> = [];
    if (ann !== undefined)
      for (const scope of approximate) {
        const source = ann.search(scope, query.vector, k, pending, context.ahead?.get(scope));
        annSources.push([scope, source]);
        sources.push(source);
      }
    if (pending.size > 0)
      sources.push({ rows: scorePending(connection, query.vector, pending, context.pendingVector), exhausted: true, floor: -Infinity });

    // a hit is certain only if no unfinished source could still return something better
    let floor = -Infinity;
    for (const source of sources) if (!source.exhausted) floor = Math.max(floor, source.floor);
    const candidates = mergeBest(sources);
    const rowids = candidates.map((c) => c.rowid);
    const visible = context.visible?.(rowids) ?? filter(connection, rowids);
    for (const [scope, source] of annSources) {
      let survived = 0;
      for (const row of source.rows) if (visible.has(row.rowid)) survived += 1;
      ann?.overFetch.note(scope, source.rows.length, survived);
    }
    const hits = visibleHits(candidates, visible, keep, floor);
    if (hits.length >= limit || sources.every((s) => s.exhausted)) return hits;
    k *= GROWTH;
  }
}

/**
 * Runs on the store's search thread the HNSW searches that `searchVectors` of `query` will start with,
 * for the scopes whose index is loaded and large enough (`AnnIndex.searchAhead`), so that the caller's
 * thread is free meanwhile; resolves to them by scope (a search that failed is left out: that scope is
 * searched on the caller's thread), or is `undefined` when none was started. Outside a write
 * transaction only: the thread knows committed rows.
 */
export function searchVectorsAhead(
  ann: AnnIndex,
  query: VectorQuery,
  scopes: readonly string[],
): Promise<Map<string, AnnSearchAhead>> | undefined {
  const limit = Math.floor(query.limit);
  const loaded = new Set(scopes.filter((scope) => ann.isLoaded(scope)));
  if (!(limit > 0) || loaded.size === 0) return undefined;
  const k = firstK(limit, loaded, ann);
  const ahead = new Map<string, AnnSearchAhead>();
  const searches: Array<Promise<void>> = [];
  for (const scope of loaded) {
    const search = ann.searchAhead(scope, query.vector, k);
    if (search !== undefined)
      searches.push(
        search.then(
          (result) => void ahead.set(scope, result),
          () => undefined,
        ),
      );
  }
  // none started (small files, or the thread has not mapped them yet): the read searches at once
  return searches.length === 0 ? undefined : Promise.all(searches).then(() => ahead);
}

/**
 * A first guess at `searchVectors(context, query, scopes)` while its HNSW searches run on the search
 * thread (`searchVectorsAhead`): the loaded scopes that have a preview (`AnnIndex.preview`), merged,
 * through the same post-filter, as many hits as the first round keeps. Other scopes, the change log's
 * rows and further rounds are left out: hits may be missing or extra, so this is for reading ahead
 * only. Empty when no scope has a preview.
 */
export function previewVectors(context: VectorSearchContext, query: VectorQuery, scopes: readonly string[]): ChannelHit[] {
  const { ann, connection } = context;
  const limit = Math.floor(query.limit);
  if (ann === undefined || !(limit > 0)) return [];
  const loaded = new Set(scopes.filter((scope) => ann.isLoaded(scope)));
  const k = firstK(limit, loaded, ann);
  const sources: Source[] = [];
  for (const scope of loaded) {
    const rows = ann.preview(scope, query.vector, k);
    if (rows !== undefined) sources.push({ rows, exhausted: true, floor: -Infinity });
  }
  if (sources.length === 0) return [];
  const candidates = mergeBest(sources);
  const rowids = candidates.map((c) => c.rowid);
  const visible = context.visible?.(rowids) ?? visibleFilter(query, scopes)(connection, rowids);
  return visibleHits(candidates, visible, Math.max(limit, Math.min(widenedTo(query, limit), k)));
}

/** The hits a query asks for at most: its `widenTo` when it widens, else its limit (`asked`). */
function widenedTo(query: VectorQuery, asked: number): number {
  return Number.isFinite(query.widenTo) ? Math.max(asked, Math.floor(query.widenTo as number)) : asked;
}

/** The first `keep` of the best-first `candidates` that the post-filter let through, none below `floor`. */
function visibleHits(
  candidates: readonly ScoredRow[],
  visible: ReadonlyMap<number, string>,
  keep: number,
  floor = -Infinity,
): ChannelHit[] {
  const hits: ChannelHit[] = [];
  for (const candidate of candidates) {
    if (candidate.score < floor || hits.length >= keep) break;
    const id = visible.get(candidate.rowid);
    if (id !== undefined) hits.push({ id, score: candidate.score });
  }
  return hits;
}

/**
 * The first search's k. The exact sources cost the same whatever k is, so they over-fetch twice the
 * limit for the post-filter. An HNSW search keeps a candidate list of at least k (its search expansion
 * is max(expansion, k)), so twice the limit doubles its list at the sizes recall asks for (200
 * candidates against an expansion of 128 at 100k); it is asked for the limit and a margin of
 * {@link APPROXIMATE_MARGIN}, scaled by the share of the scope's rows the post-filter has been dropping
 * (the index's `overFetch`). When the filter still leaves too few, k grows and the search repeats.
 */
function firstK(limit: number, approximate: ReadonlySet<string>, ann: AnnIndex | undefined): number {
  if (approximate.size === 0 || ann === undefined) return Math.max(limit * 2, limit + 16);
  let factor = 1;
  for (const scope of approximate) factor = Math.max(factor, ann.overFetch.factor(scope));
  return Math.ceil((limit + APPROXIMATE_MARGIN) * factor);
}

/**
 * Which scopes an in-memory index serves. A scope of at most `threshold` rows: the exact index once it
 * was searched more than `warmup` times and fits the index's budget (else sqlite-vec), as an evictable
 * scope. A larger one: its HNSW index when that is ready (a background build starts when it is not and
 * the scope is warm); otherwise the exact index, or sqlite-vec while the scope is still warming up. The
 * row count runs only for a scope that is warm or has an HNSW file on disk, and only until an index of
 * it is loaded; a loaded scope is sized by the vectors it holds.
 */
function chooseIndexes(context: VectorSearchContext, scopes: readonly string[]): { exact: Set<string>; approximate: Set<string> } {
  const { connection, index, ann, memoryIndexThreshold: threshold, memoryIndexWarmup: warmup } = context;
  const exact = new Set<string>();
  const approximate = new Set<string>();
  if (threshold === Infinity) return { exact, approximate };
  for (const scope of scopes) {
    const warm = index.countSearch(scope) > warmup;
    let large: boolean;
    if (index.isLoaded(scope)) large = index.size(scope) > threshold;
    else if (ann?.isLoaded(scope) === true) large = true;
    else {
      const hasFile = ann?.hasFile(scope) === true;
      if (!warm && !hasFile) continue;
      // a scope whose index file holds more rows than the threshold is large without counting its rows
      // (a count of a million rows took 0.23 s of a new process's first recall); rows deleted since are
      // skipped through the change-log delta, and folded into a new file once there are enough of them
      const fileRows = hasFile ? (ann?.fileRows(scope) ?? 0) : 0;
      const size = fileRows > threshold ? fileRows : scopeSize(connection, scope);
      large = size > threshold;
      if (!large && !(warm && index.fits(size))) continue;
    }
    if (!large) {
      index.sync(scope, { evictable: true });
      exact.add(scope);
    } else if (ann?.sync(scope, { build: warm }) === true) {
      approximate.add(scope);
      index.drop(scope);
    } else if (index.isLoaded(scope) || warm) {
      index.sync(scope, { evictable: false });
      exact.add(scope);
    }
  }
  index.trim(exact);
  return { exact, approximate };
}

function exhaustible(rows: ScoredRow[], k: number): Source {
  const exhausted = rows.length < k;
  return { rows, exhausted, floor: exhausted ? -Infinity : (rows[rows.length - 1] as ScoredRow).score };
}

/** How many records `scope` holds. */
export function scopeSize(connection: SqliteConnection, scope: string): number {
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

function scorePending(
  connection: SqliteConnection,
  vector: Float32Array,
  rowids: ReadonlySet<number>,
  written?: (rowid: number) => Float32Array | undefined,
): ScoredRow[] {
  const rows: ScoredRow[] = [];
  for (const rowid of rowids) {
    let stored = written?.(rowid);
    if (stored === undefined) {
      const row = connection.get<{ embedding: Uint8Array }>('SELECT embedding FROM memory_vectors WHERE rowid = ?', BigInt(rowid));
      if (row === undefined) continue;
      stored = new Float32Array(new Uint8Array(row.embedding).buffer);
    }
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
