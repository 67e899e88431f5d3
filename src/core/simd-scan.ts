/**
 * The exact vector scan of `VectorIndex`: dot products of a query with rows of float32 vectors that
 * live in one growable memory (a `VectorArena`), computed by a WebAssembly SIMD kernel (f32x4, two
 * accumulators, ~5x the plain JS loop), or by that JS loop where WebAssembly SIMD is unavailable
 * (feature-detected with `WebAssembly.validate`) or switched off.
 *
 * The kernel's ~200 bytes are generated at first use (`scanModuleBytes`, with the encoder of `wasm-encoding.ts`) rather than committed
 * as an opaque constant, so the code is reviewable here; `bench/simd-scan.mjs` measures it. Rows are
 * stored with a stride rounded up to 8 floats and zero padding, so the kernel needs no tail loop and
 * handles any dimension. The kernel accumulates in float32 (in 8 lanes); the JS loop in float64 (in 4
 * partial sums). Their dot products of unit vectors differ by ~1e-7, at most ~dimension × 2^-24.
 */
import {
  BLOCK,
  BR,
  BR_IF,
  compileIfValid,
  END,
  F32,
  F32_ADD,
  F32_STORE,
  F32X4_ADD,
  F32X4_EXTRACT_LANE,
  F32X4_MUL,
  functionModule,
  get,
  I32,
  I32_ADD,
  I32_GE_U,
  I32_SHL,
  i32Const,
  LOOP,
  set,
  simd,
  tee,
  V128,
  v128Load,
  v128Zero,
  WASM_PAGE,
  wasmApi,
  type WasmMemory,
} from './wasm-encoding.js';

type ScanKernel = (rows: number, count: number, stride: number, query: number, out: number) => void;

/** One arena stays below this size; the next allocation past it opens another arena. */
const ARENA_LIMIT = 2 ** 31;
/** Rows per `scan` call; `out` holds that many dot products. */
export const SCAN_ROWS = 1024;

let compiled: object | null | undefined;

/** True when this runtime runs the SIMD kernel. */
export function simdAvailable(): boolean {
  return kernelModule() !== null;
}

function kernelModule(): object | null {
  if (compiled !== undefined) return compiled;
  compiled = compileIfValid(scanModuleBytes());
  return compiled;
}

/**
 * Float32 rows in one growable memory, allocated in blocks and freed by size, with a scratch query
 * and result buffer of its own: a scan reads the rows where they are, with no copy per search.
 */
export class VectorArena {
  /** Floats per stored row: the dimension rounded up to a multiple of 8. */
  readonly stride: number;
  readonly #dimension: number;
  readonly #memory: WasmMemory | undefined;
  readonly #kernel: ScanKernel | undefined;
  #buffer: ArrayBuffer;
  #floats: Float32Array;
  #out: Float32Array;
  #top: number;
  readonly #free = new Map<number, number[]>();
  readonly #limit: number;
  readonly #queryAt: number;
  readonly #outAt: number;
  /** The JS loop's results, kept in float64 as its sums are. */
  readonly #jsOut = new Float64Array(SCAN_ROWS);

  /**
   * `simd: false` runs the JS loop even where the kernel is available; `limitBytes` caps the memory
   * (default and most 2 GiB), past which `allocate` answers `undefined`.
   */
  constructor(dimension: number, options: { simd: boolean; limitBytes?: number }) {
    this.#dimension = dimension;
    this.#limit = Math.min(ARENA_LIMIT, options.limitBytes ?? ARENA_LIMIT);
    this.stride = Math.ceil(dimension / 8) * 8;
    const api = wasmApi();
    const module = options.simd ? kernelModule() : null;
    if (api !== undefined && module !== null) {
      this.#memory = new api.Memory({ initial: 1 });
      const instance = new api.Instance(module, { env: { memory: this.#memory } });
      this.#kernel = instance.exports.scan as ScanKernel;
      this.#buffer = this.#memory.buffer;
    } else {
      this.#buffer = new ArrayBuffer(WASM_PAGE);
    }
    this.#floats = new Float32Array(this.#buffer);
    this.#top = 0;
    this.#queryAt = this.allocate(this.stride * 4) as number;
    this.#outAt = this.allocate(SCAN_ROWS * 4) as number;
    this.#out = this.#floats.subarray(this.#outAt / 4, this.#outAt / 4 + SCAN_ROWS);
  }

  get simd(): boolean {
    return this.#kernel !== undefined;
  }

  /** The whole memory as floats; a fresh view after every allocation that grew it. */
  get floats(): Float32Array {
    return this.#floats;
  }

  /**
   * A byte offset of `bytes` (a multiple of 16) zeroed bytes, or `undefined` when this arena is full.
   * `zeroed: false` skips clearing a reused block: for a caller that fills each row with `write` before
   * scanning it (a block of 256 rows of 768 floats is 768 KB to clear).
   */
  allocate(bytes: number, options: { zeroed: boolean } = { zeroed: true }): number | undefined {
    const reused = this.#free.get(bytes)?.pop();
    if (reused !== undefined) {
      if (options.zeroed) this.#floats.fill(0, reused / 4, (reused + bytes) / 4);
      return reused;
    }
    const end = this.#top + bytes;
    if (end > this.#limit) return undefined;
    if (end > this.#buffer.byteLength && !this.#grow(end)) return undefined;
    const offset = this.#top;
    this.#top = end;
    return offset;
  }

  /** Returns a block to the arena for an allocation of the same size. */
  release(offset: number, bytes: number): void {
    const list = this.#free.get(bytes);
    if (list === undefined) this.#free.set(bytes, [offset]);
    else list.push(offset);
  }

  /** Copies `vector` (of the arena's dimension) into row `row` of the block at `offset`, its padding zeroed. */
  write(offset: number, row: number, vector: Float32Array): void {
    const start = offset / 4 + row * this.stride;
    this.#floats.set(vector.subarray(0, this.#dimension), start);
    if (this.stride > this.#dimension) this.#floats.fill(0, start + this.#dimension, start + this.stride);
  }

  /** Copies consecutive vectors (`vectors.length / dimension` of them) into rows from `row` on. */
  writeRows(offset: number, row: number, vectors: Float32Array): void {
    const dimension = this.#dimension;
    const start = offset / 4 + row * this.stride;
    if (this.stride === dimension) {
      this.#floats.set(vectors, start);
      return;
    }
    for (let i = 0; i * dimension < vectors.length; i++)
      this.#floats.set(vectors.subarray(i * dimension, (i + 1) * dimension), start + i * this.stride);
  }

  /** Sets the query of the next `scan` calls. */
  setQuery(query: Float32Array): void {
    this.#floats.fill(0, this.#queryAt / 4, this.#queryAt / 4 + this.stride);
    this.#floats.set(query.subarray(0, this.#dimension), this.#queryAt / 4);
  }

  /**
   * The dot products of the query with rows `0 .. count-1` (count ≤ SCAN_ROWS) of the block at `offset`,
   * in the returned view's first `count` entries (valid until the next scan).
   */
  scan(offset: number, count: number): Float32Array | Float64Array {
    const floats = this.#floats;
    if (this.#kernel !== undefined) {
      this.#kernel(offset, count, this.stride, this.#queryAt, this.#outAt);
      return this.#out;
    }
    const out = this.#jsOut;
    const query = floats.subarray(this.#queryAt / 4, this.#queryAt / 4 + this.#dimension);
    for (let row = 0; row < count; row++) out[row] = dot(floats, offset / 4 + row * this.stride, query, this.#dimension);
    return out;
  }

  /** False when the runtime refuses the memory. */
  #grow(end: number): boolean {
    // double, so a scope loaded block by block costs amortised O(1) copies
    const bytes = Math.min(this.#limit, Math.max(end, this.#buffer.byteLength * 2));
    const pages = Math.ceil((bytes - this.#buffer.byteLength) / WASM_PAGE);
    try {
      if (this.#memory !== undefined) {
        this.#memory.grow(pages);
        this.#buffer = this.#memory.buffer;
      } else {
        const grown = new ArrayBuffer(this.#buffer.byteLength + pages * WASM_PAGE);
        new Uint8Array(grown).set(new Uint8Array(this.#buffer));
        this.#buffer = grown;
      }
    } catch (error) {
      if (error instanceof RangeError) return false;
      throw error;
    }
    this.#floats = new Float32Array(this.#buffer);
    this.#out = this.#floats.subarray(this.#outAt / 4, this.#outAt / 4 + SCAN_ROWS);
    return true;
  }
}

/** Dot product of `vectors[offset .. offset+length]` with `query`, unrolled 4-way. */
export function dot(vectors: Float32Array, offset: number, query: Float32Array, length: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const end = length - (length % 4);
  let i = 0;
  for (; i < end; i += 4) {
    s0 += (vectors[offset + i] as number) * (query[i] as number);
    s1 += (vectors[offset + i + 1] as number) * (query[i + 1] as number);
    s2 += (vectors[offset + i + 2] as number) * (query[i + 2] as number);
    s3 += (vectors[offset + i + 3] as number) * (query[i + 3] as number);
  }
  for (; i < length; i++) s0 += (vectors[offset + i] as number) * (query[i] as number);
  return s0 + s1 + s2 + s3;
}

/** 1 / the Euclidean norm of `vectors[offset .. offset+length]` (0 for a zero vector). */
export function inverseNorm(vectors: Float32Array, offset: number, length: number): number {
  const norm = Math.sqrt(dot(vectors, offset, vectors.subarray(offset, offset + length), length));
  return norm > 0 ? 1 / norm : 0;
}

// --- the kernel (encoding helpers in wasm-encoding.ts) ---------------------------------------------

/**
 * `scan(rows, count, stride, query, out)`: `out[r] = dot(row r, query)` for r < count, over `stride`
 * floats (a multiple of 8); pointers are byte offsets into the imported `env.memory`.
 */
export function scanModuleBytes(): Uint8Array {
  // params 0 rows, 1 count, 2 stride, 3 query, 4 out; locals 5 r, 6 i, 7 row, 8 rowBytes (i32),
  // 9 acc0, 10 acc1 (v128), 11 sum (f32)
  const multiplyAdd = (accumulator: number, offset: number): number[] => [
    ...get(accumulator),
    ...get(7),
    ...get(6),
    I32_ADD,
    ...v128Load(offset),
    ...get(3),
    ...get(6),
    I32_ADD,
    ...v128Load(offset),
    ...simd(F32X4_MUL),
    ...simd(F32X4_ADD),
    ...set(accumulator),
  ];
  const lane = (i: number): number[] => [...get(9), ...simd(F32X4_EXTRACT_LANE, i)];
  const code = [
    ...get(2), ...i32Const(2), I32_SHL, ...set(8),
    ...get(0), ...set(7),
    ...BLOCK, ...LOOP,
    ...get(5), ...get(1), I32_GE_U, BR_IF, 1,
    ...v128Zero, ...set(9), ...v128Zero, ...set(10), ...i32Const(0), ...set(6),
    ...BLOCK, ...LOOP,
    ...get(6), ...get(8), I32_GE_U, BR_IF, 1,
    ...multiplyAdd(9, 0),
    ...multiplyAdd(10, 16),
    ...get(6), ...i32Const(32), I32_ADD, ...set(6),
    BR, 0, END, END,
    ...get(9), ...get(10), ...simd(F32X4_ADD), ...tee(9), ...simd(F32X4_EXTRACT_LANE, 0),
    ...lane(1), F32_ADD, ...lane(2), F32_ADD, ...lane(3), F32_ADD, ...set(11),
    ...get(4), ...get(5), ...i32Const(2), I32_SHL, I32_ADD, ...get(11), F32_STORE, 2, 0,
    ...get(7), ...get(8), I32_ADD, ...set(7),
    ...get(5), ...i32Const(1), I32_ADD, ...set(5),
    BR, 0, END, END,
    END,
  ]; // prettier-ignore
  return functionModule(
    'scan',
    5,
    [
      [4, I32],
      [2, V128],
      [1, F32],
    ],
    code,
  );
}
