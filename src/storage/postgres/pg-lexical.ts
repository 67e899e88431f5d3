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
  const p = new Params();
  const tsquery = p.add(tsqueryOf(stems));
  const where = [`m.scope = ANY(${p.add(scopes)}::text[])`, `m.lexemes @@ ${tsquery}::tsquery`];
  if (query.layers !== undefined) where.push(`m.layer = ANY(${p.add([...query.layers])}::text[])`);
  where.push(visibilityClause(query, query.now, 'm', p));
  const rows = await db.query<{ id: string; content: string; tags: string; entities: string; term_count: number | null }>(
    `SELECT m.id, m.content, m.tags, m.entities, m.term_count FROM ${tables.memories} m
     WHERE ${where.join(' AND ')}
     ORDER BY ts_rank(m.lexemes, ${tsquery}::tsquery) DESC, m.seq LIMIT ${p.add(Math.max(BM25_MIN_CANDIDATES, limit * BM25_CANDIDATES_PER_HIT))}`,
    p.values,
  );
  if (rows.rows.length === 0) return [];
  return rankBm25(rows.rows, weights, await collectStatistics(db, tables, scopes, stems), query.bm25, limit, termCountCache);
}

/** Scopes at least this large may use statistics up to `STALE_OK_MS` old (as the SQLite store does). */
const STALE_OK_DOCS = 5_000;
const STALE_OK_MS = 5_000;

interface ScopeStatistics {
  docs: number;
  total: number;
  df: Map<string, number>;
  computedAt: number;
}

/** Per store (keyed by its table names object): statistics of large scopes, reused for a few seconds. */
const cached = new WeakMap<Tables, Map<string, ScopeStatistics>>();

/**
 * Documents, mean length and document frequencies of `stems` over `scopes` (every record of those
 * scopes, whatever its status, like the SQLite store's FTS statistics). Small scopes are read fresh on
 * each search; large ones (≥ 5 000 records) keep theirs for 5 s, so a busy scope does not recount on
 * every search — statistics need not be exact, and several servers may write the same scope anyway.
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
    let stats = byScope.get(scope);
    const fresh = stats !== undefined && stats.docs >= STALE_OK_DOCS && Date.now() - stats.computedAt < STALE_OK_MS;
    const missing = fresh ? stems.filter((s) => !stats!.df.has(s)) : [...stems];
    if (!fresh) {
      const result = await db.query<{ docs: number; total: number; df: number[] }>(
        `SELECT (SELECT count(*)::int FROM ${tables.memories} WHERE scope = $1) AS docs,
                (SELECT coalesce(sum(term_count), 0)::float8 FROM ${tables.memories} WHERE scope = $1) AS total,
                ${documentFrequencies(tables)} AS df`,
        [scope, missing.map(quoteLexeme)],
      );
      const row = result.rows[0];
      stats = { docs: Number(row?.docs ?? 0), total: Number(row?.total ?? 0), df: new Map(), computedAt: Date.now() };
      if (stats.docs >= STALE_OK_DOCS) byScope.set(scope, stats);
      else byScope.delete(scope);
      missing.forEach((s, i) => stats!.df.set(s, Number(row?.df[i] ?? 0)));
    } else if (missing.length > 0) {
      // the scope's size and length are still fresh: count only the stems not seen yet (recounting them
      // read the whole scope, ~200 ms at 100k records, on nearly every search with a new word)
      const result = await db.query<{ df: number[] }>(`SELECT ${documentFrequencies(tables)} AS df`, [scope, missing.map(quoteLexeme)]);
      const row = result.rows[0];
      missing.forEach((s, i) => stats!.df.set(s, Number(row?.df[i] ?? 0)));
    }
    docs += stats!.docs;
    total += stats!.total;
    for (const s of stems) df.set(s, (df.get(s) ?? 0) + (stats!.df.get(s) ?? 0));
  }
  return { docs, avgLength: docs > 0 ? total / docs : 1, df };
}

/** Per stem of `$2` (quoted lexemes), in order: how many records of scope `$1` contain it. */
function documentFrequencies(tables: Tables): string {
  return `ARRAY(SELECT (SELECT count(*)::int FROM ${tables.memories} m WHERE m.scope = $1 AND m.lexemes @@ q.q::tsquery)
                FROM unnest($2::text[]) WITH ORDINALITY AS q(q, i) ORDER BY q.i)`;
}
