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

/**
 * Cosine similarity of two vectors of the same length (0 when either is a zero vector).
 *
 * @example
 * ```ts
 * cosineSimilarity(new Float32Array([1, 0]), new Float32Array([1, 1])); // ≈ 0.707
 * ```
 */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
