#!/usr/bin/env node
// Experiment behind a suggested src change: the exact vector scan of `VectorIndex.search`
// (src/storage/sqlite/ann/vector-index.ts) in plain JS against the same scan as a WebAssembly SIMD kernel
// (f32x4, two accumulators), on random vectors shaped like a large scope.
// `node bench/simd-scan.mjs [--rows 100000] [--dim 512]`; writes bench/results/simd-scan.json.
import { parseArgs } from 'node:util';
import { percentiles, printTable, writeResult } from './lib.mjs';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '100000' }, dim: { type: 'string', default: '512' } } });
const ROWS = Number(args.rows);
const DIM = Number(args.dim);
const BLOCK = 1024;
if (DIM % 8 !== 0) throw new Error('--dim must be a multiple of 8');

// --- a minimal WebAssembly encoder, just enough for one function --------------------------------
const uleb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const sleb = (n) => {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
};
const section = (id, body) => [id, ...uleb(body.length), ...body];
const vector = (items) => [...uleb(items.length), ...items.flat()];
const name = (s) => [...uleb(s.length), ...Buffer.from(s)];
const I32 = 0x7f,
  F32 = 0x7d,
  V128 = 0x7b;
const get = (i) => [0x20, i],
  set = (i) => [0x21, i],
  tee = (i) => [0x22, i],
  i32 = (n) => [0x41, ...sleb(n)];
const simd = (op, ...imm) => [0xfd, ...uleb(op), ...imm];
const v128Load = (offset) => simd(0, 4, ...uleb(offset));
const v128Zero = simd(12, ...new Array(16).fill(0));
const [F32X4_ADD, F32X4_MUL, F32X4_EXTRACT] = [228, 230, 31];
const [I32_ADD, I32_SHL, I32_GE_U, F32_ADD, F32_STORE] = [0x6a, 0x74, 0x4f, 0x92, 0x38];
const [BLOCK_, LOOP, BR, BR_IF, END] = [[0x02, 0x40], [0x03, 0x40], 0x0c, 0x0d, 0x0b];

/** `scan(rows, n, dim, query, out)`: out[r] = dot(rows[r], query) for r < n; pointers are byte offsets. */
function scanModule() {
  // params 0 rows, 1 n, 2 dim, 3 query, 4 out; locals 5 r, 6 i, 7 row, 8 rowBytes (i32), 9 acc0, 10 acc1 (v128), 11 sum (f32)
  const lane = (i) => [...get(9), ...simd(F32X4_EXTRACT, i)];
  const code = [
    ...get(2),
    ...i32(2),
    I32_SHL,
    ...set(8),
    ...get(0),
    ...set(7),
    ...BLOCK_,
    ...LOOP,
    ...get(5),
    ...get(1),
    I32_GE_U,
    BR_IF,
    1,
    ...v128Zero,
    ...set(9),
    ...v128Zero,
    ...set(10),
    ...i32(0),
    ...set(6),
    ...BLOCK_,
    ...LOOP,
    ...get(6),
    ...get(8),
    I32_GE_U,
    BR_IF,
    1,
    ...get(9),
    ...get(7),
    ...get(6),
    I32_ADD,
    ...v128Load(0),
    ...get(3),
    ...get(6),
    I32_ADD,
    ...v128Load(0),
    ...simd(F32X4_MUL),
    ...simd(F32X4_ADD),
    ...set(9),
    ...get(10),
    ...get(7),
    ...get(6),
    I32_ADD,
    ...v128Load(16),
    ...get(3),
    ...get(6),
    I32_ADD,
    ...v128Load(16),
    ...simd(F32X4_MUL),
    ...simd(F32X4_ADD),
    ...set(10),
    ...get(6),
    ...i32(32),
    I32_ADD,
    ...set(6),
    BR,
    0,
    END,
    END,
    ...get(9),
    ...get(10),
    ...simd(F32X4_ADD),
    ...tee(9),
    ...simd(F32X4_EXTRACT, 0),
    ...lane(1),
    F32_ADD,
    ...lane(2),
    F32_ADD,
    ...lane(3),
    F32_ADD,
    ...set(11),
    ...get(4),
    ...get(5),
    ...i32(2),
    I32_SHL,
    I32_ADD,
    ...get(11),
    F32_STORE,
    2,
    0,
    ...get(7),
    ...get(8),
    I32_ADD,
    ...set(7),
    ...get(5),
    ...i32(1),
    I32_ADD,
    ...set(5),
    BR,
    0,
    END,
    END,
    END,
  ];
  const locals = vector([
    [4, I32],
    [2, V128],
    [1, F32],
  ]);
  const body = [...locals, ...code];
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vector([[0x60, ...vector([I32, I32, I32, I32, I32]), 0]])),
    ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x00, 0x01]])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name('scan'), 0x00, 0]])),
    ...section(10, vector([[...uleb(body.length), ...body]])),
  ]);
}

// --- the data: blocks of BLOCK rows, as VectorIndex keeps them -----------------------------------
let seed = 42;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5;
const blocks = [];
for (let start = 0; start < ROWS; start += BLOCK) blocks.push(Float32Array.from({ length: Math.min(BLOCK, ROWS - start) * DIM }, random));
const query = Float32Array.from({ length: DIM }, random);

/** VectorIndex's dot product (4-way unrolled), applied row by row as its search loop does. */
function dot(vectors, offset, q, length) {
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0;
  for (let i = 0; i < length; i += 4) {
    s0 += vectors[offset + i] * q[i];
    s1 += vectors[offset + i + 1] * q[i + 1];
    s2 += vectors[offset + i + 2] * q[i + 2];
    s3 += vectors[offset + i + 3] * q[i + 3];
  }
  return s0 + s1 + s2 + s3;
}
const jsScores = new Float32Array(ROWS);
function scanJs() {
  let r = 0;
  for (const block of blocks) for (let slot = 0; slot < block.length / DIM; slot++) jsScores[r++] = dot(block, slot * DIM, query, DIM);
}

const bytes = (ROWS + 1) * DIM * 4 + ROWS * 4;
// lib ES2023 has no WebAssembly types (they come with the DOM lib), Node has the global.
const { WebAssembly } = /** @type {any} */ (globalThis);
const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536) + 1 });
const { instance } = await WebAssembly.instantiate(scanModule(), { env: { memory } });
const heap = new Float32Array(memory.buffer);
let offset = 0;
for (const block of blocks) {
  heap.set(block, offset);
  offset += block.length;
}
const queryAt = ROWS * DIM;
heap.set(query, queryAt);
const outAt = queryAt + DIM;
const scanWasm = () => instance.exports.scan(0, ROWS, DIM, queryAt * 4, outAt * 4);

const measure = (fn) => {
  for (let i = 0; i < 3; i++) fn();
  const times = [];
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return percentiles(times);
};
const js = measure(scanJs);
const wasm = measure(scanWasm);
let maxDifference = 0;
for (let r = 0; r < ROWS; r++) maxDifference = Math.max(maxDifference, Math.abs(jsScores[r] - heap[outAt + r]));

printTable(
  `exact scan of ${ROWS.toLocaleString('en-US')} × ${DIM}-d float32 vectors against one query, ms (15 runs)`,
  [
    ['kernel', 'kernel'],
    ['p50', 'p50', 1],
    ['p95', 'p95', 1],
    ['min', 'min', 1],
  ],
  [
    { kernel: 'JS, as VectorIndex.search', ...js },
    { kernel: 'WebAssembly SIMD f32x4', ...wasm },
  ],
);
process.stdout.write(`largest score difference: ${maxDifference.toExponential(1)}\n`);
writeResult('simd-scan', { rows: ROWS, dim: DIM, jsMs: js, wasmSimdMs: wasm, maxScoreDifference: maxDifference });
