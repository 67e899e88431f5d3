#!/usr/bin/env node
// The search expansion of a store's published HNSW index, against exact search over the same vectors:
//   node bench/ann-expansion.mjs [--size 1000000] [--efs 512,640,768,896,1024] [--count 116] [--queries 200] [--path DB]
// Opens the `bench:scale` corpus of --size (bench/scale-corpus.mjs; run `npm run bench:scale` first so its
// main scope's index file exists), views that file at each search expansion, asks it for --count rows
// (recall asks for its 100 candidates and a margin of 16) and re-scores them as the store does (from the
// index's `.vectors` file when it has one). Ground truth: the exact top 10 of every vector of the main
// scope (the store's SIMD scan), no status filter on either side. Writes bench/results/ann-expansion-<size>.json
// (`--path`: ann-expansion-<size>-<quantization>.json). `--path`: another copy of the corpus
// (e.g. one whose index another build of Engram wrote, f16 before 5 December). Prints recall@10 of the re-scored and
// of the index's own order, and the search and re-scoring p50 per query. Run `npm run build` first.
import { parseArgs } from 'node:util';
import { log, makeQueries, percentiles, printTable, writeResult } from './lib.mjs';
import { MAIN_SCOPE, SCALE_SEED, assertBuilt, corpusPaths, dist } from './scale-corpus.mjs';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '1000000' },
    efs: { type: 'string', default: '512,640,768,896,1024' },
    count: { type: 'string', default: '116' },
    queries: { type: 'string', default: '200' },
    path: { type: 'string' },
  },
});

assertBuilt();
const size = Number(args.size);
const count = Number(args.count);
const path = args.path ?? corpusPaths(size).path;
const { openConnection } = await import(dist('storage/sqlite/sqlite-connection.js'));
const { VectorIndex } = await import(dist('storage/sqlite/ann/vector-index.js'));
const { AnnFiles } = await import(dist('storage/sqlite/ann/ann-files.js'));
const { AnnVectorsReader } = await import(dist('storage/sqlite/ann/ann-vectors.js'));
const { ANN_PARAMETERS, createAnnIndex, loadUsearch } = await import(dist('storage/sqlite/ann/ann-library.js'));
const { StaticEmbedder } = await import(dist('embeddings/static/index.js'));

const files = new AnnFiles(`${path}.ann`);
const manifest = files.readManifest(MAIN_SCOPE);
if (manifest === undefined)
  throw new Error(`no index file for ${MAIN_SCOPE} beside ${path}: run \`npm run bench:scale -- --sizes ${size}\` first`);
if (files.verify(manifest) === false) throw new Error(`the index file of ${MAIN_SCOPE} does not match its manifest`);
const dimension = manifest.embedder.dimension;
const embedder = StaticEmbedder.create();
const texts = makeQueries({ seed: 4242, count: Number(args.queries), corpusSeed: SCALE_SEED, corpusSize: size }).map((q) => q.text);
const queries = await embedder.embed(texts);

let started = performance.now();
const connection = await openConnection({ path, readonly: true, busyTimeoutMs: 5000 });
const exact = new VectorIndex(connection, dimension, { budgetBytes: 0 });
exact.sync(MAIN_SCOPE, { evictable: false });
log(`exact index of ${exact.size(MAIN_SCOPE)} vectors loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
started = performance.now();
const truth = queries.map((query) => new Set(exact.search(MAIN_SCOPE, query, 10).map((row) => row.rowid)));
log(`exact top 10 of ${queries.length} queries in ${((performance.now() - started) / 1000).toFixed(1)} s`);
exact.drop(MAIN_SCOPE);
connection.close();

const library = loadUsearch();
if (library === undefined) throw new Error('usearch does not load here');
const vectorsPath = files.vectorsPath(manifest);
const vectors = vectorsPath === undefined ? undefined : AnnVectorsReader.open(vectorsPath, dimension);
const rows = [];
for (const ef of args.efs.split(',').map(Number)) {
  const parameters = { ...ANN_PARAMETERS, quantization: manifest.parameters.quantization, expansionSearch: ef, compactRows: 0 };
  const index = createAnnIndex(library, dimension, parameters, manifest.count);
  index.view(files.indexPath(manifest));
  let foundOwn = 0;
  let foundRescored = 0;
  const searchTimes = [];
  const rescoreTimes = [];
  // the first queries fault the file's pages in: run them once untimed
  for (const query of queries.slice(0, 20)) index.search(query, count, 1);
  for (const [q, query] of queries.entries()) {
    let t = performance.now();
    const found = index.search(query, count, 1);
    searchTimes.push(performance.now() - t);
    const own = [...found.keys].map(Number);
    foundOwn += own.slice(0, 10).filter((rowid) => truth[q].has(rowid)).length;
    t = performance.now();
    const inverse = 1 / Math.hypot(...query);
    const rescored = own
      .map((rowid, i) => ({ rowid, score: vectors?.cosine(rowid, query, inverse) ?? 1 - found.distances[i] }))
      .sort((a, b) => b.score - a.score);
    rescoreTimes.push(performance.now() - t);
    foundRescored += rescored.slice(0, 10).filter((row) => truth[q].has(row.rowid)).length;
  }
  const row = {
    size: manifest.count,
    quantization: manifest.parameters.quantization,
    ef,
    count,
    recallAt10: foundRescored / (10 * queries.length),
    ownOrderRecallAt10: foundOwn / (10 * queries.length),
    searchP50: percentiles(searchTimes).p50,
    searchP95: percentiles(searchTimes).p95,
    rescoreP50: percentiles(rescoreTimes).p50,
  };
  rows.push(row);
  log(
    `ef ${ef}: recall@10 ${row.recallAt10.toFixed(4)} (own order ${row.ownOrderRecallAt10.toFixed(4)}), search p50 ${row.searchP50.toFixed(2)} ms, re-scoring p50 ${row.rescoreP50.toFixed(2)} ms`,
  );
}
vectors?.close();
printTable(
  `HNSW index beside ${path} (${rows[0]?.quantization}), ${count} rows asked, ${queries.length} queries; ms`,
  [
    ['ef', 'ef', 0],
    ['recall@10', 'recallAt10', 4],
    ['own order', 'ownOrderRecallAt10', 4],
    ['search p50', 'searchP50', 2],
    ['p95', 'searchP95', 2],
    ['re-score p50', 'rescoreP50', 2],
  ],
  rows,
);
const name = `ann-expansion-${size}${args.path === undefined ? '' : `-${rows[0]?.quantization}`}`;
log(
  `wrote ${writeResult(name, { options: { ...args, path }, manifest: { count: manifest.count, parameters: manifest.parameters }, rows })}`,
);
