import { UseEmbedder } from '../use/use-embedder.js';
import { USE_DIMENSION } from '../use/use-model.js';
import { StaticTable } from './static-table.js';
import { buildStaticVocabulary, readUsePieces, type StaticVocabularyEntry } from './static-vocabulary.js';

/** Where a distillation is: loading the full model, embedding the vocabulary, or writing the file. */
export interface StaticDistilProgress {
  readonly phase: 'loading-model' | 'embedding' | 'writing' | 'done';
  /** Vocabulary entries embedded so far (0 outside the embedding phase). */
  readonly done: number;
  /** Vocabulary size. */
  readonly total: number;
}

/** Options of {@link distilStaticTable}. */
export interface StaticDistilOptions {
  /**
   * Keep only the first this many vocabulary entries (frequent words first, then contractions, then
   * sub-pieces). Default: all of them, about 32k. For tests and experiments.
   */
  readonly vocabularySize?: number;
  /** Worker threads for the full model; 0 embeds in-process. Default 2. */
  readonly workers?: number;
  /** Called as the distillation advances. */
  readonly onProgress?: (progress: StaticDistilProgress) => void;
}

const CHUNK = 2048;
const WORD_BATCH = 64;

/**
 * Distils the static table from USE-lite: builds the vocabulary (frequent words, contractions, USE
 * sentencepiece pieces), embeds every entry's text with the full model (on worker threads when the
 * compiled worker is available, else in-process), and returns the table with its vocabulary.
 * About 32k entries; 40-60 s on two cores. Throws `EngramError('EMBEDDING_FAILED')`.
 *
 * @example
 * ```ts
 * const { table } = await distilStaticTable({ vocabularySize: 2000, onProgress: (p) => console.error(p) });
 * ```
 */
export async function distilStaticTable(
  options: StaticDistilOptions = {},
): Promise<{ table: StaticTable; entries: StaticVocabularyEntry[] }> {
  // Loaded here only: embedding with a cached table never needs the 250 kB word list.
  const { STATIC_WORD_LIST } = await import('./static-word-list.js');
  const words = STATIC_WORD_LIST.split(/\s+/).filter((word) => word.length > 0);
  const entries = buildStaticVocabulary({ words, pieces: await readUsePieces() }).slice(0, options.vocabularySize);
  const report = options.onProgress ?? (() => undefined);
  const total = entries.length;
  const embedder = new UseEmbedder({ workers: options.workers ?? 2, batchSize: WORD_BATCH, inProcessMaxTexts: 0 });
  try {
    report({ phase: 'loading-model', done: 0, total });
    await embedder.warmUp();
    const vectors = new Float32Array(total * USE_DIMENSION);
    for (let start = 0; start < total; start += CHUNK) {
      report({ phase: 'embedding', done: start, total });
      const chunk = entries.slice(start, start + CHUNK).map((entry) => entry.text);
      const embedded = await embedder.embed(chunk);
      embedded.forEach((vector, offset) => vectors.set(vector, (start + offset) * USE_DIMENSION));
    }
    report({ phase: 'embedding', done: total, total });
    return { table: StaticTable.fromVectors({ entries, vectors, dimension: USE_DIMENSION }), entries };
  } finally {
    await embedder.close();
  }
}
