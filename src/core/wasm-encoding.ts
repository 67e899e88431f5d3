/**
 * Just enough of the WebAssembly binary format to encode one exported function over an imported
 * memory, so the SIMD kernels (`simd-scan.ts`, `simd-int8.ts`) are generated from reviewable code at
 * first use rather than committed as opaque bytes. Opcodes are those of the core and SIMD specs.
 */

/** The minimal slice of the WebAssembly API the kernels call (lib ES2023 has no WebAssembly types). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
export interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}

export const WASM_PAGE = 65_536;

/** The runtime's WebAssembly API, when it has one. */
export function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

/** A compiled module for `bytes`, or null where the runtime lacks WebAssembly or refuses them (no SIMD). */
export function compileIfValid(bytes: Uint8Array): object | null {
  const api = wasmApi();
  return api !== undefined && api.validate(bytes) ? new api.Module(bytes) : null;
}

export const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vector = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (text: string): number[] => [...uleb(text.length), ...[...text].map((c) => c.charCodeAt(0))];

export const [I32, F32, V128] = [0x7f, 0x7d, 0x7b];
export const get = (local: number): number[] => [0x20, local];
export const set = (local: number): number[] => [0x21, local];
export const tee = (local: number): number[] => [0x22, local];
/** 0 ≤ n < 64: one signed LEB byte. */
export const i32Const = (n: number): number[] => [0x41, n];
export const simd = (op: number, ...immediates: number[]): number[] => [0xfd, ...uleb(op), ...immediates];
export const v128Load = (offset: number): number[] => simd(0x00, 4, ...uleb(offset));
export const v128Zero = simd(0x0c, ...new Array<number>(16).fill(0));
export const [F32X4_EXTRACT_LANE, F32X4_ADD, F32X4_MUL] = [0x1f, 0xe4, 0xe6];
export const [I32X4_EXTRACT_LANE, I32X4_ADD, I32X4_DOT_I16X8_S] = [0x1b, 0xae, 0xba];
export const [I16X8_EXTEND_LOW_I8X16_S, I16X8_EXTEND_HIGH_I8X16_S] = [0x87, 0x88];
export const [I32_ADD, I32_SHL, I32_GE_U, F32_ADD, F32_STORE, I32_STORE] = [0x6a, 0x74, 0x4f, 0x92, 0x38, 0x36];
export const [BLOCK, LOOP, BR, BR_IF, END] = [[0x02, 0x40], [0x03, 0x40], 0x0c, 0x0d, 0x0b];

/**
 * A module importing `env.memory` and exporting one function `exportName` of `params` i32 parameters
 * and no result, with `locals` (groups of `[count, type]`) and body `code` (its final `end` included).
 */
export function functionModule(exportName: string, params: number, locals: Array<[number, number]>, code: number[]): Uint8Array {
  const body = [...vector(locals.map(([count, type]) => [...uleb(count), type])), ...code];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector(new Array<number[]>(params).fill([I32])), 0]])),
    ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x00, 0x01]])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name(exportName), 0x00, 0]])),
    ...section(10, vector([[...uleb(body.length), ...body]])),
  ]);
}
