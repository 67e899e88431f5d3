/**
 * The HNSW library behind the approximate vector index: `usearch`, an optional dependency that ships
 * prebuilt N-API binaries. Declared structurally (the few members called), loaded only when a scope
 * first needs it, and absent-tolerant: when it does not load, the store keeps its exact search.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What the ANN index calls on an HNSW index (`createAnnIndex`'s wrapper of usearch's native index). Keys are SQLite rowids. */
export interface UsearchIndex {
  /** Adds float vectors (`keys.length` rows of the index's dimension); an int8 index quantises them first. */
  add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(vector: Float32Array, k: number, threads?: number): { keys: BigUint64Array; distances: Float32Array };
  remove(keys: BigUint64Array): number[];
  contains(keys: BigUint64Array): boolean[];
  size(): number;
  save(path: string): void;
  /** Copies a saved index into memory (mutable). */
  load(path: string): void;
  /** Memory-maps a saved index (immutable, opens in milliseconds, pages shared between processes). */
  view(path: string): void;
}

/** usearch's N-API class, as its binary exports it (its JavaScript `Index` wraps the same). */
interface CompiledIndex extends Omit<UsearchIndex, 'add' | 'search'> {
  add(keys: BigUint64Array, vectors: Float32Array | Int8Array, threads: number): void;
  search(vectors: Float32Array | Int8Array, k: number, threads: number): [BigUint64Array, Float32Array, BigUint64Array];
}

/** The subset of usearch's native module the ANN index calls. */
export interface UsearchModule {
  CompiledIndex: new (
    dimensions: number,
    metric: 'cos',
    quantization: AnnParameters['quantization'],
    connectivity: number,
    expansionAdd: number,
    expansionSearch: number,
    multi: boolean,
  ) => CompiledIndex;
}

/** HNSW parameters. Changing a build parameter makes existing files mismatched, so they are rebuilt. */
export interface AnnParameters {
  /** HNSW `M`: links per node. */
  readonly connectivity: number;
  /** `efConstruction`: candidate list size while inserting. */
  readonly expansionAdd: number;
  /** `efSearch` of an index of more than `compactRows` vectors (usearch uses max(this, k)). */
  readonly expansionSearch: number;
  /** `efSearch` of an index of up to `compactRows` vectors. */
  readonly compactExpansionSearch: number;
  readonly compactRows: number;
  /**
   * Storage of the vectors in the index. f16 halves memory and speeds search with score error < 1e-4;
   * i8 (each vector scaled so its largest component is ±127) quarters it and searches 23-35 % faster,
   * with score error ~3e-4, so the rows a search returns are re-scored from the build's exact vectors
   * file (`ann-vectors.ts`).
   */
  readonly quantization: 'f16' | 'f32' | 'i8';
}

/**
 * Measured 3 December 2026 on the benchmark corpus (`bench/scale-corpus.mjs` texts; recall@10 of the
 * top 200 against brute force; docs/benchmarks.md "HNSW for a million vectors"): with M 16 no search
 * expansion up to 1,536 reached 0.98 at 1M static-table vectors (0.964 at 640, 0.978 at 1,536); with M 32 and
 * efConstruction 256, 0.986 at 640 (1M static); at 100k 0.9965 at 256 (2.8 ms) and 0.9975 at 384
 * (4.1 ms) with blend-e5-minilm vectors, 0.978 and 0.992 with the static table's, whose averaged word
 * vectors crowd together. Up to 200,000 vectors the search uses 128, for the default model's latency:
 * recall asks for 116 rows (its 100 candidates and a margin) and, at 100k blend-e5-minilm vectors, 116
 * rows at 128 gave recall@10 0.9925 in 2.3 ms against 0.9965 in 4.0 ms at 256 (`bench/ann-params.mjs
 * --count 116`, 3 December); through the store, `vectorSearch` in a 100k recall went 5.5-5.8 → 3.5 ms.
 * The static table's vectors pay more for it: 0.956 against 0.980 at 100k. Builds take 2.6-3.1× as long as with M 16.
 * Above 200,000 the search uses 896: through the store at 1M static-table vectors (scope filter,
 * inactive rows dropped, 200 queries against exact search), recall@10 0.976 at 640 (p50 11.6-12.8 ms),
 * 0.9815 at 800, 0.9835 at 896 (16.3 ms), 0.9845 at 1,024 (20.1 ms).
 */
export const ANN_PARAMETERS: AnnParameters = Object.freeze({
  connectivity: 32,
  expansionAdd: 256,
  expansionSearch: 896,
  compactExpansionSearch: 128,
  compactRows: 200_000,
  quantization: 'i8',
});

/**
 * The search expansion of the preview a recall reads ahead from while the full search of a file of
 * more than `compactRows` vectors runs on the search thread (`AnnIndex.preview`). Measured 6 December
 * 2026 on the 1M benchmark corpus (static-table vectors, 200 queries, 116 rows asked, one thread):
 * expansion 64 / 128 / 192 / 256 / 384 found 81.5 / 82.7 / 88.5 / 91.9 / 95.3 % of the rows of the
 * full search (896) in p50 3.1 / 2.9 / 3.8 / 4.7 / 6.3 ms, against 12.0 for the full one. A row the
 * preview misses is read after the full search; one it finds is read while that search runs.
 */
export const ANN_PREVIEW_EXPANSION = 128;

/** The search expansion for an index of `count` vectors. */
export function expansionSearchFor(parameters: AnnParameters, count: number): number {
  return count <= parameters.compactRows ? parameters.compactExpansionSearch : parameters.expansionSearch;
}

/**
 * A new empty index for `dimension`-d vectors, cosine distance, searched as an index of `count` vectors
 * (or with the search `expansion` given: a search asked for k rows keeps max(expansion, k) candidates,
 * and returns the first k of them sorted, so a search asked for more rows and cut to k finds what a
 * search with that larger expansion finds).
 */
export function createAnnIndex(
  library: UsearchModule,
  dimension: number,
  parameters: AnnParameters,
  count = 0,
  expansion = expansionSearchFor(parameters, count),
): UsearchIndex {
  const native = new library.CompiledIndex(
    dimension,
    'cos',
    parameters.quantization,
    parameters.connectivity,
    parameters.expansionAdd,
    expansion,
    false,
  );
  return new NativeAnnIndex(native, dimension, parameters.quantization === 'i8');
}

/**
 * usearch's native index behind {@link UsearchIndex}. An int8 index is handed int8 codes of each
 * vector scaled so its largest component is ±127 (a cosine ignores the scale): usearch's own cast
 * from floats multiplies a unit vector by 127, which leaves a 768-d vector's components at about ±4
 * and its scores off by ~4.5e-3, against ~3e-4 scaled (docs/benchmarks.md, "int8 vectors, scaled per vector").
 */
class NativeAnnIndex implements UsearchIndex {
  readonly #native: CompiledIndex;
  readonly #dimension: number;
  readonly #scaled: boolean;

  constructor(native: CompiledIndex, dimension: number, scaled: boolean) {
    this.#native = native;
    this.#dimension = dimension;
    this.#scaled = scaled;
  }

  add(keys: BigUint64Array, vectors: Float32Array, threads = 1): void {
    if (vectors.length !== keys.length * this.#dimension)
      throw new RangeError(`${keys.length} keys need ${keys.length * this.#dimension} vector components, not ${vectors.length}`);
    if (keys.length > 0) this.#native.add(keys, this.#scaled ? scaledInt8(vectors, this.#dimension) : vectors, threads);
  }

  search(vector: Float32Array, k: number, threads = 1): { keys: BigUint64Array; distances: Float32Array } {
    const [keys, distances, counts] = this.#native.search(this.#scaled ? scaledInt8(vector, this.#dimension) : vector, k, threads);
    const found = Number(counts[0] ?? 0n);
    return { keys: keys.subarray(0, found), distances: distances.subarray(0, found) };
  }

  remove(keys: BigUint64Array): number[] {
    return this.#native.remove(keys);
  }

  contains(keys: BigUint64Array): boolean[] {
    return this.#native.contains(keys);
  }

  size(): number {
    return this.#native.size();
  }

  save(path: string): void {
    this.#native.save(path);
  }

  load(path: string): void {
    this.#native.load(path);
  }

  view(path: string): void {
    this.#native.view(path);
  }
}

/** int8 codes of `dimension`-d rows, each scaled so its largest component is ±127 (a zero row stays zero). */
export function scaledInt8(vectors: Float32Array, dimension: number): Int8Array {
  const codes = new Int8Array(vectors.length);
  for (let row = 0; row < vectors.length; row += dimension) {
    let largest = 0;
    for (let i = row; i < row + dimension; i++) largest = Math.max(largest, Math.abs(vectors[i] as number));
    if (!(largest > 0) || !Number.isFinite(largest)) continue;
    const scale = 127 / largest;
    for (let i = row; i < row + dimension; i++) codes[i] = Math.round((vectors[i] as number) * scale);
  }
  return codes;
}

/** Where usearch is installed here: the native binary the ANN index loads (not its JavaScript entry). */
export interface UsearchLocation {
  readonly binary: string;
}

/** Directories climbed from the resolved entry to the package root; the entry sits three below it. */
const MAX_PACKAGE_DEPTH = 5;

/**
 * Finds usearch by explicit paths, without loading it: the package resolved from this module, its
 * root found within a few parent directories, and a binary for this platform in `build/Release` or
 * `prebuilds/`. `undefined` when it is not installed or has no binary here.
 */
export function locateUsearch(): UsearchLocation | undefined {
  let entry: string;
  try {
    // only to find the package: its own binary lookup is never run (the ESM entry's starts from a
    // relative "." under `node -e` or a REPL and never ends)
    entry = createRequire(import.meta.url).resolve('usearch');
  } catch {
    return undefined;
  }
  let root = dirname(entry);
  for (let depth = 0; depth < MAX_PACKAGE_DEPTH && !isUsearchRoot(root); depth++) root = dirname(root);
  if (!isUsearchRoot(root)) return undefined;
  const binary = nativeBinary(root);
  return binary === undefined ? undefined : { binary };
}

function isUsearchRoot(directory: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { name?: unknown };
    return manifest.name === 'usearch';
  } catch {
    return false;
  }
}

function nativeBinary(root: string): string | undefined {
  const built = join(root, 'build', 'Release', 'usearch.node');
  if (existsSync(built)) return built;
  const prebuilds = join(root, 'prebuilds');
  let tuples: string[];
  try {
    tuples = readdirSync(prebuilds);
  } catch {
    return undefined;
  }
  // "<platform>-<arch>[+<arch>...]", as node-gyp-build names them
  for (const tuple of tuples) {
    const [platform, archs = ''] = tuple.split('-', 2);
    if (platform !== process.platform || !archs.split('+').includes(process.arch)) continue;
    const binary = join(prebuilds, tuple, 'usearch.node');
    if (existsSync(binary)) return binary;
  }
  return undefined;
}

let loaded: { module: UsearchModule | undefined; problem: string | undefined } | undefined;

/**
 * The `usearch` module, loaded on first call (later calls return the same), or `undefined` with
 * `usearchProblem()` saying why when it is not installed or its binary does not load here.
 */
export function loadUsearch(): UsearchModule | undefined {
  loaded ??= loadOnce();
  return loaded.module;
}

/** Why `loadUsearch()` returned `undefined`; `undefined` before the first call or when it loaded. */
export function usearchProblem(): string | undefined {
  return loaded?.problem;
}

/** Whether this process has loaded usearch (tests check that small stores never do). */
export function usearchLoaded(): boolean {
  return loaded?.module !== undefined;
}

function loadOnce(): { module: UsearchModule | undefined; problem: string | undefined } {
  const location = locateUsearch();
  if (location === undefined)
    return { module: undefined, problem: 'the optional dependency usearch is not installed or has no binary for this platform' };
  try {
    // the binary itself: the JavaScript `Index` would turn int8 codes back into floats
    const exported = createRequire(import.meta.url)(location.binary) as Partial<UsearchModule>;
    if (typeof exported.CompiledIndex === 'function') return { module: { CompiledIndex: exported.CompiledIndex }, problem: undefined };
    return { module: undefined, problem: `usearch's binary at ${location.binary} exports no CompiledIndex` };
  } catch (error) {
    return {
      module: undefined,
      problem: `usearch does not load: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    };
  }
}
