import { homedir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { EngramError, isEngramError } from '../../core/errors.js';
import type { Embedder } from '../../core/ports/embedder.js';
import { l2Normalise } from '../l2-normalize.js';
import { USE_DIMENSION } from '../use/use-model.js';
import { distilStaticTable, type StaticDistilProgress } from './distil-static-table.js';
import { StaticTable } from './static-table.js';
import { StaticTokeniser } from './static-tokeniser.js';

/** Options of {@link StaticEmbedder}. */
export interface StaticEmbedderOptions {
  /** Directory of the distilled table file. Default `~/.cache/engram`; the caller may put it beside the database. */
  readonly cacheDir?: string;
  /**
   * Keep only the first this many vocabulary entries (frequent words first). Default: all (~32k).
   * A smaller table distils faster but is a different embedder: its name gets a `-n<size>` suffix.
   * For tests and experiments.
   */
  readonly vocabularySize?: number;
  /** Worker threads used while distilling (see UseEmbedder's `workers`). Default 2. */
  readonly workers?: number;
  /** Progress of a distillation, when one is needed (first use with an empty cache). */
  readonly onProgress?: (progress: StaticDistilProgress) => void;
}

// Bump whenever the word list, the weighting or the table construction changes: the name changes with it.
const VERSION = 'v1';
/** Distillations under way in this process, by table path: two embedders on one cache distil once. */
const distilling = new Map<string, Promise<StaticTable>>();
const TEXTS_BETWEEN_YIELDS = 2048;

/**
 * The fast embedder: a token table distilled once from USE-lite (each vocabulary word
 * embedded by the full model), then at query time a SIF-weighted average of the table rows of a
 * text's words, L2-normalised — tens of thousands of sentences per second, no model in memory.
 * The table is loaded from `cacheDir` on first use, or distilled there first (about a minute on two
 * cores, reported through `onProgress`). Bag-of-words: word order and context are ignored.
 *
 * @example
 * ```ts
 * const embedder = StaticEmbedder.create({ cacheDir: '/var/lib/engram' });
 * const [query] = await embedder.embed(['where does Alice like to sit?']);
 * ```
 */
export class StaticEmbedder implements Embedder {
  readonly name: string;
  readonly dimension = USE_DIMENSION;
  /** The table file this embedder reads, or writes after distilling. */
  readonly tablePath: string;
  readonly #options: {
    readonly vocabularySize: number | undefined;
    readonly workers: number;
    readonly onProgress: (progress: StaticDistilProgress) => void;
  };
  #ready: Promise<{ table: StaticTable; tokeniser: StaticTokeniser }> | null = null;
  #closed = false;

  constructor(options: StaticEmbedderOptions = {}) {
    const vocabularySize = options.vocabularySize;
    if (vocabularySize !== undefined && (!Number.isInteger(vocabularySize) || vocabularySize < 1)) {
      throw new EngramError('INVALID_INPUT', `StaticEmbedder vocabularySize must be a whole number ≥ 1, got ${String(vocabularySize)}.`);
    }
    const suffix = vocabularySize === undefined ? '' : `-n${vocabularySize}`;
    this.name = `static-use-lite:${USE_DIMENSION}:${VERSION}${suffix}`;
    const cacheDir = options.cacheDir ?? join(homedir(), '.cache', 'engram');
    this.tablePath = join(cacheDir, `static-use-lite-${USE_DIMENSION}-${VERSION}${suffix}.bin`);
    this.#options = Object.freeze({
      vocabularySize,
      workers: options.workers ?? 2,
      onProgress: options.onProgress ?? (() => undefined),
    });
  }

  /**
   * Same as `new StaticEmbedder(options)`; nothing is read or distilled until the first embed (or
   * {@link warmUp}).
   *
   * @example
   * ```ts
   * const embedder = StaticEmbedder.create({ cacheDir: '.engram-cache' });
   * ```
   */
  static create(options: StaticEmbedderOptions = {}): StaticEmbedder {
    return new StaticEmbedder(options);
  }

  /**
   * Embeds texts in order into unit-length vectors. The first call loads the table, distilling it
   * first when the cache has none. Throws `EngramError('EMBEDDING_FAILED')` when the table can be
   * neither read nor distilled, or after `close()`.
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (this.#closed) throw closedError();
    if (texts.length === 0) return [];
    const { table, tokeniser } = await this.#load();
    const out: Float32Array[] = [];
    try {
      for (let i = 0; i < texts.length; i++) {
        // Long inputs give the event loop a turn now and then: a server keeps answering.
        if (i > 0 && i % TEXTS_BETWEEN_YIELDS === 0) await yieldToEventLoop();
        out.push(embedOne(table, tokeniser, texts[i] as string));
      }
    } catch (cause) {
      throw new EngramError('EMBEDDING_FAILED', 'The static embedder could not embed the input; pass an array of strings.', { cause });
    }
    return out;
  }

  /** Loads (or distils, then loads) the table now, so the first real call is fast. */
  async warmUp(): Promise<void> {
    if (this.#closed) throw closedError();
    await this.#load();
  }

  /** Drops the table from memory. Idempotent; embedding afterwards throws. */
  close(): Promise<void> {
    this.#closed = true;
    this.#ready = null;
    return Promise.resolve();
  }

  #load(): Promise<{ table: StaticTable; tokeniser: StaticTokeniser }> {
    if (this.#ready === null) {
      const loading = this.#readOrDistil().then((table) => ({ table, tokeniser: new StaticTokeniser(table) }));
      // A failure is retried on the next call instead of being cached.
      loading.catch(() => {
        if (this.#ready === loading) this.#ready = null;
      });
      this.#ready = loading;
    }
    return this.#ready;
  }

  async #readOrDistil(): Promise<StaticTable> {
    const identity = { name: this.name, dimension: this.dimension };
    try {
      return await StaticTable.read(this.tablePath, identity);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      if (!missing && !(isEngramError(error) && error.code === 'STORAGE_CORRUPT')) {
        throw new EngramError(
          'EMBEDDING_FAILED',
          `The static embedding table ${this.tablePath} could not be read; check its permissions.`,
          {
            cause: error,
          },
        );
      }
    }
    let pending = distilling.get(this.tablePath);
    if (pending === undefined) {
      pending = this.#distilAndWrite().finally(() => distilling.delete(this.tablePath));
      distilling.set(this.tablePath, pending);
    }
    return pending;
  }

  async #distilAndWrite(): Promise<StaticTable> {
    const { onProgress, vocabularySize, workers } = this.#options;
    const { table, entries } = await distilStaticTable({ vocabularySize, workers, onProgress });
    onProgress({ phase: 'writing', done: entries.length, total: entries.length });
    try {
      await table.write(this.tablePath, { name: this.name, dimension: this.dimension });
    } catch (cause) {
      throw new EngramError(
        'EMBEDDING_FAILED',
        `The distilled table could not be written to ${this.tablePath}; pass a writable cacheDir.`,
        {
          cause,
        },
      );
    }
    onProgress({ phase: 'done', done: entries.length, total: entries.length });
    return table;
  }
}

function embedOne(table: StaticTable, tokeniser: StaticTokeniser, text: string): Float32Array {
  if (typeof text !== 'string') throw new TypeError('text must be a string');
  const vector = new Float32Array(table.dimension);
  tokeniser.forEachRow(text, (row, weight) => table.addRow(vector, row, weight));
  l2Normalise(vector);
  // No known word at all (empty text, symbols only): a fixed direction, since the port promises unit vectors.
  if (vector.every((value) => value === 0)) vector.fill(1 / Math.sqrt(table.dimension));
  return vector;
}

function closedError(): EngramError {
  return new EngramError('EMBEDDING_FAILED', 'This StaticEmbedder was closed; create a new one to embed again.');
}
