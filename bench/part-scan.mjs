#!/usr/bin/env node
// The part-vector re-score of one recall (after `npx tsc -p tsconfig.build.json`): the best part cosine
// of each of `--candidates` records (1-8 parts each, ~2.9 on average as LoCoMo's turns with parts have),
// by the int8 WebAssembly SIMD kernel (src/core/simd-int8.ts) against the JS loop it replaced, at the
// default model's 768 dimensions and others (`--dims`). Synthetic unit vectors: the cost does not
// depend on what they say. `node bench/part-scan.mjs [--candidates 300] [--dims 384,768,1536]`;
// writes bench/results/part-scan.json.
import { parseArgs } from 'node:util';
import { environment, log, mulberry32, parseSizes, percentiles, printTable, writeResult } from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    candidates: { type: 'string', default: '300' },
    dims: { type: 'string' },
    runs: { type: 'string', default: '500' },
  },
});
const CANDIDATES = Number(args.candidates);
const DIMS = parseSizes(args.dims, [384, 768, 1536]);
const RUNS = Number(args.runs);
const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { encodePartVectors, bestPartCosines, bestPartCosinesInJs } = await import(dist('storage/part-vectors.js'));
const { int8SimdAvailable } = await import(dist('core/simd-int8.js'));

const random = mulberry32(7);
const unitVector = (dim) => {
  const v = Float32Array.from({ length: dim }, () => random() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};
/** Parts per record: none for 13% (as LoCoMo's candidates), else 1-8 skewed low (mean ~2.9). */
const partCount = () => (random() < 0.13 ? 0 : Math.min(8, 1 + Math.floor(-Math.log(1 - random()) * 1.9)));

const rows = [];
for (const dim of DIMS) {
  const blobs = new Map();
  let parts = 0;
  for (let i = 0; i < CANDIDATES; i++) {
    const n = partCount();
    if (n === 0) continue;
    parts += n;
    blobs.set(
      `m${i}`,
      encodePartVectors(
        Array.from({ length: n }, () => unitVector(dim)),
        dim,
      ),
    );
  }
  const queries = Array.from({ length: 20 }, () => unitVector(dim));
  let largestGap = 0;
  for (const query of queries) {
    const simd = bestPartCosines(blobs, query);
    for (const [id, value] of bestPartCosinesInJs(blobs, query)) largestGap = Math.max(largestGap, Math.abs(simd.get(id) - value));
  }
  const time = (fn) => {
    for (let r = 0; r < 50; r++) fn(blobs, queries[r % queries.length]);
    const times = [];
    for (let r = 0; r < RUNS; r++) {
      const start = performance.now();
      fn(blobs, queries[r % queries.length]);
      times.push(performance.now() - start);
    }
    return percentiles(times);
  };
  const js = time(bestPartCosinesInJs);
  const simd = time(bestPartCosines);
  rows.push({ dim, records: blobs.size, parts, jsP50: js.p50, simdP50: simd.p50, speedup: js.p50 / simd.p50, largestGap });
  log(`${dim}-d: JS p50 ${js.p50} ms, SIMD p50 ${simd.p50} ms`);
}

printTable(
  `best part cosine of ${CANDIDATES} candidates (WebAssembly SIMD ${int8SimdAvailable() ? 'on' : 'UNAVAILABLE: both rows run JS'}), ms`,
  [
    ['dimensions', 'dim', 0],
    ['records with parts', 'records', 0],
    ['parts', 'parts', 0],
    ['JS loop p50', 'jsP50', 3],
    ['int8 SIMD p50', 'simdP50', 3],
    ['speed-up', 'speedup', 1],
    ['largest cosine gap', 'largestGap', 5],
  ],
  rows,
);
writeResult('part-scan', { name: 'part-scan', ...environment(), candidates: CANDIDATES, runs: RUNS, rows });
