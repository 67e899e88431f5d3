// Deterministic clustered unit vectors and records for the HNSW tests and their child processes.
// Vector i depends only on i: a Gaussian mixture of 24 clusters, so neighbours are many and close,
// like sentence embeddings, rather than the easy case of uniform random points.

import { newRecord } from '../../dist/core/record-factory.js';

export const ANN_TEST_DIMENSION = 96;
const CLUSTERS = 24;
/** Per-component noise against unit-variance centroids: same-cluster cosines around 0.45. */
const NOISE = 1.1;
const T0 = Date.parse('2024-01-01T00:00:00Z');

function rng(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(next) {
  let u = next();
  while (u === 0) u = next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
}

const centroids = [];
function centroid(cluster) {
  if (centroids[cluster] === undefined) {
    const next = rng(0x5eed + cluster * 7919);
    centroids[cluster] = Float64Array.from({ length: ANN_TEST_DIMENSION }, () => gaussian(next));
  }
  return centroids[cluster];
}

/** Unit vector number `i` (any integer; negative ones serve as queries that are not stored). */
export function annTestVector(i) {
  const next = rng(0x9e3779b1 ^ Math.imul(i + 1000003, 2654435761));
  const center = centroid(Math.floor(next() * CLUSTERS));
  const vector = new Float32Array(ANN_TEST_DIMENSION);
  let norm = 0;
  for (let d = 0; d < ANN_TEST_DIMENSION; d++) {
    const value = center[d] + gaussian(next) * NOISE;
    vector[d] = value;
    norm += value * value;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let d = 0; d < ANN_TEST_DIMENSION; d++) vector[d] *= scale;
  return vector;
}

/** The id of record number `i`: fixed width, so ids sort like numbers. */
export function annTestId(i) {
  return `ann-${String(i).padStart(8, '0')}`;
}

/** An active episodic record number `i` in `scope`. */
export function annTestRecord(scope, i, overrides = {}) {
  return { ...newRecord({ now: T0, scope, layer: 'episodic', content: `vector test record ${i}` }), id: annTestId(i), ...overrides };
}
