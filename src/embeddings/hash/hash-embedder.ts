import { EngramError } from '../../core/errors.js';
import type { Embedder } from '../../core/ports/embedder.js';
import { l2Normalise } from '../l2-normalize.js';

/** Options of {@link HashEmbedder}. */
export interface HashEmbedderOptions {
  /** Vector length, an integer from 8 to 65,536. Default 256. */
  readonly dimension?: number;
}

const WORD_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.5;
const TOKEN_PATTERN = /[\p{L}\p{N}]+/gu;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * A deterministic, offline embedder for tests and tiny installs: lowercase words and their character
 * trigrams are hashed (FNV-1a, signed) into `dimension` buckets, so texts that share words or word
 * parts are similar. No model, no I/O; the same text always gives the same vector on every machine.
 *
 * @example
 * ```ts
 * const embedder = new HashEmbedder({ dimension: 256 });
 * const [cat, cats] = await embedder.embed(['the cat sat', 'cats sitting']); // cosine well above 0
 * ```
 */
export class HashEmbedder implements Embedder {
  readonly name: string;
  readonly dimension: number;

  constructor(options: HashEmbedderOptions = {}) {
    const dimension = options.dimension ?? 256;
    if (!Number.isInteger(dimension) || dimension < 8 || dimension > 65_536) {
      throw new EngramError(
        'INVALID_INPUT',
        `HashEmbedder dimension must be an integer from 8 to 65536, got ${String(dimension)}. Pass e.g. { dimension: 256 }.`,
        { details: { dimension } },
      );
    }
    this.dimension = dimension;
    this.name = `hash:${dimension}`;
    Object.freeze(this);
  }

  /** Embeds texts in order; each result is an L2-normalised vector of length `dimension`. */
  embed(texts: readonly string[]): Promise<Float32Array[]> {
    try {
      return Promise.resolve(texts.map((text) => this.#embedOne(text)));
    } catch (cause) {
      return Promise.reject(
        new EngramError('EMBEDDING_FAILED', 'The hash embedder could not embed the input; pass an array of strings.', {
          cause,
        }),
      );
    }
  }

  /** Nothing to release; present so callers can close every embedder alike. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  #embedOne(text: string): Float32Array {
    if (typeof text !== 'string') throw new TypeError('text must be a string');
    const vector = new Float32Array(this.dimension);
    const words = text.toLowerCase().match(TOKEN_PATTERN) ?? [];
    for (const word of words) {
      this.#addFeature(vector, `w:${word}`, WORD_WEIGHT);
      const padded = `#${word}#`;
      for (let i = 0; i + 3 <= padded.length; i++) {
        this.#addFeature(vector, `t:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
      }
    }
    // An empty text still gets a direction, because the port promises unit vectors.
    if (words.length === 0) this.#addFeature(vector, 'e:<empty>', WORD_WEIGHT);
    return l2Normalise(vector);
  }

  #addFeature(vector: Float32Array, feature: string, weight: number): void {
    const hash = fnv1a(feature);
    const bucket = hash % this.dimension;
    // The top bit picks the sign, so unrelated features cancel out on average instead of piling up.
    const sign = (hash & 0x80000000) === 0 ? 1 : -1;
    vector[bucket] = (vector[bucket] as number) + sign * weight;
  }
}

/** 32-bit FNV-1a over the UTF-16 code units of `text`, as an unsigned integer. */
function fnv1a(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}
