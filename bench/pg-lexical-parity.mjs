#!/usr/bin/env node
// The PostgreSQL store's lexical channel against the SQLite store's on the same corpus:
//   ENGRAM_TEST_PG_URL=postgres://… node bench/pg-lexical-parity.mjs [--size 100000] [--queries 200]
//     [--dist /path/to/dist]   (the PostgreSQL store of another build, e.g. an older commit's worktree)
// Both corpora are the benchmark corpus (bench/corpus-db.mjs, bench/pg-corpus.mjs; built when missing).
// For each query (makeQueries), the content terms go to both stores' lexicalSearch (limit 100, recall's
// BM25 parameters); the SQLite store ranks every matching row by BM25, so it is the reference. Hits are
// compared by content, since the two corpora were written with their own ids. Prints the mean top-10
// and top-100 overlap, how many top 10s are identical, and the PostgreSQL search p50. No result file:
// performance.md quotes the lines.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CORPUS_SEED, MAIN_SCOPE, ensureCorpus } from './corpus-db.mjs';
import { REPO_DIR, log, makeQueries, percentiles } from './lib.mjs';
import { ensurePostgresCorpus } from './pg-corpus.mjs';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '200' },
    dist: { type: 'string', default: join(REPO_DIR, 'dist') },
  },
});
const size = Number(args.size);
const embedding = { name: 'static-use-lite:512:v1', dimension: 512 };
const { openSqliteStore } = await import(pathToFileURL(join(REPO_DIR, 'dist/storage/sqlite/index.js')).href);
const { openPostgresStore } = await import(pathToFileURL(join(args.dist, 'storage/postgres/index.js')).href);
const { contentTerms } = await import(pathToFileURL(join(REPO_DIR, 'dist/core/text/index.js')).href);

const pgCorpus = await ensurePostgresCorpus(size);
if (pgCorpus === null) {
  process.stderr.write('set ENGRAM_TEST_PG_URL (or ENGRAM_BENCH_PG_URL) to a PostgreSQL server\n');
  process.exit(2);
}
const { path } = await ensureCorpus({ size, vectorSource: 'static' });
const pg = await openPostgresStore({ url: pgCorpus.url, embedding });
const sqlite = await openSqliteStore({ path, embedding, readonly: true, logger: { info() {}, warn() {} } });
const contents = async (store, hits) => {
  const records = new Map(
    (
      await store.getMemories(
        hits.map((h) => h.id),
        [MAIN_SCOPE],
      )
    ).map((r) => [r.id, r.content]),
  );
  return hits.map((h) => records.get(h.id));
};
const overlap = (a, b, k) => {
  const reference = new Set(b.slice(0, k));
  return a.slice(0, k).filter((c) => reference.has(c)).length / Math.max(1, Math.min(k, b.length));
};
const texts = makeQueries({ seed: 4242, count: Number(args.queries), corpusSeed: CORPUS_SEED, corpusSize: size }).map((q) => q.text);
const now = Date.now();
let top10 = 0;
let top100 = 0;
let identical = 0;
let compared = 0;
const times = [];
for (const text of texts) {
  const terms = [...new Set(contentTerms(text))].map((term) => ({ term }));
  if (terms.length === 0) continue;
  const query = { scopes: [MAIN_SCOPE], terms, limit: 100, now, bm25: { k1: 1.2, b: 0.4 } };
  const started = performance.now();
  const pgHits = await pg.lexicalSearch(query);
  times.push(performance.now() - started);
  const [a, b] = [await contents(pg, pgHits), await contents(sqlite, await sqlite.lexicalSearch(query))];
  top10 += overlap(a, b, 10);
  top100 += overlap(a, b, 100);
  if (a.slice(0, 10).join('\n') === b.slice(0, 10).join('\n')) identical += 1;
  compared += 1;
}
await pg.close();
await sqlite.close();
log(`PostgreSQL store of ${args.dist}`);
process.stdout.write(
  `${size} memories, ${compared} queries: top-10 overlap ${(top10 / compared).toFixed(4)}, top-100 overlap ${(top100 / compared).toFixed(4)}, identical top 10 ${identical}, PostgreSQL lexical search p50 ${percentiles(times).p50.toFixed(1)} ms\n`,
);
