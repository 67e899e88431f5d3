import { constants } from 'node:fs';
import { access, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { temporaryPath } from '../../atomic-file.js';
import { EngramError } from '../../core/errors.js';
import type { OnnxPooling } from './onnx-model-catalogue.js';
import { disableOnnxRuntimeTelemetry } from './onnx-runtime-telemetry.js';

/** What {@link OnnxModel.load} needs: the model folder and how to run it. */
export interface OnnxModelConfig {
  /** Folder holding `model.onnx` and `tokenizer.json`. */
  readonly directory: string;
  readonly dimension: number;
  readonly pooling: OnnxPooling;
  readonly maxTokens: number;
  /**
   * Threads onnxruntime may use inside one call (default 1, which keeps workers from fighting over
   * cores). With more, its threads do not spin waiting for work between calls: a session that embeds
   * a query now and then would otherwise keep them busy-waiting on cores the caller's other work needs.
   */
  readonly intraOpThreads?: number;
  /**
   * The catalogue's sha256 of `model.onnx`, which the caller verified: names the optimised copy of the
   * network kept beside it (see {@link OnnxModel.load}). Without it nothing is kept.
   */
  readonly sha256?: string;
}

/** Where an {@link OnnxModel}'s network came from: the model file, or the optimised copy kept beside it. */
export type OnnxNetworkSource = 'model' | 'optimised copy';

/** The subset of onnxruntime-node this module calls, declared structurally. */
interface OrtTensor {
  readonly data: unknown;
  readonly dims: readonly number[];
}
interface OrtSession {
  readonly inputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
  release?(): Promise<void>;
}
interface OrtModule {
  Tensor: new (type: 'int64', data: BigInt64Array, dims: readonly number[]) => OrtTensor;
  InferenceSession: { create(path: string, options: Record<string, unknown>): Promise<OrtSession> };
  env?: { versions?: { node?: string } };
}
interface TokenizerLike {
  encode(text: string, options: { return_token_type_ids: true }): { ids: number[]; token_type_ids: number[] };
}

/**
 * One loaded sentence-transformers ONNX model: tokenises, runs the network, pools (CLS or mean over
 * the attention mask) and L2-normalises. Texts longer than `maxTokens` are cut, keeping the closing
 * special token. Prefixes are the caller's business.
 *
 * @example
 * ```ts
 * const model = await OnnxModel.load({ directory: '/cache/models/bge-small-en-v1.5', dimension: 384, pooling: 'cls', maxTokens: 512 });
 * const flat = await model.embedBatch(['a cat', 'a kitten']); // 2 × 384 values
 * ```
 */
export class OnnxModel {
  /** Where the network was read from this time. */
  readonly source: OnnxNetworkSource;
  readonly #ort: OrtModule;
  readonly #session: OrtSession;
  readonly #tokenizer: TokenizerLike;
  readonly #config: OnnxModelConfig;

  private constructor(
    ort: OrtModule,
    network: { session: OrtSession; source: OnnxNetworkSource },
    tokenizer: TokenizerLike,
    config: OnnxModelConfig,
  ) {
    this.#ort = ort;
    this.#session = network.session;
    this.source = network.source;
    this.#tokenizer = tokenizer;
    this.#config = config;
  }

  /**
   * Loads the tokenizer and the network. Throws `EngramError('EMBEDDING_FAILED')` when either cannot load.
   *
   * onnxruntime optimises a network's graph (fusing operators) each time it loads one: 100-130 ms of
   * loading each of the default blend's models on a 2-core machine. With `config.sha256`, the first
   * load saves the optimised graph beside the model (`optimised-<sha256 prefix>-ort<version>.onnx`,
   * written under a temporary name, then renamed) and later loads read that copy without optimising
   * again. The copy is optimised to onnxruntime's "extended" level, which holds no layout changes tied
   * to this machine's CPU (the "all" level adds only those, which these transformer networks do not
   * use); its outputs were bitwise equal to the model's at "all" for both members of the default blend.
   * A copy that does not load is replaced; a folder that cannot be written keeps none.
   */
  static async load(config: OnnxModelConfig): Promise<OnnxModel> {
    // before onnxruntime creates its environment, which reads it once per process
    disableOnnxRuntimeTelemetry();
    try {
      const [ortImport, { Tokenizer }, tokenizerJson] = await Promise.all([
        import('onnxruntime-node'),
        import('@huggingface/tokenizers'),
        readFile(join(config.directory, 'tokenizer.json'), 'utf8'),
      ]);
      const ort = ((ortImport as { default?: OrtModule }).default ?? ortImport) as OrtModule;
      const tokenizer = new Tokenizer(JSON.parse(tokenizerJson) as object, {}) as unknown as TokenizerLike;
      return new OnnxModel(ort, await createSession(ort, config), tokenizer, config);
    } catch (cause) {
      throw new EngramError(
        'EMBEDDING_FAILED',
        `The ONNX model in ${config.directory} could not be loaded; run "engram models pull" to fetch it again.`,
        { cause },
      );
    }
  }

  /** Embeds prepared texts in one network call; returns `texts.length × dimension` unit-length values. */
  async embedBatch(texts: readonly string[]): Promise<Float32Array> {
    const { maxTokens, dimension } = this.#config;
    const encoded = texts.map((text) => truncate(this.#tokenizer.encode(text, { return_token_type_ids: true }), maxTokens));
    const length = Math.max(1, ...encoded.map((e) => e.ids.length));
    const count = texts.length;
    const ids = new BigInt64Array(count * length);
    const mask = new BigInt64Array(count * length);
    const types = new BigInt64Array(count * length);
    encoded.forEach((e, row) => {
      for (let i = 0; i < e.ids.length; i++) {
        ids[row * length + i] = BigInt(e.ids[i] as number);
        mask[row * length + i] = 1n;
        types[row * length + i] = BigInt(e.types[i] ?? 0);
      }
    });
    const dims = [count, length];
    const feeds: Record<string, OrtTensor> = {
      input_ids: new this.#ort.Tensor('int64', ids, dims),
      attention_mask: new this.#ort.Tensor('int64', mask, dims),
    };
    if (this.#session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new this.#ort.Tensor('int64', types, dims);
    const outputs = await this.#session.run(feeds);
    const hidden = outputs.last_hidden_state ?? Object.values(outputs)[0];
    if (hidden === undefined || hidden.dims[2] !== dimension) {
      throw new EngramError(
        'EMBEDDING_FAILED',
        `The ONNX model in ${this.#config.directory} does not give ${dimension}-d token vectors; pull the model again.`,
      );
    }
    return pool(
      hidden.data as Float32Array,
      encoded.map((e) => e.ids.length),
      { length, dimension, pooling: this.#config.pooling },
    );
  }

  /** Frees the native session. */
  async release(): Promise<void> {
    await this.#session.release?.();
  }
}

/** The optimised copy's file name: the model's hash and onnxruntime's version, since either changes the graph. */
function optimisedName(ort: OrtModule, sha256: string): string | undefined {
  const version = ort.env?.versions?.node;
  if (version === undefined || !/^[0-9a-f]{16,}$/.test(sha256)) return undefined;
  return `optimised-${sha256.slice(0, 16)}-ort${version.replace(/[^0-9A-Za-z.-]/g, '')}.onnx`;
}

/** The network's session, from the optimised copy when there is one that loads, else from the model (saving a copy). */
async function createSession(ort: OrtModule, config: OnnxModelConfig): Promise<{ session: OrtSession; source: OnnxNetworkSource }> {
  const open = (path: string, level: 'all' | 'extended' | 'disabled', save?: string): Promise<OrtSession> =>
    ort.InferenceSession.create(path, {
      intraOpNumThreads: config.intraOpThreads ?? 1,
      interOpNumThreads: 1,
      ...((config.intraOpThreads ?? 1) > 1 ? { extra: { session: { intra_op: { allow_spinning: '0' } } } } : {}),
      graphOptimizationLevel: level,
      ...(save !== undefined ? { optimizedModelFilePath: save } : {}),
    });
  const model = join(config.directory, 'model.onnx');
  const name = config.sha256 === undefined ? undefined : optimisedName(ort, config.sha256);
  if (name === undefined) return { session: await open(model, 'all'), source: 'model' };
  const copy = join(config.directory, name);
  try {
    return { session: await open(copy, 'disabled'), source: 'optimised copy' };
  } catch {
    // none yet, or one that does not load: made again from the model below
  }
  // a folder that cannot be written (a read-only cache) keeps no copy, and the model loads as before
  const writable = await access(config.directory, constants.W_OK).then(
    () => true,
    () => false,
  );
  if (!writable) return { session: await open(model, 'all'), source: 'model' };
  const temporary = temporaryPath(copy);
  try {
    const session = await open(model, 'extended', temporary);
    await rename(temporary, copy)
      .then(() => removeOtherCopies(config.directory, name))
      .catch(() => undefined);
    return { session, source: 'model' };
  } catch {
    // the copy could not be written after all: load as before, without keeping one
    return { session: await open(model, 'all'), source: 'model' };
  } finally {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}

/** A temporary copy older than this was left by a process that was killed while writing it. */
const STALE_TEMPORARY_MS = 60 * 60_000;

/** Removes optimised copies of other models or onnxruntime versions, and temporary ones left behind. */
async function removeOtherCopies(directory: string, keep: string): Promise<void> {
  for (const file of await readdir(directory)) {
    if (!file.startsWith('optimised-') || file === keep) continue;
    const path = join(directory, file);
    if (file.endsWith('.onnx') || (file.includes('.tmp-') && (await olderThan(path, STALE_TEMPORARY_MS)))) await rm(path, { force: true });
  }
}

/** Whether the file was last written more than `ms` ago (false when it is gone). */
async function olderThan(path: string, ms: number): Promise<boolean> {
  const stats = await stat(path).catch(() => undefined);
  return stats !== undefined && Date.now() - stats.mtimeMs > ms;
}

function truncate(encoding: { ids: number[]; token_type_ids: number[] }, maxTokens: number): { ids: number[]; types: number[] } {
  const { ids, token_type_ids: types } = encoding;
  if (ids.length <= maxTokens) return { ids, types };
  // Keep the closing special token ([SEP]): the model was trained on sequences that end with it.
  return { ids: [...ids.slice(0, maxTokens - 1), ids[ids.length - 1] as number], types: types.slice(0, maxTokens) };
}

/** CLS or masked-mean pooling of a `[count, length, dimension]` tensor, then L2 normalisation. */
function pool(
  hidden: Float32Array,
  lengths: readonly number[],
  shape: { length: number; dimension: number; pooling: OnnxPooling },
): Float32Array {
  const { length, dimension, pooling } = shape;
  const out = new Float32Array(lengths.length * dimension);
  lengths.forEach((tokens, row) => {
    const base = row * length * dimension;
    const target = out.subarray(row * dimension, (row + 1) * dimension);
    if (pooling === 'cls') {
      target.set(hidden.subarray(base, base + dimension));
    } else {
      for (let t = 0; t < tokens; t++) {
        const offset = base + t * dimension;
        for (let d = 0; d < dimension; d++) target[d] = (target[d] as number) + (hidden[offset + d] as number);
      }
      for (let d = 0; d < dimension; d++) target[d] = (target[d] as number) / tokens;
    }
    let norm = 0;
    for (let d = 0; d < dimension; d++) norm += (target[d] as number) ** 2;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < dimension; d++) target[d] = (target[d] as number) * scale;
  });
  return out;
}
