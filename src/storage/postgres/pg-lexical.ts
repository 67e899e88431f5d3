/**
 * BM25 with the statistics of the scopes being searched, as in the SQLite store: the GIN-indexed
 * tsvector finds candidates (pre-ranked by ts_rank), which are rescored with scope-local document
 * frequencies and lengths and the same stemming, field weights and formula as `sqlite-lexical.ts`,
 * so both stores rank alike.
 */
import type { ChannelHit, LexicalQuery } from '../../core/ports/store.js';
import { assertReadScopes } from '../../core/scope.js';
import type { PgQueryable } from './pg-driver.js';
import { isIndexable, Params, quoteLexeme, termCounts, termLength, tsqueryOf, visibilityClause, type Tables } from './pg-rows.js';

/** How many candidates per requested hit are rescored. */
const CANDIDATES_PER_HIT = 4;
const MIN_CANDIDATES = 200;
/** Tags count this much relative to the content. */
const TAG_WEIGHT = 0.5;
/** Entities (usually also in the content) count this much. */
const ENTITY_WEIGHT = 0.25;
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
     ORDER BY ts_rank(m.lexemes, ${tsquery}::tsquery) DESC, m.seq LIMIT ${p.add(Math.max(MIN_CANDIDATES, limit * CANDIDATES_PER_HIT))}`,
    p.values,
  );
  if (rows.rows.length === 0) return [];
  const { docs, avgLength, df } = await collectStatistics(db, tables, scopes, stems);
  const k1 = query.bm25?.k1 ?? 1.2;
  const b = query.bm25?.b ?? 0.75;
  const idf = new Map(
    stems.map((s) => {
      const n = Math.min(df.get(s) ?? 0, docs);
      return [s, Math.log(1 + (docs - n + 0.5) / (n + 0.5))];
    }),
  );
  const scored: ChannelHit[] = [];
  for (const row of rows.rows) {
    const counts = termCounts(row.content);
    const tagCounts = termCounts((JSON.parse(row.tags) as string[]).join(' '));
    const entityCounts = termCounts((JSON.parse(row.entities) as string[]).join(' '));
    const length = row.term_count ?? termLength(row.content);
    const norm = k1 * (1 - b + (b * length) / (avgLength || 1));
    let score = 0;
    for (const [s, weight] of weights) {
      const tf = (counts.get(s) ?? 0) + TAG_WEIGHT * (tagCounts.get(s) ?? 0) + ENTITY_WEIGHT * (entityCounts.get(s) ?? 0);
      if (tf > 0) score += weight * (idf.get(s) ?? 0) * ((tf * (k1 + 1)) / (tf + norm));
    }
    if (score > 0) scored.push({ id: row.id, score });
  }
  return scored.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1)).slice(0, limit);
}

/**
 * Documents, mean length and document frequencies of `stems` over `scopes` (every record of those
 * scopes, whatever its status, like the SQLite store's FTS statistics). Read fresh on each search:
 * several servers may write the same scopes, so there is no per-process cache to invalidate.
 */
async function collectStatistics(
  db: PgQueryable,
  tables: Tables,
  scopes: readonly string[],
  stems: readonly string[],
): Promise<{ docs: number; avgLength: number; df: Map<string, number> }> {
  const result = await db.query<{ docs: number; total: number; df: number[] }>(
    `SELECT (SELECT count(*)::int FROM ${tables.memories} WHERE scope = ANY($1::text[])) AS docs,
            (SELECT coalesce(sum(term_count), 0)::float8 FROM ${tables.memories} WHERE scope = ANY($1::text[])) AS total,
            ARRAY(SELECT (SELECT count(*)::int FROM ${tables.memories} m WHERE m.scope = ANY($1::text[]) AND m.lexemes @@ q.q::tsquery)
                  FROM unnest($2::text[]) WITH ORDINALITY AS q(q, i) ORDER BY q.i) AS df`,
    [[...scopes], stems.map(quoteLexeme)],
  );
  const row = result.rows[0];
  const docs = Number(row?.docs ?? 0);
  const total = Number(row?.total ?? 0);
  const df = new Map(stems.map((s, i) => [s, Number(row?.df[i] ?? 0)]));
  return { docs, avgLength: docs > 0 ? total / docs : 1, df };
}
