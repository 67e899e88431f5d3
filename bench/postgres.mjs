#!/usr/bin/env node
// Recall latency on the PostgreSQL store vs SQLite: `npm run bench:postgres [-- --size 10000 --queries 100]`.
//
// The cached benchmark corpus (bench/corpus-db.mjs, static-table vectors) is copied with `engram migrate`
// into (a) the PostgreSQL server named by ENGRAM_TEST_PG_URL / --pg-url (no pgvector here: exact search
// over real[]), and (b) PGlite with pgvector (HNSW above the store's 20 000-record threshold, exact below),
// then the same queries are recalled (k=10, default weights) on each, plus the raw vector and lexical
// channels. Results: bench/results/postgres.{json,md}.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CORPUS_SEED, MAIN_SCOPE, assertBuilt, ensureCorpus } from './corpus-db.mjs';
import { RESULTS_DIR, dropSchema, log, makeQueries, percentiles, printTable, since, writeResult, newEngineCore } from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '10' },
    'pg-url': { type: 'string', default: process.env.ENGRAM_TEST_PG_URL ?? '' },
    'skip-pglite': { type: 'boolean', default: false },
    // result file name under bench/results (e.g. to keep a PGlite-only run apart)
    name: { type: 'string', default: 'postgres' },
  },
});

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

async function measure(label, store, embedder, queries, warmups, extra = {}) {
  const engram = await newEngineCore({ store, embedder });
  const main = { scopes: [MAIN_SCOPE], k: 10, trackAccess: false };
  for (const q of warmups) await engram.recall(q.text, main);
  const time = async (fn) => {
    const times = [];
    for (const q of queries) {
      const t = performance.now();
      await fn(q);
      times.push(since(t));
    }
    return percentiles(times);
  };
  const top = [];
  const recall = await time(async (q) => top.push((await engram.recall(q.text, main)).hits.map((h) => h.id)));
  const vectors = new Map();
  for (const q of queries) vectors.set(q, (await embedder.embed([q.text]))[0]);
  const now = Date.now();
  const vector = await time((q) => store.vectorSearch({ scopes: [MAIN_SCOPE], now, limit: 40, vector: vectors.get(q) }));
  const lexical = await time((q) => store.lexicalSearch({ scopes: [MAIN_SCOPE], now, limit: 40, terms: [{ term: q.text }] }));
  return {
    backend: label,
    ...extra,
    recallP50: recall.p50,
    recallP95: recall.p95,
    recallP99: recall.p99,
    vectorP50: vector.p50,
    lexicalP50: lexical.p50,
    top,
  };
}

async function main() {
  assertBuilt();
  const size = Number(args.size);
  const corpus = await ensureCorpus({ size, vectorSource: 'static' });
  const { StaticEmbedder } = await import(dist('embeddings/static/index.js'));
  const embedder = await StaticEmbedder.create();
  await embedder.warmUp?.();
  const embedding = { name: corpus.manifest.embedderName, dimension: embedder.dimension };
  const queries = makeQueries({ seed: 7_777, count: Number(args.queries), corpusSeed: CORPUS_SEED, corpusSize: size });
  const warmups = makeQueries({ seed: 8_888, count: Number(args.warmup), corpusSeed: CORPUS_SEED, corpusSize: size });
  const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
  const postgres = await import(dist('storage/postgres/index.js'));
  const { migrateSqliteToPostgres } = await import(dist('storage/migrate/sqlite-to-postgres.js'));
  /** @type {any[]} */
  const rows = [];

  log(`SQLite: ${corpus.path}`);
  const sqlite = await openSqliteStore({ path: corpus.path, embedding, readonly: true });
  rows.push(await measure('SQLite (exact)', sqlite, embedder, queries, warmups, { copySeconds: 0 }));
  await sqlite.close();

  if (args['pg-url']) {
    const schema = `bench_${size}`;
    const url = new URL(args['pg-url']);
    url.searchParams.set('schema', schema);
    await dropSchema(args['pg-url'], schema);
    log(`PostgreSQL: migrating ${size} memories into ${schema}`);
    const report = await migrateSqliteToPostgres({ from: corpus.path, to: url.toString() });
    if (!report.ok) throw new Error('migration verification failed');
    const store = await postgres.openPostgresStore({ url: url.toString(), embedding });
    rows.push(
      await measure(
        `PostgreSQL 15 server (${store.vectorStorage === 'pgvector' ? 'pgvector' : 'exact real[]'})`,
        store,
        embedder,
        queries,
        warmups,
        { copySeconds: report.durationMs / 1000 },
      ),
    );
    await store.close();
  } else log('PostgreSQL server: skipped (set ENGRAM_TEST_PG_URL or --pg-url)');

  if (!args['skip-pglite']) {
    const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
    const pglite = await postgres.createPglite();
    const port = await freePort();
    const server = new PGLiteSocketServer({ db: pglite, port, host: '127.0.0.1' });
    await server.start();
    log(`PGlite + pgvector: migrating ${size} memories`);
    const report = await migrateSqliteToPostgres({ from: corpus.path, to: `postgres://postgres@127.0.0.1:${port}/postgres?schema=bench` });
    await server.stop();
    if (!report.ok) throw new Error('migration verification failed');
    for (const [label, annThreshold] of [
      ['PGlite + pgvector (exact)', Infinity],
      ['PGlite + pgvector (HNSW)', 0],
    ]) {
      const store = await postgres.openPgliteStore({ pglite, schema: 'bench', embedding, annThreshold });
      rows.push(await measure(label, store, embedder, queries, warmups, { copySeconds: report.durationMs / 1000 }));
      await store.close();
    }
    await pglite.close();
  }

  const reference = rows[0].top;
  for (const row of rows) {
    let same = 0;
    let total = 0;
    row.top.forEach((ids, i) => {
      const ref = new Set(reference[i]);
      total += ref.size;
      same += ids.filter((id) => ref.has(id)).length;
    });
    row.overlapWithSqlite = total === 0 ? 1 : same / total;
    delete row.top;
  }
  const columns = [
    ['backend', 'backend'],
    ['recall p50 ms', 'recallP50'],
    ['p95', 'recallP95'],
    ['p99', 'recallP99'],
    ['vector p50', 'vectorP50'],
    ['lexical p50', 'lexicalP50'],
    ['top-10 overlap', 'overlapWithSqlite', 3],
    ['load s', 'copySeconds'],
  ];
  printTable(`Recall at ${size} memories (scope ${MAIN_SCOPE}), ${queries.length} queries, k=10`, columns, rows);
  writeResult(args.name, { size, queries: queries.length, rows });
  const md = [
    `# PostgreSQL vs SQLite recall, ${size} memories`,
    '',
    '| backend | recall p50 ms | p95 | p99 | vector p50 | lexical p50 | top-10 overlap with SQLite | load (migrate) s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.backend} | ${r.recallP50.toFixed(1)} | ${r.recallP95.toFixed(1)} | ${r.recallP99.toFixed(1)} | ${r.vectorP50.toFixed(1)} | ${r.lexicalP50.toFixed(1)} | ${r.overlapWithSqlite.toFixed(3)} | ${r.copySeconds.toFixed(1)} |`,
    ),
    '',
  ].join('\n');
  writeFileSync(join(RESULTS_DIR, `${args.name}.md`), md);
  await embedder.close?.();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
