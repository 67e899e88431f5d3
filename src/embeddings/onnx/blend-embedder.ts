import { EngramError, isEngramError } from '../../core/errors.js';
import type { CosineScale, EmbedOptions, Embedder } from '../../core/ports/embedder.js';
import { blendEmbedderName, findOnnxBlend, ONNX_BLENDS, type OnnxBlendSpec } from './onnx-model-catalogue.js';
import { OnnxEmbedder, type OnnxEmbedderOptions } from './onnx-embedder.js';

/** Options of {@link BlendEmbedder}: those of {@link OnnxEmbedder}, with a blend name for `model`. */
export type BlendEmbedderOptions = OnnxEmbedderOptions;

/**
 * A blend of catalogue models (`blend-small-en`): every text goes through each member model, whose
 * unit vector is scaled by √(weight / Σ weights); the scaled vectors are concatenated. The result has
 * unit length and its cosine with another blended vector is the weighted mean of the members'
 * cosines, so the store, the ANN index and every channel treat it as one model of the summed dimension.
 * Each member keeps its own pooling and prefixes (e5's `query: `/`passage: `) and, with `workers`, its
 * own worker threads.
 *
 * @example
 * ```ts
 * const embedder = BlendEmbedder.create({ model: 'blend-small-en', cacheDir: '/home/ann/.cache/engram' });
 * const [query] = await embedder.embed(['which pets does Priya have?'], { purpose: 'query' });
 * query.length; // 1152
 * await embedder.close();
 * ```
 */
export class BlendEmbedder implements Embedder {
  readonly name: string;
  readonly dimension: number;
  readonly blend: OnnxBlendSpec;
  /** The members' scales, weighted like their cosines (a blended cosine is their weighted mean). */
  readonly cosineScale?: CosineScale;
  readonly #members: readonly OnnxEmbedder[];
  readonly #scales: readonly number[];
  #closed = false;

  private constructor(blend: OnnxBlendSpec, members: readonly OnnxEmbedder[]) {
    this.blend = blend;
    this.#members = members;
    this.name = blendEmbedderName(blend);
    this.dimension = members.reduce((sum, m) => sum + m.dimension, 0);
    const total = blend.members.reduce((sum, m) => sum + m.weight, 0);
    const shares = blend.members.map((m) => m.weight / total);
    this.#scales = shares.map(Math.sqrt);
    const memberScales = members.map((m) => m.cosineScale);
    if (memberScales.every((scale) => scale !== undefined)) {
      const mean = (pick: (scale: CosineScale) => number): number =>
        memberScales.reduce((sum, scale, i) => sum + pick(scale) * (shares[i] as number), 0);
      this.cosineScale = { unrelated: mean((scale) => scale.unrelated), related: mean((scale) => scale.related) };
    }
  }

  /**
   * Checks that the blend exists and every member's files are in the cache; nothing is loaded until
   * the first embed. Throws `INVALID_INPUT` for an unknown blend and `EMBEDDING_FAILED` with a
   * `engram models pull` hint when a member's files are missing.
   *
   * @example
   * ```ts
   * const embedder = BlendEmbedder.create({ model: 'blend-small-en', cacheDir: '.engram-cache', workers: 2 });
   * ```
   */
  static create(options: BlendEmbedderOptions): BlendEmbedder {
    const blend = findOnnxBlend(options.model);
    if (blend === undefined) {
      throw new EngramError(
        'INVALID_INPUT',
        `Unknown model blend "${options.model}": use one of ${ONNX_BLENDS.map((b) => b.name).join(', ')}.`,
      );
    }
    const members = blend.members.map((member) => OnnxEmbedder.create({ ...options, model: member.model }));
    return new BlendEmbedder(blend, members);
  }

  /** Embeds texts in order; each member embeds them with its own prefixes, the vectors are joined. */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (this.#closed) throw new EngramError('EMBEDDING_FAILED', 'This BlendEmbedder was closed; create a new one to embed again.');
    if (texts.length === 0) return [];
    try {
      const parts = await Promise.all(this.#members.map((member) => member.embed(texts, options)));
      return texts.map((_, row) => {
        const out = new Float32Array(this.dimension);
        let offset = 0;
        parts.forEach((vectors, m) => {
          const vector = vectors[row] as Float32Array;
          const scale = this.#scales[m] as number;
          for (let d = 0; d < vector.length; d++) out[offset + d] = (vector[d] as number) * scale;
          offset += vector.length;
        });
        return out;
      });
    } catch (cause) {
      if (isEngramError(cause)) throw cause;
      throw new EngramError('EMBEDDING_FAILED', `The model blend ${this.blend.name} failed to embed the texts; pass an array of strings.`, {
        cause,
      });
    }
  }

  /** Loads every member's model (and workers) now. */
  async warmUp(): Promise<void> {
    await Promise.all(this.#members.map((member) => member.warmUp()));
  }

  /** Closes every member. Idempotent; embedding afterwards throws. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(this.#members.map((member) => member.close()));
  }
}
