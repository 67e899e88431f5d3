/**
 * Scales a vector to unit length in place and returns it. A zero vector stays zero, because there is
 * no direction to keep; callers that must return unit vectors give it a direction first.
 *
 * @example
 * ```ts
 * l2Normalise(new Float32Array([3, 4])); // Float32Array [0.6, 0.8]
 * ```
 */
export function l2Normalise(vector: Float32Array): Float32Array {
  let sumOfSquares = 0;
  for (let i = 0; i < vector.length; i++) {
    const value = vector[i] as number;
    sumOfSquares += value * value;
  }
  if (sumOfSquares === 0 || !Number.isFinite(sumOfSquares)) return vector;
  const scale = 1 / Math.sqrt(sumOfSquares);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) * scale;
  return vector;
}

/** Cosine similarity, shared with the rest of the engine (see `core/vectors.ts`). */
export { cosineSimilarity } from '../core/vectors.js';
