/**
 * Checks on vectors that every store applies the same way before it stores or searches one, and the
 * cosine similarity the engine compares embeddings with.
 */
import { EngramError, messages } from './errors.js';

/** Throws `EMBEDDING_DIMENSION_MISMATCH` unless `vector` has `dimension` finite components. */
export function assertDimension(vector: Float32Array, dimension: number, what: string): void {
  if (!(vector instanceof Float32Array)) {
    throw new EngramError('INVALID_INPUT', messages.invalidInput(`the ${what} must be a Float32Array`), { details: { what } });
  }
  if (vector.length !== dimension) {
    throw new EngramError('EMBEDDING_DIMENSION_MISMATCH', messages.dimensionMismatch(dimension, vector.length), {
      details: { what, stored: dimension, given: vector.length },
    });
  }
  for (let i = 0; i < vector.length; i++) {
    if (!Number.isFinite(vector[i])) {
      throw new EngramError('INVALID_INPUT', messages.invalidInput(`the ${what} has a component that is not a finite number`), {
        details: { what, index: i },
      });
    }
  }
}

/**
 * Cosine similarity of two vectors (0 when either is all zeros); compares their common length.
 * @example
 * cosineSimilarity(new Float32Array([1, 0]), new Float32Array([1, 1])); // ≈ 0.707
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
