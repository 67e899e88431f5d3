/**
 * Dot products of a query with int8 rows (the stored part vectors, `storage/part-vectors.ts`) by a
 * WebAssembly SIMD kernel: the query is quantised to int16 (its largest component to ±4,095), each
 * 16 int8 components are widened to int16 and multiplied pairwise into int32 lanes
 * (`i32x4.dot_i16x8_s`), so a row's dot product is exact in integers and only the two scales are
 * float. The quantised query moves a cosine by less than ~1e-3; the int8 rows themselves by ~0.01.
 *
 * Rows are strided in one memory: each starts `stride` bytes after the previous, its components at
 * `skip` bytes from its start (the part's float32 scale sits before them). The kernel needs a
 * dimension that is a multiple of 16; {@link Int8Scanner.create} answers `undefined` otherwise, and
 * where the runtime has no WebAssembly SIMD, so callers keep a JS loop for those cases.
 *
 * 4,095 keeps every int32 lane far from overflow: a lane sums dimension / 4 products of at most
 * 127 × 4,095, 1.06e9 at 8,192 dimensions (2^31 ≈ 2.15e9).
 */
import {
  BLOCK,
  BR,
  BR_IF,
  compileIfValid,
  END,
  functionModule,
  get,
  I16X8_EXTEND_HIGH_I8X16_S,
  I16X8_EXTEND_LOW_I8X16_S,
  I32,
  I32_ADD,
  I32_GE_U,
  I32_SHL,
  I32_STORE,
  i32Const,
  I32X4_ADD,
  I32X4_DOT_I16X8_S,
  I32X4_EXTRACT_LANE,
  LOOP,
  set,
  simd,
  V128,
  v128Load,
  v128Zero,
  WASM_PAGE,
  wasmApi,
  type WasmMemory,
} from './wasm-encoding.js';

/** The largest quantised query component. */
export const QUERY_LEVELS = 4095;
/** Dimensions past this could overflow a lane; the scanner refuses them. */
const MAX_DIMENSION = 8192;

type DotsKernel = (rows: number, count: number, stride: number, length: number, query: number, out: number) => void;

let compiled: object | null | undefined;

function kernelModule(): object | null {
  if (compiled === undefined) compiled = compileIfValid(int8ModuleBytes());
  return compiled;
}

/** True when this runtime runs the int8 kernel. */
export function int8SimdAvailable(): boolean {
  return kernelModule() !== null;
}

/**
 * One query against many strided int8 rows copied into the scanner's memory. Not reentrant: a scan
 * reads what the last `setQuery`/`load` wrote (JavaScript runs it to the end without interleaving).
 */
export class Int8Scanner {
  readonly dimension: number;
  readonly #memory: WasmMemory;
  readonly #kernel: DotsKernel;
  #bytes: Uint8Array;
  #queryScale = 0;
  /** Byte offsets: the int16 query at 0, the rows after it. */
  readonly #rowsAt: number;

  private constructor(dimension: number, memory: WasmMemory, kernel: DotsKernel) {
    this.dimension = dimension;
    this.#memory = memory;
    this.#kernel = kernel;
    this.#bytes = new Uint8Array(memory.buffer);
    this.#rowsAt = Math.ceil((dimension * 2) / 16) * 16;
  }

  /** A scanner for `dimension`, or undefined where the kernel cannot serve it (no SIMD, or a dimension not a multiple of 16). */
  static create(dimension: number): Int8Scanner | undefined {
    const api = wasmApi();
    const module = kernelModule();
    if (api === undefined || module === null || dimension <= 0 || dimension % 16 !== 0 || dimension > MAX_DIMENSION) return undefined;
    const memory = new api.Memory({ initial: 1 });
    const instance = new api.Instance(module, { env: { memory } });
    return new Int8Scanner(dimension, memory, instance.exports.dots as DotsKernel);
  }

  /** Quantises `query` (of the scanner's dimension) for the next scans; returns the factor that turns an integer dot into a float one. */
  setQuery(query: Float32Array): number {
    let largest = 0;
    for (const value of query) largest = Math.max(largest, Math.abs(value));
    this.#queryScale = largest > 0 ? largest / QUERY_LEVELS : 1;
    const words = new Int16Array(this.#memory.buffer, 0, this.dimension);
    for (let d = 0; d < this.dimension; d += 1) words[d] = Math.round((query[d] as number) / this.#queryScale);
    return this.#queryScale;
  }

  /** Copies `chunks` (each a whole number of rows) one after another into the rows area; returns the bytes copied. */
  load(chunks: readonly Uint8Array[]): number {
    let total = 0;
    for (const chunk of chunks) total += chunk.length;
    this.#reserve(this.#rowsAt + total);
    let at = this.#rowsAt;
    for (const chunk of chunks) {
      this.#bytes.set(chunk, at);
      at += chunk.length;
    }
    return total;
  }

  /**
   * The integer dot products of the query with `count` rows of the loaded bytes, each row `stride`
   * bytes with its `dimension` components at `skip`; multiply one by the row's scale and the factor
   * `setQuery` returned. The view is valid until the next call.
   */
  dots(count: number, stride: number, skip: number): Int32Array {
    const outAt = Math.ceil((this.#rowsAt + count * stride + 16) / 16) * 16;
    this.#reserve(outAt + count * 4);
    this.#kernel(this.#rowsAt + skip, count, stride, this.dimension, 0, outAt);
    return new Int32Array(this.#memory.buffer, outAt, count);
  }

  #reserve(bytes: number): void {
    const have = this.#memory.buffer.byteLength;
    if (bytes <= have) return;
    this.#memory.grow(Math.ceil((Math.max(bytes, have * 2) - have) / WASM_PAGE));
    this.#bytes = new Uint8Array(this.#memory.buffer);
  }
}

/**
 * `dots(rows, count, stride, length, query, out)`: `out[r]` (int32) = Σ int8 `rows[r·stride + i]` ×
 * int16 `query[i]` for i < length (a multiple of 16); pointers are byte offsets into `env.memory`.
 */
export function int8ModuleBytes(): Uint8Array {
  // params 0 rows, 1 count, 2 stride, 3 length, 4 query, 5 out; locals 6 r, 7 i, 8 row, 9 q (i32),
  // 10 acc, 11 v (v128)
  const widenedDot = (extend: number, offset: number): number[] => [
    ...get(11),
    ...simd(extend),
    ...get(9),
    ...v128Load(offset),
    ...simd(I32X4_DOT_I16X8_S),
    ...simd(I32X4_ADD),
  ];
  const lane = (i: number): number[] => [...get(10), ...simd(I32X4_EXTRACT_LANE, i)];
  const code = [
    ...get(0), ...set(8),
    ...BLOCK, ...LOOP,
    ...get(6), ...get(1), I32_GE_U, BR_IF, 1,
    ...v128Zero, ...set(10), ...i32Const(0), ...set(7), ...get(4), ...set(9),
    ...BLOCK, ...LOOP,
    ...get(7), ...get(3), I32_GE_U, BR_IF, 1,
    ...get(8), ...get(7), I32_ADD, ...v128Load(0), ...set(11),
    ...get(10),
    ...widenedDot(I16X8_EXTEND_LOW_I8X16_S, 0),
    ...widenedDot(I16X8_EXTEND_HIGH_I8X16_S, 16),
    ...set(10),
    ...get(7), ...i32Const(16), I32_ADD, ...set(7),
    ...get(9), ...i32Const(32), I32_ADD, ...set(9),
    BR, 0, END, END,
    ...get(5), ...get(6), ...i32Const(2), I32_SHL, I32_ADD,
    ...lane(0), ...lane(1), I32_ADD, ...lane(2), I32_ADD, ...lane(3), I32_ADD,
    I32_STORE, 2, 0,
    ...get(8), ...get(2), I32_ADD, ...set(8),
    ...get(6), ...i32Const(1), I32_ADD, ...set(6),
    BR, 0, END, END,
    END,
  ]; // prettier-ignore
  return functionModule(
    'dots',
    6,
    [
      [4, I32],
      [2, V128],
    ],
    code,
  );
}
