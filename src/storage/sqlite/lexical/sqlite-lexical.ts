/**
 * BM25 with the statistics of the scopes being searched. FTS5's own bm25() uses the whole table's
 * document count and lengths, so in a store shared by many scopes a word that is everywhere in one
 * scope (a speaker's name in a conversation) looks rare and dominates. Here FTS5 only finds the
 * candidates; they are rescored with per-scope document frequencies and lengths (cached per scope
 * until the scope changes).
 */
import type { ChannelHit, LexicalQuery } from '../../../core/ports/store.js';
import { assertReadScopes, type Scope } from '../../../core/scope.js';
import { BM25_CANDIDATES_PER_HIT, BM25_MIN_CANDIDATES, rankBm25, TermCountCache } from '../../../core/text/bm25.js';
import { contentTerms, stem } from '../../../core/text/index.js';
import { buildFtsQuery, ftsPhrases } from './fts-query.js';
import type { LexicalIndex } from './lexical-index.js';
import type { PendingLexicalRows } from './lexical-pending.js';
import type { SqliteConnection } from '../sqlite-connection.js';
import { inList, visibilityClause } from '../sqlite-rows.js';

interface ScopeStatistics {
  generation: string;
  computedAt: number;
  docs: number;
  totalLength: number;
  df: Map<string, number>;
}

/** Scopes at least this large may use statistics up to `STALE_OK_MS` old. */
const STALE_OK_DOCS = 5_000;
const STALE_OK_MS = 5_000;

/** Per-connection cache of scope statistics. */
export class LexicalStatistics {
  readonly #byScope = new Map<Scope, ScopeStatistics>();
  /** The candidates' term counts, kept across queries (rankBm25 re-reads the same memories). */
  readonly termCounts = new TermCountCache();

  /**
   * Documents, total length and document frequencies of the stems in `surfaces`, summed over `scopes`.
   * Each stem is counted through the words it came from: FTS5 stems what it is given again, and
   * Porter is not idempotent ("coffee" → "coffe" → "coff"), so a stem itself may match nothing.
   */
  collect(
    connection: SqliteConnection,
    scopes: readonly Scope[],
    surfaces: ReadonlyMap<string, ReadonlySet<string>>,
  ): { docs: number; avgLength: number; df: Map<string, number> } {
    let docs = 0;
    let totalLength = 0;
    const stems = [...surfaces.keys()];
    const df = new Map<string, number>(stems.map((s) => [s, 0]));
    for (const scope of scopes) {
      const stats = this.#current(connection, scope);
      docs += stats.docs;
      totalLength += stats.totalLength;
      for (const s of stems) {
        let n = stats.df.get(s);
        if (n === undefined) {
          const words = [...(surfaces.get(s) ?? [s])].map((word) => `"${word.replaceAll('"', '""')}"`).join(' OR ');
          n =
            connection.get<{ n: number }>(
              `SELECT count(*) AS n FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
               WHERE memories_fts MATCH ? AND m.scope = ?`,
              words,
              scope,
            )?.n ?? 0;
          stats.df.set(s, n);
        }
        df.set(s, (df.get(s) ?? 0) + n);
      }
    }
    return { docs, avgLength: docs > 0 ? totalLength / docs : 1, df };
  }

  #total: { generation: string; computedAt: number; docs: number } | undefined;

  /** The share (0..1) of all stored memories that `scopes` hold, from the same cached counts. */
  share(connection: SqliteConnection, scopes: readonly Scope[]): number {
    const docs = scopes.reduce((sum, scope) => sum + this.#current(connection, scope).docs, 0);
    const generation = this.#generation(connection);
    const total = this.#total;
    if (
      total === undefined ||
      (total.generation !== generation && !(total.docs >= STALE_OK_DOCS && Date.now() - total.computedAt < STALE_OK_MS))
    ) {
      this.#total = {
        generation,
        computedAt: Date.now(),
        docs: connection.get<{ n: number }>('SELECT count(*) AS n FROM memories')?.n ?? 0,
      };
    }
    const all = this.#total?.docs ?? 0;
    return all > 0 ? Math.min(1, docs / all) : 0;
  }

  #generation(connection: SqliteConnection): string {
    // Any insert or content change anywhere moves the generation (cheap to read).
    return (
      connection.get<{ g: string }>(
        "SELECT (SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'memories') || ':' || (SELECT coalesce(max(id), 0) FROM lexical_changes) AS g",
      )?.g ?? ''
    );
  }

  #current(connection: SqliteConnection, scope: Scope): ScopeStatistics {
    // When the generation moves, the scope's statistics are recounted once.
    const generation = this.#generation(connection);
    let stats = this.#byScope.get(scope);
    // Statistics need not be exact: a large scope keeps them for a few seconds across writes, so a
    // stream of writes does not recount document frequencies on every search.
    const fresh =
      stats !== undefined &&
      (stats.generation === generation || (stats.docs >= STALE_OK_DOCS && Date.now() - stats.computedAt < STALE_OK_MS));
    if (stats === undefined || !fresh) {
      const row = connection.get<{ docs: number; total: number | null }>(
        'SELECT count(*) AS docs, sum(term_count) AS total FROM memories WHERE scope = ?',
        scope,
      );
      stats = { generation, computedAt: Date.now(), docs: row?.docs ?? 0, totalLength: row?.total ?? 0, df: new Map() };
      this.#byScope.set(scope, stats);
    }
    return stats;
  }
}

/**
 * Lexical search: FTS5 finds candidates, scope-local BM25 (k1, b) ranks them. With an in-memory
 * `index`, it answers instead where it can; inside a write transaction (`connection` is the writer)
 * only with the transaction's `pending` rows beside it, since the index holds committed rows.
 */
export function searchLexical(
  connection: SqliteConnection,
  statistics: LexicalStatistics,
  query: LexicalQuery,
  lexical?: { readonly index: LexicalIndex; readonly pending?: PendingLexicalRows },
): ChannelHit[] {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  // BM25 counts our stems; FTS5 is handed the words they came from, since it stems them itself.
  const weights = new Map<string, number>();
  const surfaces = new Map<string, Set<string>>();
  for (const { term, weight = 1 } of query.terms) {
    if (!(weight > 0)) continue;
    for (const token of contentTerms(term)) {
      const s = stem(token);
      weights.set(s, Math.max(weights.get(s) ?? 0, weight));
      const words = surfaces.get(s) ?? new Set<string>();
      words.add(token.toLowerCase());
      surfaces.set(s, words);
    }
  }
  const fts = buildFtsQuery([...surfaces.values()].flatMap((words) => [...words].map((term) => ({ term }))));
  if (fts === null || !(limit > 0) || query.layers?.length === 0) return [];
  const candidates = Math.max(BM25_MIN_CANDIDATES, limit * BM25_CANDIDATES_PER_HIT);
  if (lexical !== undefined) {
    // the in-memory index gives the same hits and scores; `null` when it cannot answer this query
    const phrases = ftsPhrases([...surfaces.values()].flatMap((words) => [...words].map((term) => ({ term }))));
    const indexed =
      phrases === null
        ? null
        : {
            scopes,
            layers: query.layers,
            filter: query,
            now: query.now,
            phrases: phrases.words,
            weights,
            surfaces,
            candidates,
            limit,
            k1: query.bm25?.k1 ?? 1.2,
            b: query.bm25?.b ?? 0.75,
          };
    const hits = indexed === null ? null : lexical.index.search(connection, indexed, lexical.pending);
    if (hits !== null) return hits;
  }
  const plan: FtsPlan = { scopes, match: fts.match, candidates, weights, surfaces, limit };
  if (lexical === undefined) return searchFts(connection, statistics, query, plan);
  // what FTS5 costs this process, so a small store's index is built once it has cost as much
  const started = performance.now();
  const answered = searchFts(connection, statistics, query, plan);
  lexical.index.noteFtsSearch(performance.now() - started);
  return answered;
}

/** A lexical search as the FTS path runs it: the MATCH expression and what ranks its candidates. */
interface FtsPlan {
  readonly scopes: readonly Scope[];
  readonly match: string;
  readonly candidates: number;
  readonly weights: ReadonlyMap<string, number>;
  readonly surfaces: ReadonlyMap<string, ReadonlySet<string>>;
  readonly limit: number;
}

/** The FTS path: FTS5's candidates ranked by scope-local BM25. */
function searchFts(connection: SqliteConnection, statistics: LexicalStatistics, query: LexicalQuery, plan: FtsPlan): ChannelHit[] {
  const { scopes, match, candidates } = plan;
  const rows =
    ftsFirst(connection, statistics, query, scopes, match, candidates) ?? joinedCandidates(connection, query, scopes, match, candidates);
  if (rows.length === 0) return [];
  return rankBm25(rows, plan.weights, statistics.collect(connection, scopes, plan.surfaces), query.bm25, plan.limit, statistics.termCounts);
}

type CandidateRow = { id: string; content: string; tags: string; entities: string; term_count: number | null };

/** FTS5 candidates within the scopes, layers and time filter: the FTS match joined to the records. */
function joinedCandidates(
  connection: SqliteConnection,
  query: LexicalQuery,
  scopes: readonly Scope[],
  match: string,
  candidates: number,
): CandidateRow[] {
  const visibility = visibilityClause(query, query.now, 'm');
  const layers = query.layers === undefined ? '' : ` AND ${inList('m.layer')}`;
  return connection.all<CandidateRow>(
    `SELECT m.id AS id, m.content AS content, m.tags AS tags, m.entities AS entities, m.term_count AS term_count
     FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
     WHERE memories_fts MATCH ? AND ${inList('m.scope')}${layers} AND ${visibility.sql}
     ORDER BY bm25(memories_fts, 1.0, 0.5, 0.25), m.rowid LIMIT ?`,
    match,
    JSON.stringify(scopes),
    ...(query.layers === undefined ? [] : [JSON.stringify(query.layers)]),
    ...visibility.params,
    candidates,
  );
}

/** Scopes holding at least this share of the store rank inside FTS5 first. */
const FTS_FIRST_SHARE = 0.3;
const FTS_FIRST_MAX = 20_000;

/**
 * The same candidates as `joinedCandidates`, faster when the scopes hold most of the store: FTS5 ranks
 * its matches alone (no join per match), then the best of them are filtered by scope, layer and time.
 * Both orders are bm25 then rowid, so the first `candidates` survivors are exactly the joined query's
 * rows. `null` when it does not apply or the window held too few survivors (then the join decides).
 */
function ftsFirst(
  connection: SqliteConnection,
  statistics: LexicalStatistics,
  query: LexicalQuery,
  scopes: readonly Scope[],
  match: string,
  candidates: number,
): CandidateRow[] | null {
  const share = statistics.share(connection, scopes);
  if (share < FTS_FIRST_SHARE) return null;
  const window = Math.min(FTS_FIRST_MAX, Math.ceil((candidates / share) * 1.5));
  const ranked = connection.all<{ rowid: number }>(
    'SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY bm25(memories_fts, 1.0, 0.5, 0.25), rowid LIMIT ?',
    match,
    window,
  );
  if (ranked.length === 0) return [];
  const visibility = visibilityClause(query, query.now, 'm');
  const layers = query.layers === undefined ? '' : ` AND ${inList('m.layer')}`;
  const rows = connection.all<CandidateRow & { rowid: number }>(
    `SELECT m.rowid AS rowid, m.id AS id, m.content AS content, m.tags AS tags, m.entities AS entities, m.term_count AS term_count
     FROM memories m
     WHERE m.rowid IN (SELECT value FROM json_each(?)) AND ${inList('m.scope')}${layers} AND ${visibility.sql}`,
    JSON.stringify(ranked.map((r) => r.rowid)),
    JSON.stringify(scopes),
    ...(query.layers === undefined ? [] : [JSON.stringify(query.layers)]),
    ...visibility.params,
  );
  const byRowid = new Map(rows.map((row) => [row.rowid, row]));
  const kept: CandidateRow[] = [];
  for (const { rowid } of ranked) {
    const row = byRowid.get(rowid);
    if (row === undefined) continue;
    kept.push({ id: row.id, content: row.content, tags: row.tags, entities: row.entities, term_count: row.term_count });
    if (kept.length === candidates) return kept;
  }
  // Every match was in the window, so the survivors are all there are; otherwise let the join decide.
  return ranked.length < window ? kept : null;
}
