/**
 * Checks on vectors that every store applies the same way before it stores or searches one.
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
