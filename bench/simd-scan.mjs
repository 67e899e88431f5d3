#!/usr/bin/env node
// The exact vector scan, twice (after `npx tsc -p tsconfig.build.json`):
// 1. the kernel of src/core/simd-scan.ts, WebAssembly SIMD against its JS loop, on random
//    vectors shaped like a large scope (`--rows`, `--dim`);
// 2. vector search of one scope of a real SQLite store, per scope size (`--scopes`, LoCoMo-like sizes at
//    384-d): sqlite-vec's KNN in SQLite against the in-memory index with the SIMD kernel and with the JS
//    loop (store.vectorSearch, limit 20 as recall asks), and the one-time load of a scope into memory.
// `node bench/simd-scan.mjs [--rows 100000] [--dim 512] [--scopes 500,2000,5000,20000] [--scope-dim 384]`;
// writes bench/results/simd-scan.json.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fmt, log, mulberry32, parseSizes, percentiles, printTable, writeResult } from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    dim: { type: 'string', default: '512' },
    scopes: { type: 'string' },
    'scope-dim': { type: 'string', default: '384' },
    queries: { type: 'string', default: '300' },
  },
});
const ROWS = Number(args.rows);
const DIM = Number(args.dim);
const SCOPE_SIZES = parseSizes(args.scopes, [500, 2000, 5000, 20000]);
const SCOPE_DIM = Number(args['scope-dim']);
const QUERIES = Number(args.queries);
const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { VectorArena, SCAN_ROWS, simdAvailable, dot } = await import(dist('core/simd-scan.js'));
const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
const { newRecord } = await import(dist('core/record-factory.js'));

const random = mulberry32(42);
const unitVector = (dim) => {
  const v = Float32Array.from({ length: dim }, () => random() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** Float32 rounding differs between sqlite-vec, the SIMD lanes and JS doubles: scores this close may swap. */
const NEAR_TIE = 1e-6;

/** Queries whose hits differ from `expected` beyond a swap of near-tied scores, and those with such swaps. */
function compareHits(expected, actual) {
  let different = 0;
  let nearTies = 0;
  expected.forEach((hits, q) => {
    const other = actual[q];
    if (hits.map((h) => h.id).join() === other.map((h) => h.id).join()) return;
    const scoresMatch = hits.length === other.length && hits.every((h, i) => Math.abs(h.score - other[i].score) <= NEAR_TIE);
    const ids = new Set(other.map((h) => h.id));
    const last = hits[hits.length - 1]?.score ?? 0;
    const missingOnlyAtTheEdge = hits.every((h) => ids.has(h.id) || Math.abs(h.score - last) <= NEAR_TIE);
    if (scoresMatch && missingOnlyAtTheEdge) nearTies++;
    else different++;
  });
  return { different, nearTies };
}

function measure(fn, runs = 15) {
  for (let i = 0; i < 3; i++) fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return percentiles(times);
}

// --- 1. the kernel ------------------------------------------------------------------------------
log(`kernel: ${ROWS} × ${DIM}, SIMD available: ${simdAvailable()}`);
const query = unitVector(DIM);
const rows = Array.from({ length: ROWS }, () => unitVector(DIM));
const kernels = [true, false].map((simd) => {
  const arena = new VectorArena(DIM, { simd });
  const blocks = [];
  for (let start = 0; start < ROWS; start += SCAN_ROWS) {
    const count = Math.min(SCAN_ROWS, ROWS - start);
    const offset = arena.allocate(SCAN_ROWS * arena.stride * 4);
    for (let r = 0; r < count; r++) arena.write(offset, r, rows[start + r]);
    blocks.push({ offset, count });
  }
  arena.setQuery(query);
  const scores = new Float64Array(ROWS);
  const scan = () => {
    let r = 0;
    for (const { offset, count } of blocks) {
      const dots = arena.scan(offset, count);
      for (let i = 0; i < count; i++) scores[r++] = dots[i];
    }
  };
  return { simd, scan, scores };
});
const kernelTimes = kernels.map((k) => ({ kernel: k.simd ? 'WebAssembly SIMD f32x4' : 'JS loop (fallback)', ...measure(k.scan) }));
let maxDifference = 0;
for (let r = 0; r < ROWS; r++) {
  const exact = dot(rows[r], 0, query, DIM);
  for (const k of kernels) maxDifference = Math.max(maxDifference, Math.abs(k.scores[r] - exact));
}
const kernelLoad = load();
printTable(
  `exact scan of ${ROWS.toLocaleString('en-US')} × ${DIM}-d float32 vectors in WebAssembly memory, ms (15 runs; load ${kernelLoad})`,
  [
    ['kernel', 'kernel'],
    ['p50', 'p50', 1],
    ['p95', 'p95', 1],
    ['min', 'min', 1],
  ],
  kernelTimes,
);
process.stdout.write(`largest dot-product difference from float64: ${maxDifference.toExponential(1)}\n\n`);

// --- 2. one scope of a store ----------------------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), 'engram-simd-scan-'));
const storeRows = [];
try {
  const embedding = { name: `random:${SCOPE_DIM}`, dimension: SCOPE_DIM };
  const path = join(dir, 'engram.db');
  const writer = await openSqliteStore({ path, embedding, memoryIndexThreshold: Infinity });
  const now = Date.UTC(2025, 0, 1);
  for (const size of SCOPE_SIZES) {
    const scope = `bench/${size}`;
    for (let start = 0; start < size; start += 2000) {
      const batch = Array.from({ length: Math.min(2000, size - start) }, (_, i) => ({
        record: newRecord({ scope, layer: 'episodic', content: `turn ${start + i}`, now }),
        embedding: unitVector(SCOPE_DIM),
      }));
      await writer.transaction((tx) => tx.insertMemories(batch));
    }
  }
  await writer.close();
  const queries = Array.from({ length: QUERIES }, () => unitVector(SCOPE_DIM));
  for (const size of SCOPE_SIZES) {
    const scope = `bench/${size}`;
    const search = (store, vector) => store.vectorSearch({ scopes: [scope], now, limit: 20, vector });
    const variants = [
      { label: 'sqlite-vec KNN', config: { memoryIndexThreshold: Infinity } },
      { label: 'in memory, SIMD', config: { memoryIndexWarmup: 0 } },
      { label: 'in memory, JS loop', config: { memoryIndexWarmup: 0, simdScan: false } },
    ];
    const result = { size, load: load() };
    let reference;
    for (const { label, config } of variants) {
      const store = await openSqliteStore({ path, embedding, readonly: true, vectorIndex: 'exact', ...config });
      const started = performance.now();
      await search(store, queries[0]); // the first search loads the scope into memory
      const first = performance.now() - started;
      const times = [];
      const hits = [];
      for (const vector of queries) {
        const t = performance.now();
        hits.push(await search(store, vector));
        times.push(performance.now() - t);
      }
      reference ??= hits;
      result[label] = { first, ...percentiles(times), ...compareHits(reference, hits), usage: store.vectorIndexUsage };
      await store.close();
    }
    storeRows.push(result);
    log(`scope of ${size}: done`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const table = storeRows.flatMap((r) =>
  ['sqlite-vec KNN', 'in memory, SIMD', 'in memory, JS loop'].map((label) => ({
    scope: r.size.toLocaleString('en-US'),
    method: label,
    p50: r[label].p50,
    p95: r[label].p95,
    first: r[label].first,
    same:
      r[label].different > 0 ? `NO (${r[label].different})` : r[label].nearTies > 0 ? `yes, ${r[label].nearTies} near-tie swaps` : 'yes',
    load: r.load,
  })),
);
printTable(
  `vectorSearch of one scope (${SCOPE_DIM}-d, limit 20, ${QUERIES} queries), ms; "first" includes loading the scope into memory`,
  [
    ['scope rows', 'scope'],
    ['method', 'method'],
    ['p50', 'p50', 3],
    ['p95', 'p95', 3],
    ['first search', 'first', 1],
    ['same hits', 'same'],
    ['load avg', 'load'],
  ],
  table,
);
process.stdout.write(
  `ratio sqlite-vec / SIMD p50: ${storeRows.map((r) => fmt(r['sqlite-vec KNN'].p50 / r['in memory, SIMD'].p50)).join(', ')}\n`,
);
writeResult('simd-scan', {
  rows: ROWS,
  dim: DIM,
  kernel: { loadAverage: kernelLoad, times: kernelTimes, maxDotDifference: maxDifference },
  scopes: { dim: SCOPE_DIM, queries: QUERIES, results: storeRows },
});
