/**
 * One published HNSW file of a scope, mapped for searching, and the search of it: the same code in the
 * store's thread (`AnnIndex`) and in its search thread (`ann-search-worker.ts`), so both return the
 * same rows with the same scores.
 */
import { inverseNorm } from '../../../core/simd-scan.js';
import { createAnnIndex, type AnnParameters, type UsearchIndex, type UsearchModule } from './ann-library.js';
import { AnnVectorsReader } from './ann-vectors.js';

/** Where a published file lies and what it holds, as its manifest says. */
export interface AnnFileTarget {
  readonly indexPath: string;
  /** The int8 index's exact vectors, which its results are re-scored from. */
  readonly vectorsPath: string | undefined;
  /** Vectors in the file (it picks the search expansion). */
  readonly count: number;
  readonly dimension: number;
  readonly parameters: AnnParameters;
}

/** A file mapped read-only, with its vectors file open. */
export interface MappedAnn {
  readonly base: UsearchIndex;
  readonly vectors: AnnVectorsReader | undefined;
}

/**
 * The rows one search of a mapped file returned, best first by its own (approximate) order: their
 * rowids, their scores (re-scored from the vectors file when there is one; 0 for a zero query, which
 * has no direction, as in exact search), and the approximate score of the last.
 */
export interface AnnBaseHits {
  readonly rowids: Float64Array;
  readonly scores: Float64Array;
  readonly lastApproximate: number;
}

/**
 * Maps `target`'s files; throws when either does not open (the caller rejects the file). Searched with
 * the expansion of a file of its size, or with `expansion` when given (`searchMapped`'s `expansion`
 * then asks for the file's own where a search needs it).
 */
export function mapAnnFile(library: UsearchModule, target: AnnFileTarget, expansion?: number): MappedAnn {
  const base = createAnnIndex(library, target.dimension, target.parameters, target.count, expansion);
  base.view(target.indexPath);
  const vectors = target.vectorsPath === undefined ? undefined : AnnVectorsReader.open(target.vectorsPath, target.dimension);
  return { base, vectors };
}

/**
 * The about `asked` best rows of a mapped file for `query`, each scored (see {@link AnnBaseHits}); with
 * a candidate list of at least `expansion` (the first `asked` of a search asked for that many: the
 * rows a file mapped with that expansion returns), else of the expansion the file was mapped with.
 */
export function searchMapped(mapped: MappedAnn, query: Float32Array, asked: number, expansion = 0): AnnBaseHits {
  const found = mapped.base.search(query, Math.max(asked, expansion), 1);
  const n = Math.min(found.keys.length, asked);
  const rowids = new Float64Array(n);
  const scores = new Float64Array(n);
  const queryInverseNorm = inverseNorm(query, 0, query.length);
  const directed = queryInverseNorm > 0;
  for (let i = 0; i < n; i++) {
    const rowid = Number(found.keys[i]);
    rowids[i] = rowid;
    if (!directed) continue;
    const approximate = 1 - (found.distances[i] as number);
    scores[i] = mapped.vectors?.cosine(rowid, query, queryInverseNorm) ?? approximate;
  }
  const lastApproximate = n > 0 && directed ? 1 - (found.distances[n - 1] as number) : 0;
  return { rowids, scores, lastApproximate };
}
