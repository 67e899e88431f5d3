import { availableParallelism } from 'node:os';
import { EngramError, isEngramError, messages } from '../../core/errors.js';
import type { CosineScale, EmbedOptions, Embedder } from '../../core/ports/embedder.js';
import { BGE_QUERY_INSTRUCTION, findOnnxModel, ONNX_MODELS, onnxEmbedderName, type OnnxModelSpec } from './onnx-model-catalogue.js';
import { OnnxModel, type OnnxModelConfig } from './onnx-model.js';
import { OnnxWorkerPool, resolveOnnxWorkerUrl } from './onnx-worker-pool.js';
import { modelDirectory } from './models/model-cache-dir.js';
import { checkModelFiles, hasModelFiles } from './models/installed-models.js';

/** Options of {@link OnnxEmbedder}. */
export interface OnnxEmbedderOptions {
  /** Catalogue model name, e.g. `bge-small-en-v1.5`. */
  readonly model: string;
  /** Engram's cache folder (the model is read from `<cacheDir>/models/<model>/`). */
  readonly cacheDir: string;
  /** Worker threads for large inputs; 0 (default) embeds in-process. Each worker holds its own session. */
  readonly workers?: number;
  /** Texts per network call, at most. Default 16. */
  readonly batchSize?: number;
  /**
   * Padded tokens per network call, at most (estimated from characters, ~4 a token): long texts go in
   * small batches, since attention grows with the square of the length and padding is wasted work.
   * Default 512: ~11 chat turns of ~160 characters, one 2,000-character text (measured with bge-small:
   * 2,000-character texts 9.6 → 15.6 a second, 300-700-character texts 70 → 97). 0 turns it off.
   */
  readonly maxBatchTokens?: number;
  /**
   * Inputs of at most this many texts run on the calling thread. Default 4. A recall query goes to an
   * idle worker instead, when there is one, so the caller's thread works on the other channels meanwhile;
   * the first query starts the workers (and is embedded on the calling thread while they load).
   */
  readonly inProcessMaxTexts?: number;
  /**
   * Prepend the model's query instruction to recall queries when it has one (bge:
   * "Represent this sentence for searching relevant passages: "). Default false.
   */
  readonly queryInstruction?: boolean;
  /** Skip hashing the files before the first load (they were verified when pulled). Default false. */
  readonly skipVerify?: boolean;
  /**
   * onnxruntime threads inside one call of the session on the calling thread. A call there holds that
   * thread until it returns (nothing else of the caller runs meanwhile), so it may as well use a second
   * core: on 2 cores e5-small-v2's query 15.9 → 10.9 ms (p50), the default blend's 28.0 → 18.8 ms. Workers
   * keep one thread each, as they run side by side. Default: the machine's cores, at most 2.
   */
  readonly inProcessThreads?: number;
}

/**
 * A sentence-transformers model in ONNX form (bge-small, MiniLM, e5) run locally on CPU by
 * onnxruntime-node, from files fetched once by `engram models pull`. Vectors are pooled the way the
 * model was trained (CLS or mean), unit length; queries and passages get the model's prefixes.
 *
 * @example
 * ```ts
 * const embedder = OnnxEmbedder.create({ model: 'bge-small-en-v1.5', cacheDir: '/home/ann/.cache/engram' });
 * const [query] = await embedder.embed(['where does Alice sit?'], { purpose: 'query' });
 * await embedder.close();
 * ```
 */
export class OnnxEmbedder implements Embedder {
  readonly name: string;
  readonly dimension: number;
  readonly spec: OnnxModelSpec;
  readonly cosineScale?: CosineScale;
  readonly #config: OnnxModelConfig;
  /** The session on this thread's (`inProcessThreads`). */
  readonly #inProcessConfig: OnnxModelConfig;
  readonly #options: { batchSize: number; maxBatchTokens: number; inProcessMaxTexts: number; queryPrefix: string; skipVerify: boolean };
  readonly #cacheDir: string;
  readonly #pool: OnnxWorkerPool | null;
  #verified: Promise<void> | null = null;
  /** The files were verified: `embed` then posts its work before yielding to other callbacks. */
  #verifiedOk = false;
  #model: Promise<OnnxModel> | null = null;
  #tail: Promise<unknown> = Promise.resolve();
  #busy = 0;
  #closed = false;

  private constructor(spec: OnnxModelSpec, options: OnnxEmbedderOptions) {
    for (const [key, min] of [
      ['workers', 0],
      ['batchSize', 1],
      ['maxBatchTokens', 0],
      ['inProcessMaxTexts', 0],
      ['inProcessThreads', 1],
    ] as const) {
      const value = options[key];
      if (value !== undefined && (!Number.isInteger(value) || value < min)) {
        throw new EngramError('INVALID_INPUT', `OnnxEmbedder option ${key} must be a whole number ≥ ${min}, got ${String(value)}.`);
      }
    }
    this.spec = spec;
    this.name = onnxEmbedderName(spec);
    this.dimension = spec.dimension;
    if (spec.cosineScale !== undefined) this.cosineScale = spec.cosineScale;
    this.#cacheDir = options.cacheDir;
    const config: OnnxModelConfig = Object.freeze({
      directory: modelDirectory(options.cacheDir, spec.name),
      dimension: spec.dimension,
      pooling: spec.pooling,
      maxTokens: spec.maxTokens,
      // names the optimised copy of the network: only for files this embedder verifies
      ...(options.skipVerify === true ? {} : { sha256: spec.sha256.onnx }),
    });
    this.#config = config;
    this.#inProcessConfig = Object.freeze({ ...config, intraOpThreads: options.inProcessThreads ?? Math.min(2, availableParallelism()) });
    const instruction =
      options.queryInstruction === true && spec.pooling === 'cls' && spec.queryPrefix === '' && spec.name.startsWith('bge-')
        ? BGE_QUERY_INSTRUCTION
        : '';
    this.#options = Object.freeze({
      batchSize: options.batchSize ?? 16,
      maxBatchTokens: options.maxBatchTokens ?? 512,
      inProcessMaxTexts: options.inProcessMaxTexts ?? 4,
      queryPrefix: spec.queryPrefix !== '' ? spec.queryPrefix : instruction,
      skipVerify: options.skipVerify === true,
    });
    const workers = options.workers ?? 0;
    const workerUrl = workers > 0 ? resolveOnnxWorkerUrl() : undefined;
    this.#pool = workerUrl === undefined ? null : new OnnxWorkerPool({ size: workers, model: this.#config, workerUrl });
  }

  /**
   * Checks that the model is in the catalogue and its files are in the cache; nothing is loaded until
   * the first embed. Throws `INVALID_INPUT` for an unknown model, `EMBEDDING_FAILED` with a
   * `engram models pull` hint when its files are missing.
   *
   * @example
   * ```ts
   * const embedder = OnnxEmbedder.create({ model: 'e5-small-v2', cacheDir: '.engram-cache', workers: 2 });
   * ```
   */
  static create(options: OnnxEmbedderOptions): OnnxEmbedder {
    const spec = findOnnxModel(options.model);
    if (spec === undefined) {
      throw new EngramError(
        'INVALID_INPUT',
        `Unknown ONNX model "${options.model}": use one of ${ONNX_MODELS.map((m) => m.name).join(', ')}.`,
      );
    }
    if (!hasModelFiles(options.cacheDir, spec.name)) {
      throw new EngramError('EMBEDDING_FAILED', messages.modelMissing(spec.name, modelDirectory(options.cacheDir, spec.name)), {
        details: { model: spec.name },
      });
    }
    return new OnnxEmbedder(spec, options);
  }

  /** Number of worker threads (0 when everything runs in-process). */
  get workers(): number {
    return this.#pool?.size ?? 0;
  }

  /**
   * Embeds texts in order into unit-length vectors; `purpose: 'query'` adds the model's query prefix,
   * otherwise its passage prefix. Texts are sorted by length into batches so padding stays small, and
   * long texts go in smaller batches (`maxBatchTokens`).
   */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (this.#closed) throw closedError();
    if (texts.length === 0) return [];
    try {
      // posting before the first await lets a worker start while the caller's thread does other work
      if (!this.#verifiedOk) await this.#verify();
      const prefix = options.purpose === 'query' ? this.#options.queryPrefix : this.spec.passagePrefix;
      // Whitespace-only text tokenises to nothing but the special tokens, which the model handles.
      const prepared = texts.map((text) => `${prefix}${String(text)}`);
      const order = prepared.map((_, i) => i).sort((a, b) => (prepared[a] as string).length - (prepared[b] as string).length);
      const onPool = this.#usePool(prepared.length, options.purpose);
      const size = onPool
        ? Math.max(1, Math.min(this.#options.batchSize, Math.ceil(prepared.length / (this.#pool as OnnxWorkerPool).size)))
        : this.#options.batchSize;
      const batches = this.#batches(order, prepared, size);
      const results = await Promise.all(
        batches.map((batch) => {
          const slice = batch.map((i) => prepared[i] as string);
          return onPool ? (this.#pool as OnnxWorkerPool).run(slice) : this.#inProcess(slice);
        }),
      );
      const out: Float32Array[] = new Array<Float32Array>(prepared.length);
      batches.forEach((batch, b) => {
        const flat = results[b] as Float32Array;
        batch.forEach((index, row) => {
          out[index] = flat.slice(row * this.dimension, (row + 1) * this.dimension);
        });
      });
      return out;
    } catch (cause) {
      if (isEngramError(cause)) throw cause;
      throw new EngramError('EMBEDDING_FAILED', `The ONNX model ${this.spec.name} failed to embed the texts; pass an array of strings.`, {
        cause,
      });
    }
  }

  /**
   * Verifies and loads the model now, on this thread and in every worker, instead of on first use,
   * so the first real call is fast. Safe to call more than once.
   */
  async warmUp(): Promise<void> {
    if (this.#closed) throw closedError();
    await this.#verify();
    await Promise.all([this.#inProcess(['warm up']), this.#pool?.warmUp()]);
  }

  /** Terminates the workers and releases the session. Idempotent; embedding afterwards throws. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const model = this.#model;
    this.#model = null;
    await Promise.all([
      this.#pool?.close(),
      model?.then(
        (m) => m.release(),
        () => undefined,
      ),
    ]);
  }

  /**
   * Consecutive runs of `order` (indexes sorted by length) of at most `size` texts and, when the
   * token budget is on, at most `maxBatchTokens` padded tokens (count × the longest text's estimate).
   */
  #batches(order: readonly number[], texts: readonly string[], size: number): number[][] {
    const budget = this.#options.maxBatchTokens;
    const estimate = (i: number): number => Math.min(this.spec.maxTokens, 2 + Math.ceil((texts[i] as string).length / 4));
    const batches: number[][] = [];
    let current: number[] = [];
    for (const index of order) {
      const full = current.length >= size || (budget > 0 && current.length > 0 && (current.length + 1) * estimate(index) > budget);
      if (full) {
        batches.push(current);
        current = [];
      }
      current.push(index);
    }
    if (current.length > 0) batches.push(current);
    return batches;
  }

  #usePool(count: number, purpose: EmbedOptions['purpose']): boolean {
    const pool = this.#pool;
    if (pool === null) return false;
    if (count > this.#options.inProcessMaxTexts) return true;
    // a query starts the workers that are not running, so the next one finds a worker idle
    if (purpose === 'query') pool.start();
    return (purpose === 'query' || this.#busy > 0) && pool.idleWorkers > 0;
  }

  #inProcess(texts: readonly string[]): Promise<Float32Array> {
    this.#busy += 1;
    // Serialised: one session runs one call at a time anyway; queuing keeps memory flat.
    const run = this.#tail.then(async () => (await this.#loadModel()).embedBatch(texts));
    const settled = run.finally(() => {
      this.#busy -= 1;
    });
    this.#tail = settled.catch(() => undefined);
    return settled;
  }

  #verify(): Promise<void> {
    if (this.#options.skipVerify) {
      this.#verifiedOk = true;
      return Promise.resolve();
    }
    if (this.#verified === null) {
      const checking = checkModelFiles(this.#cacheDir, this.spec).then(({ ok }) => {
        if (!ok)
          throw new EngramError('EMBEDDING_FAILED', messages.modelHashMismatch(this.spec.name, this.#config.directory), {
            details: { model: this.spec.name },
          });
        this.#verifiedOk = true;
      });
      checking.catch(() => {
        if (this.#verified === checking) this.#verified = null;
      });
      this.#verified = checking;
    }
    return this.#verified;
  }

  #loadModel(): Promise<OnnxModel> {
    if (this.#model === null) {
      const loading = OnnxModel.load(this.#inProcessConfig);
      // A failed load is retried on the next call instead of being cached forever.
      loading.catch(() => {
        if (this.#model === loading) this.#model = null;
      });
      this.#model = loading;
    }
    return this.#model;
  }
}

function closedError(): EngramError {
  return new EngramError('EMBEDDING_FAILED', 'This OnnxEmbedder was closed; create a new one to embed again.');
}
