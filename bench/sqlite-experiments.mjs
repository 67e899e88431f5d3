#!/usr/bin/env node
// Experiments behind suggested src changes, on a scratch copy of the cached 100k recall corpus (run
// `npm run bench:recall` first): `node bench/sqlite-experiments.mjs [--size 100000] [--queries 100]`.
// 1. lexical search: the store's query (scope filter after FTS) against ranking inside FTS first, and
//    against a scope token column inside the FTS index (`scopekey : "…" AND (…)`);
// 2. temporal search: the store's query against the same query with an expression index on
//    (scope, coalesce(occurred_at, valid_from));
// 3. vector search of a 10k scope: sqlite-vec (below memoryIndexThreshold) against the in-memory index.
// Writes bench/results/sqlite-experiments.json.
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { CORPUS_SEED, MAIN_SCOPE, SMALL_SCOPES, assertBuilt } from './corpus-db.mjs';
import { CACHE_DIR, makeQueries, percentiles, printTable, writeResult, removeDatabaseFiles } from './lib.mjs';

const { values: args } = parseArgs({
  options: { size: { type: 'string', default: '100000' }, queries: { type: 'string', default: '100' } },
});
assertBuilt();
const size = Number(args.size);
const corpus = readdirSync(CACHE_DIR).find(
  (name) => name.startsWith(`corpus-${size}-static-`) && name.endsWith('.db') && !name.includes('.building'),
);
if (corpus === undefined) throw new Error(`no cached corpus of ${size}: run npm run bench:recall -- --sizes ${size} first`);
const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { contentTerms } = await import(dist('core/text/index.js'));
const { buildFtsQuery } = await import(dist('storage/sqlite/lexical/fts-query.js'));
const scratch = join(CACHE_DIR, `experiments-${process.pid}.db`);
copyFileSync(join(CACHE_DIR, corpus), scratch);
const db = new Database(scratch);
const queries = makeQueries({ seed: 7_777, count: Number(args.queries), corpusSeed: CORPUS_SEED, corpusSize: size })
  .map((q) => ({ ...q, match: buildFtsQuery(contentTerms(q.text).map((term) => ({ term })))?.match }))
  .filter((q) => q.match !== undefined);
const rows = [];
const measure = (experiment, variant, run) => {
  for (const q of queries.slice(0, 5)) run(q);
  const times = [];
  let results = 0;
  for (const q of queries) {
    const t = performance.now();
    results += run(q).length;
    times.push(performance.now() - t);
  }
  rows.push({ experiment, variant, results, ...percentiles(times) });
};

// 1. lexical
const visible = "m.status = 'active' AND m.invalidated_at IS NULL";
const storeQuery = db.prepare(`SELECT m.id, bm25(memories_fts) AS s FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
  WHERE memories_fts MATCH ? AND m.scope IN (SELECT value FROM json_each(?)) AND ${visible} ORDER BY s, m.rowid LIMIT 100`);
const ftsFirst =
  db.prepare(`SELECT m.id, f.s FROM (SELECT rowid, bm25(memories_fts) AS s FROM memories_fts WHERE memories_fts MATCH ? ORDER BY s LIMIT 400) f
  JOIN memories m ON m.rowid = f.rowid WHERE m.scope IN (SELECT value FROM json_each(?)) AND ${visible} ORDER BY f.s, m.rowid LIMIT 100`);
db.exec(`CREATE VIRTUAL TABLE fts_scoped USING fts5 (content, tags, entities, scopekey, tokenize = 'porter unicode61');
  INSERT INTO fts_scoped (rowid, content, tags, entities, scopekey) SELECT rowid, content, tags, entities, 's' || lower(hex(scope)) FROM memories;`);
const scoped = db.prepare(`SELECT m.id, bm25(fts_scoped, 1, 1, 1, 0) AS s FROM fts_scoped JOIN memories m ON m.rowid = fts_scoped.rowid
  WHERE fts_scoped MATCH ? AND m.scope IN (SELECT value FROM json_each(?)) AND ${visible} ORDER BY s, m.rowid LIMIT 100`);
const scopeToken = (scope) => `scopekey : "s${Buffer.from(scope).toString('hex')}"`;
for (const [label, scope] of [
  ['main scope', MAIN_SCOPE],
  ['one small scope', SMALL_SCOPES[0]],
]) {
  const scopes = JSON.stringify([scope]);
  measure(`lexical, ${label}`, 'store query: FTS match, join, filter, sort', (q) => storeQuery.all(q.match, scopes));
  // only sound with a retry when the scope filter leaves fewer than the limit (as vector search does)
  if (scope === MAIN_SCOPE) measure(`lexical, ${label}`, 'rank in FTS first (top 400), then join', (q) => ftsFirst.all(q.match, scopes));
  measure(`lexical, ${label}`, 'scope token column in FTS', (q) => scoped.all(`${scopeToken(scope)} AND (${q.match})`, scopes));
}

// 2. temporal
const temporal = `SELECT m.id, coalesce(m.occurred_at, m.valid_from) AS t FROM memories m
  WHERE m.scope = ? AND coalesce(m.occurred_at, m.valid_from) >= ? AND coalesce(m.occurred_at, m.valid_from) < ? AND ${visible}
  ORDER BY t DESC, m.id DESC LIMIT 100`;
const corpusEnd = Date.parse('2025-06-01T00:00:00Z');
const DAY = 86_400_000;
const windows = queries.map((_, i) => [corpusEnd - (i % 40) * 9 * DAY - 7 * DAY, corpusEnd - (i % 40) * 9 * DAY]);
let statement = db.prepare(temporal);
let w = 0;
measure('temporal, a week', 'store query (no usable index)', () => statement.all(MAIN_SCOPE, ...windows[w++ % windows.length]));
db.exec('CREATE INDEX memories_scope_event_time ON memories (scope, coalesce(occurred_at, valid_from))');
statement = db.prepare(temporal);
measure('temporal, a week', 'expression index (scope, coalesce(…))', () => statement.all(MAIN_SCOPE, ...windows[w++ % windows.length]));
db.close();

// 3. vector search of a 10k scope (a cached 10k corpus)
const corpus10k = readdirSync(CACHE_DIR).find(
  (name) => name.startsWith('corpus-10000-static-') && name.endsWith('.db') && !name.includes('.building'),
);
if (corpus10k !== undefined) {
  const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
  const { StaticEmbedder } = await import(dist('embeddings/static/index.js'));
  const embedder = StaticEmbedder.create();
  const vectors = new Map();
  for (const q of queries) vectors.set(q, (await embedder.embed([q.text]))[0]);
  const copy = join(CACHE_DIR, `experiments-${process.pid}-10k.db`);
  copyFileSync(join(CACHE_DIR, corpus10k), copy);
  for (const [variant, memoryIndexThreshold] of [
    ['sqlite-vec (default threshold 20000)', 20_000],
    ['in-memory index (threshold 0)', 0],
  ]) {
    const store = await openSqliteStore({
      path: copy,
      embedding: { name: embedder.name, dimension: 512 },
      memoryIndexThreshold,
      vectorIndex: 'exact',
    });
    const times = [];
    for (const [i, q] of queries.entries()) {
      const t = performance.now();
      await store.vectorSearch({ scopes: [MAIN_SCOPE], now: Date.now(), limit: 100, vector: vectors.get(q) });
      if (i >= 5) times.push(performance.now() - t);
    }
    rows.push({ experiment: 'vector, 10k scope, exact', variant, results: 100 * times.length, ...percentiles(times) });
    await store.close();
  }
  removeDatabaseFiles(copy);
}
removeDatabaseFiles(scratch);

printTable(
  `SQLite experiments on a copy of the ${size.toLocaleString('en-US')}-memory corpus, ms per query (${queries.length} queries)`,
  [
    ['experiment', 'experiment'],
    ['variant', 'variant'],
    ['p50', 'p50', 2],
    ['p95', 'p95', 2],
    ['p99', 'p99', 2],
    ['rows returned', 'results', 0],
  ],
  rows,
);
writeResult('sqlite-experiments', { size, queries: queries.length, rows });
