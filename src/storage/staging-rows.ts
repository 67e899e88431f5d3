/**
 * What the SQLite and PostgreSQL stores share about staged vectors (`reembed`): the meta keys, how a
 * row becomes a candidate, and the dimension check, so both stage alike.
 */
import { EngramError, messages } from '../core/errors.js';
import type { Layer } from '../core/memory.js';
import type { EmbeddingIdentity, StagingCandidate } from '../core/ports/vector-staging.js';

export const META_STAGING_NAME = 'embedding.staging.name';
export const META_STAGING_DIMENSION = 'embedding.staging.dimension';
/** Records still unstaged are embedded this many per call inside the switch. */
export const COMPLETE_BATCH = 64;

/** A row of the records to re-embed, as both stores select it. */
export interface CandidateRow {
  id: string;
  layer: string;
  content: string;
  data: string;
}

/** The candidate of a row; a damaged data document becomes `{}` so its record still gets a vector, from its content. */
export function toCandidate(row: CandidateRow): StagingCandidate {
  return { id: row.id, layer: row.layer as Layer, content: row.content, data: decodeData(row.data) };
}

/** The staging model recorded in meta (`embedding.staging.*`), or null. */
export function stagedIdentity(byKey: ReadonlyMap<string, string>): EmbeddingIdentity | null {
  const name = byKey.get(META_STAGING_NAME);
  const dimension = Number(byKey.get(META_STAGING_DIMENSION));
  return name === undefined || !Number.isInteger(dimension) ? null : { name, dimension };
}

/** `CONFLICT` when nothing is staged (another run finished or discarded it). */
export function noStaging(): EngramError {
  return new EngramError('CONFLICT', 'No reembed is staged in this store (another run finished or discarded it): run reembed again.');
}

/** `CONFLICT` when the staging is for another model than the switch asks for. */
export function otherStaging(staged: EmbeddingIdentity, target: EmbeddingIdentity): EngramError {
  return new EngramError(
    'CONFLICT',
    `The staged vectors are for "${staged.name}", not "${target.name}": run reembed with that model, or again with this one to start over.`,
    {
      details: { staged: staged.name, target: target.name },
    },
  );
}

export function sameIdentity(a: EmbeddingIdentity, b: EmbeddingIdentity): boolean {
  return a.name === b.name && a.dimension === b.dimension;
}

/** Throws `EMBEDDING_DIMENSION_MISMATCH` unless `embedding` has the staging dimension. */
export function assertStagingDimension(embedding: Float32Array | undefined, staging: EmbeddingIdentity): Float32Array {
  if (embedding === undefined)
    throw new EngramError('EMBEDDING_FAILED', 'The embedder returned fewer vectors than texts; nothing was staged.');
  if (embedding.length !== staging.dimension) {
    throw new EngramError('EMBEDDING_DIMENSION_MISMATCH', messages.dimensionMismatch(staging.dimension, embedding.length), {
      details: { stored: staging.dimension, given: embedding.length },
    });
  }
  return embedding;
}

function decodeData(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
