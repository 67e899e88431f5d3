/**
 * BM25 with the statistics of the scopes being searched, as in the SQLite store: the GIN-indexed
 * tsvector finds candidates (pre-ranked by ts_rank), which are rescored with scope-local document
 * frequencies and lengths and the same stemming, field weights and formula as `sqlite-lexical.ts`,
 * so both stores rank alike.
 */
import type { ChannelHit, LexicalQuery } from '../../core/ports/store.js';
import { assertReadScopes } from '../../core/scope.js';
import type { PgQueryable } from './pg-driver.js';
import { BM25_CANDIDATES_PER_HIT, BM25_MIN_CANDIDATES, rankBm25, TermCountCache } from '../../core/text/bm25.js';
import { isIndexable, Params, quoteLexeme, termCounts, tsqueryOf, visibilityClause, type Tables } from './pg-rows.js';

/** Candidates' term counts by text (a pure function of the text, so one memo serves every store). */
const termCountCache = new TermCountCache();

/** Bounds the work one query can cause. */
const MAX_STEMS = 64;

/** Lexical search: the tsvector finds candidates, scope-local BM25 (k1, b) ranks them. */
export async function searchLexical(db: PgQueryable, tables: Tables, query: LexicalQuery): Promise<ChannelHit[]> {
  const scopes = [...assertReadScopes(query.scopes)];
  const limit = Math.floor(query.limit);
  const weights = new Map<string, number>();
  for (const { term, weight = 1 } of query.terms) {
    if (typeof term !== 'string' || !(weight > 0) || !Number.isFinite(weight)) continue;
    for (const [s] of termCounts(term)) {
      if (!isIndexable(s)) continue;
      if (!weights.has(s) && weights.size >= MAX_STEMS) continue;
      weights.set(s, Math.max(weights.get(s) ?? 0, weight));
    }
  }
  if (weights.size === 0 || !(limit > 0) || query.layers?.length === 0) return [];
  const stems = [...weights.keys()];
  const statistics = await collectStatistics(db, tables, scopes, stems);
  const wanted = Math.max(BM25_MIN_CANDIDATES, limit * BM25_CANDIDATES_PER_HIT);
  const { selective, frequent } = splitByFrequency(stems, statistics.df, RANKED_ROWS);
  const rows = selective.length > 0 ? await rankedCandidates(db, tables, query, scopes, selective, stems, wanted) : [];
  if (frequent.length > 0 && rows.length < wanted) {
    // every row with a selective word is in: the rest are the newest rows with the frequent words
    // each scope's newest along its own index, then the newest of them all, so no scope crowds out another
    const need = wanted - rows.length;
    const recent: { row: CandidateRow; seq: bigint }[] = [];
    for (const scope of scopes)
      for (const row of await recentCandidates(db, tables, query, scope, frequent, selective, need))
        recent.push({ row, seq: BigInt(row.seq) });
    recent.sort((a, b) => (a.seq === b.seq ? 0 : a.seq > b.seq ? -1 : 1));
    rows.push(...recent.slice(0, need).map((r) => r.row));
  }
  if (rows.length === 0) return [];
  return rankBm25(rows, weights, statistics, query.bm25, limit, termCountCache);
}

/**
 * How many rows matching the query the candidate statement may rank. Ranking costs ~0.5 µs a row with
 * the page in memory (and a page read when not): a word in every turn of a 100,000-turn chat (a
 * speaker's name) made it ~145 ms. Below this, every matching row is ranked, as the SQLite store does.
 */
export const RANKED_ROWS = 5_000;

type CandidateRow = { id: string; content: string; tags: string; entities: string; term_count: number | null };

/**
 * The rarest stems whose rows add up to at most `bound` (all of them when they do), and the rest. BM25
 * gives a word in most of the scope little weight, so candidates found by the rare words alone are the
 * best ones whenever those words match enough rows; the frequent words still count in the ranking.
 */
export function splitByFrequency(
  stems: readonly string[],
  df: ReadonlyMap<string, number>,
  bound: number,
): { selective: string[]; frequent: string[] } {
  const count = (s: string) => df.get(s) ?? 0;
  if (stems.reduce((sum, s) => sum + count(s), 0) <= bound) return { selective: [...stems], frequent: [] };
  const byRarity = [...stems].sort((a, b) => count(a) - count(b) || (a < b ? -1 : 1));
  const selective: string[] = [];
  let rows = 0;
  for (const s of byRarity) {
    if (rows + count(s) > bound) break;
    rows += count(s);
    selective.push(s);
  }
  return { selective, frequent: byRarity.slice(selective.length) };
}

/** Rows with any of `match`, the `wanted` best by ts_rank over all the query's `stems`. */
async function rankedCandidates(
  db: PgQueryable,
  tables: Tables,
  query: LexicalQuery,
  scopes: readonly string[],
  match: readonly string[],
  stems: readonly string[],
  wanted: number,
): Promise<CandidateRow[]> {
  const p = new Params();
  const ranked = p.add(tsqueryOf(stems));
  const where = candidateFilter(
    query,
    p,
    tables,
    `m.scope = ANY(${p.add(scopes)}::text[])`,
    `m.lexemes @@ ${p.add(tsqueryOf(match))}::tsquery`,
  );
  const result = await db.query<CandidateRow>(
    `SELECT m.id, m.content, m.tags, m.entities, m.term_count FROM ${tables.memories} m
     WHERE ${where}
     ORDER BY ts_rank(m.lexemes, ${ranked}::tsquery) DESC, m.seq LIMIT ${p.add(wanted)}`,
    p.values,
  );
  return result.rows;
}

/**
 * The newest `wanted` rows of `scope` with any of `frequent` and none of `excluded` (those were all
 * ranked already), with their sequence numbers. Newest first along a sequence index (the planner took the
 * table's `memories_seq`, walked backwards), it stops after `wanted` matches instead of ranking the many
 * rows these words are in.
 */
async function recentCandidates(
  db: PgQueryable,
  tables: Tables,
  query: LexicalQuery,
  scope: string,
  frequent: readonly string[],
  excluded: readonly string[],
  wanted: number,
): Promise<(CandidateRow & { seq: string })[]> {
  const p = new Params();
  const filters = [`m.scope = ${p.add(scope)}`, `m.lexemes @@ ${p.add(tsqueryOf(frequent))}::tsquery`];
  if (excluded.length > 0) filters.push(`NOT (m.lexemes @@ ${p.add(tsqueryOf(excluded))}::tsquery)`);
  const result = await db.query<CandidateRow & { seq: string }>(
    `SELECT m.id, m.content, m.tags, m.entities, m.term_count, m.seq::text AS seq FROM ${tables.memories} m
     WHERE ${candidateFilter(query, p, tables, ...filters)}
     ORDER BY m.seq DESC LIMIT ${p.add(wanted)}`,
    p.values,
  );
  return result.rows;
}

/** `filters` and the query's layer and visibility conditions, joined. */
function candidateFilter(query: LexicalQuery, p: Params, tables: Tables, ...filters: string[]): string {
  const where = [...filters];
  if (query.layers !== undefined) where.push(`m.layer = ANY(${p.add([...query.layers])}::text[])`);
  where.push(visibilityClause(query, query.now, 'm', p, tables));
  return where.join(' AND ');
}

/**
 * Scopes at least this large may use their size and mean length up to `STALE_OK_MS` old, and a
 * word's document frequency up to `DF_STALE_OK_MS` old (as the SQLite store does, statistics need not
 * be exact: several servers may write the same scope anyway). Counting a word costs a visit of every
 * row it is in (~2 µs each, ~10 ms for a word in 4,000 rows), and the words in most rows are the ones
 * every query repeats (a speaker's name); a word's share of a scope this large moves little in a minute.
 */
const STALE_OK_DOCS = 5_000;
const STALE_OK_MS = 5_000;
const DF_STALE_OK_MS = 60_000;
/** A large scope's word counts kept before the stale ones are dropped. */
const MAX_KEPT_WORDS = 4_096;

interface ScopeStatistics {
  docs: number;
  total: number;
  computedAt: number;
  /** Document frequency by stem, and when it was counted. */
  readonly df: Map<string, { count: number; countedAt: number }>;
  /** Counts in flight by stem, and the size's refresh in flight: a search that needs them waits for them. */
  readonly counting: Map<string, Promise<void>>;
  resizing: Promise<void> | undefined;
}

/** Per store (keyed by its table names object): statistics of large scopes, reused for a while. */
const cached = new WeakMap<Tables, Map<string, ScopeStatistics>>();

/**
 * Documents, mean length and document frequencies of `stems` over `scopes` (every record of those
 * scopes, whatever its status, like the SQLite store's FTS statistics). Small scopes are read fresh on
 * each search; large ones (≥ 5 000 records) keep their size for 5 s and each word's count for 60 s, so a
 * busy scope does not recount on every search, and a count already running for another search (a
 * recall's lexical and entity channels ask for the same names at once) is waited for, not run again.
 */
async function collectStatistics(
  db: PgQueryable,
  tables: Tables,
  scopes: readonly string[],
  stems: readonly string[],
): Promise<{ docs: number; avgLength: number; df: Map<string, number> }> {
  let byScope = cached.get(tables);
  if (byScope === undefined) {
    byScope = new Map();
    cached.set(tables, byScope);
  }
  let docs = 0;
  let total = 0;
  const df = new Map<string, number>(stems.map((s) => [s, 0]));
  for (const scope of scopes) {
    const kept = byScope.get(scope);
    const stats =
      kept !== undefined && kept.docs >= STALE_OK_DOCS
        ? await largeScopeStatistics(db, tables, scope, kept, stems)
        : await freshStatistics(db, tables, scope, stems);
    docs += stats.docs;
    total += stats.total;
    for (const s of stems) df.set(s, (df.get(s) ?? 0) + (stats.df.get(s)?.count ?? 0));
    if (stats.docs >= STALE_OK_DOCS) byScope.set(scope, stats);
    else byScope.delete(scope);
  }
  return { docs, avgLength: docs > 0 ? total / docs : 1, df };
}

/** A scope's size and the counts of `stems`, read now in one statement. */
async function freshStatistics(db: PgQueryable, tables: Tables, scope: string, stems: readonly string[]): Promise<ScopeStatistics> {
  const now = Date.now();
  const row = await readCounts(db, tables, scope, true, stems);
  return {
    docs: Number(row?.docs ?? 0),
    total: Number(row?.total ?? 0),
    computedAt: now,
    df: new Map(stems.map((s, i) => [s, { count: Number(row?.df[i] ?? 0), countedAt: now }])),
    counting: new Map(),
    resizing: undefined,
  };
}

/**
 * A large scope's kept statistics with its size refreshed when a few seconds old and the counts of
 * `stems` that are missing or a minute old; what another search is already counting is waited for.
 */
async function largeScopeStatistics(
  db: PgQueryable,
  tables: Tables,
  scope: string,
  kept: ScopeStatistics,
  stems: readonly string[],
): Promise<ScopeStatistics> {
  const now = Date.now();
  const resize = kept.resizing === undefined && now - kept.computedAt >= STALE_OK_MS;
  const missing = stems.filter((s) => {
    if (kept.counting.has(s)) return false;
    const entry = kept.df.get(s);
    return entry === undefined || now - entry.countedAt >= DF_STALE_OK_MS;
  });
  if (resize || missing.length > 0) {
    const work = readCounts(db, tables, scope, resize, missing).then((row) => {
      if (resize) Object.assign(kept, { docs: Number(row?.docs ?? 0), total: Number(row?.total ?? 0), computedAt: now });
      if (kept.df.size > MAX_KEPT_WORDS) for (const [s, entry] of kept.df) if (now - entry.countedAt >= DF_STALE_OK_MS) kept.df.delete(s);
      missing.forEach((s, i) => kept.df.set(s, { count: Number(row?.df[i] ?? 0), countedAt: now }));
    });
    const settled = work.finally(() => {
      for (const s of missing) if (kept.counting.get(s) === settled) kept.counting.delete(s);
      if (kept.resizing === settled) kept.resizing = undefined;
    });
    // awaited below by this search; others that wait for it get its failure, so none goes unhandled
    settled.catch(() => undefined);
    for (const s of missing) kept.counting.set(s, settled);
    if (resize) kept.resizing = settled;
  }
  const waits = new Set([kept.resizing, ...stems.map((s) => kept.counting.get(s))].filter((w) => w !== undefined));
  await Promise.all(waits);
  return kept;
}

/** One statement: the scope's size (when `size`) and the document frequencies of `stems`. */
async function readCounts(
  db: PgQueryable,
  tables: Tables,
  scope: string,
  size: boolean,
  stems: readonly string[],
): Promise<{ docs?: number; total?: number; df: number[] } | undefined> {
  const columns = [
    ...(size
      ? [
          `(SELECT count(*)::int FROM ${tables.memories} WHERE scope = $1) AS docs`,
          `(SELECT coalesce(sum(term_count), 0)::float8 FROM ${tables.memories} WHERE scope = $1) AS total`,
        ]
      : []),
    ...(stems.length > 0 ? [`${documentFrequencies(tables)} AS df`] : []),
  ];
  if (columns.length === 0) return undefined;
  const result = await db.query<{ docs?: number; total?: number; df: number[] }>(
    `SELECT ${columns.join(', ')}`,
    stems.length > 0 ? [scope, stems.map(quoteLexeme)] : [scope],
  );
  return result.rows[0];
}

/** Per stem of `$2` (quoted lexemes), in order: how many records of scope `$1` contain it. */
function documentFrequencies(tables: Tables): string {
  return `ARRAY(SELECT (SELECT count(*)::int FROM ${tables.memories} m WHERE m.scope = $1 AND m.lexemes @@ q.q::tsquery)
                FROM unnest($2::text[]) WITH ORDINALITY AS q(q, i) ORDER BY q.i)`;
}
