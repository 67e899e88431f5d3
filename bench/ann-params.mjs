#!/usr/bin/env node
// HNSW build and search parameters against brute force, straight on usearch (no store):
//   node bench/ann-params.mjs [--size 1000000] [--vectors FILE.f32] [--variants '[{"M":32,"efc":256}]']
//                             [--efs 256,384,512,640,1024] [--queries 100]
// The vectors are the benchmark corpus's texts (bench/scale-corpus.mjs, seed 20251129) embedded with the
// static table, or, with --vectors, a cache of a model's vectors of the same texts in the same order
// (bench/model-vectors.mjs writes them, e.g. bench/.cache/vectors-blend-e5-minilm-s20251129-g1.f32);
// the queries are `makeQueries` embedded with the same embedder. Each variant is built on 2 threads
// (f16, or the variant's `quantization`), then searched for the 200 candidates recall asks for (`--count`) at each search expansion; its top 10 is
// compared with the exact top 10 over all vectors. Prints recall@10, recall@10 after re-ranking the rows
// asked for by their exact cosine, the mean error of the index's scores, and search p50 per row.
// Quantization "i8" (or "i8-scaled", its earlier name here) stores int8 vectors scaled per vector so the
// largest component is ±127, as the store's index does (`createAnnIndex`; usearch's own float → i8 cast,
// which multiplies a unit vector by 127 and leaves a 768-d vector ~5 levels, is no longer used). Run
// `npx tsc -p tsconfig.build.json` first. The 1M static case needs ~8 GB of heap and ~40 minutes for both
// default variants on 2 cores (docs/benchmarks.md, "HNSW for a million vectors").
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { log, makeQueries, memoryAt, percentiles } from './lib.mjs';
import { SCALE_SEED, dist } from './scale-corpus.mjs';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '1000000' },
    vectors: { type: 'string' },
    model: { type: 'string', default: 'blend-e5-minilm' },
    variants: { type: 'string', default: '[{"M":16,"efc":128},{"M":32,"efc":256}]' },
    efs: { type: 'string', default: '256,384,512,640,1024' },
    queries: { type: 'string', default: '100' },
    // how many neighbours each search asks for (recall asks twice its 100 candidates)
    count: { type: 'string', default: '200' },
  },
});
const size = Number(args.size);
const { loadUsearch, createAnnIndex } = await import(dist('storage/sqlite/ann/ann-library.js'));
const { createEmbedder } = await import(dist('index.js'));
const embedder = await createEmbedder(args.vectors === undefined ? 'static' : args.model, { workers: 0 });
const dimension = embedder.dimension;
let data;
let started = performance.now();
if (args.vectors !== undefined) {
  const buffer = readFileSync(args.vectors);
  if (buffer.byteLength < size * dimension * 4) throw new Error(`${args.vectors} holds fewer than ${size} ${dimension}-d vectors`);
  data = new Float32Array(buffer.buffer, buffer.byteOffset, size * dimension);
} else {
  data = new Float32Array(size * dimension);
  for (let from = 0; from < size; from += 5000) {
    const texts = [];
    for (let i = from; i < Math.min(size, from + 5000); i++) texts.push(memoryAt(SCALE_SEED, i).content);
    (await embedder.embed(texts)).forEach((vector, j) => data.set(vector, (from + j) * dimension));
  }
}
log(`${size} ${dimension}-d vectors ready in ${((performance.now() - started) / 1000).toFixed(0)} s`);
const texts = makeQueries({ seed: 4242, count: Number(args.queries), corpusSeed: SCALE_SEED, corpusSize: size }).map((q) => q.text);
const queries = await embedder.embed(texts, { purpose: 'query' });
await embedder.close?.();
started = performance.now();
const truth = queries.map((query) => exactTop10(query));
log(`exact top 10 of ${queries.length} queries in ${((performance.now() - started) / 1000).toFixed(0)} s`);

/** The built index of the current variant, saved once for the searches at each expansion. */
let savedPath;
const library = loadUsearch();
if (library === undefined) throw new Error('usearch does not load here');
const keys = new BigUint64Array(size);
for (let i = 0; i < size; i++) keys[i] = BigInt(i);
for (const variant of JSON.parse(args.variants)) {
  const quantization = variant.quantization === 'i8-scaled' ? 'i8' : (variant.quantization ?? 'f16');
  const create = (ef) =>
    createAnnIndex(
      library,
      dimension,
      { connectivity: variant.M, expansionAdd: variant.efc, expansionSearch: ef, compactExpansionSearch: ef, compactRows: 0, quantization },
      size,
    );
  const index = create(64);
  started = performance.now();
  index.add(keys, data, 2);
  const buildSeconds = (performance.now() - started) / 1000;
  for (const ef of args.efs.split(',').map(Number)) {
    // a fresh index object per expansion (usearch takes it at construction), sharing the built graph
    const searched = ef === 64 ? index : create(ef);
    if (searched !== index) searched.view(saved(index));
    let found = 0;
    let foundReranked = 0;
    let scoreError = 0;
    const times = [];
    for (const [q, query] of queries.entries()) {
      const t = performance.now();
      const result = searched.search(query, Number(args.count));
      times.push(performance.now() - t);
      const ids = [...result.keys].map(Number);
      found += ids.slice(0, 10).filter((id) => truth[q].includes(id)).length;
      const exact = ids.map((id) => ({ id, score: cosineOf(query, id) }));
      exact.forEach((hit, i) => (scoreError += Math.abs(1 - result.distances[i] - hit.score) / ids.length));
      exact.sort((a, b) => b.score - a.score);
      foundReranked += exact.slice(0, 10).filter((hit) => truth[q].includes(hit.id)).length;
    }
    const row = {
      size,
      dimension,
      M: variant.M,
      efc: variant.efc,
      quantization,
      buildSeconds: Math.round(buildSeconds),
      ef,
      recallAt10: found / (10 * queries.length),
      rerankedRecallAt10: foundReranked / (10 * queries.length),
      meanScoreError: scoreError / queries.length,
      searchP50: percentiles(times).p50,
    };
    console.log(
      `M ${row.M} efc ${row.efc} ${row.quantization} build ${row.buildSeconds} s  ef ${ef}: recall@10 ${row.recallAt10.toFixed(4)}  re-ranked ${row.rerankedRecallAt10.toFixed(4)}  score error ${row.meanScoreError.toExponential(1)}  search p50 ${row.searchP50.toFixed(2)} ms`,
    );
  }
  savedPath = undefined;
}

/** The exact cosine of a query (unit length) and a corpus row (unit length). */
function cosineOf(query, row) {
  let sum = 0;
  const offset = row * dimension;
  for (let i = 0; i < dimension; i++) sum += data[offset + i] * query[i];
  return sum;
}

function exactTop10(query) {
  const top = [];
  const scores = [];
  for (let row = 0; row < size; row++) {
    const sum = cosineOf(query, row);
    if (top.length === 10 && sum <= scores[9]) continue;
    let at = Math.min(top.length, 9);
    while (at > 0 && sum > scores[at - 1]) {
      top[at] = top[at - 1];
      scores[at] = scores[at - 1];
      at -= 1;
    }
    top[at] = row;
    scores[at] = sum;
  }
  return top;
}

function saved(index) {
  if (savedPath !== undefined) return savedPath;
  const dir = mkdtempSync(join(tmpdir(), 'engram-ann-params-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  savedPath = join(dir, 'index.usearch');
  index.save(savedPath);
  return savedPath;
}
