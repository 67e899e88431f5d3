/**
 * The layout of `memory_vectors`, sqlite-vec's vec0 table partitioned by scope. sqlite-vec stores a
 * partition's vectors in chunks, one blob each, allocated whole: with its default of 1,024 vectors a
 * chunk, every scope took at least 1,024 × dimension × 4 bytes (3 MB at 768 dimensions) however few
 * memories it held, and a vector write walked its chunk blob's overflow pages. Measured with 768-d
 * vectors (20,000 in 1,000 scopes, or 300,000 with 2,000 small scopes beside one large one):
 *
 * | chunk | file, 1,000 scopes × 20 | ingest, 1 scope / 1,000 scopes | 2,000 small + 1 large scope | small-scope KNN |
 * |---:|---:|---:|---:|---:|
 * | 1,024 | 3,073 MB | 39,000 / 690-900 a second | 6,824 MB, 2,000-23,000 a second | 0.66-0.72 ms |
 * | 32 (with the partition index) | 154 MB | 84,000 / 7,800-15,600 a second | 991 MB, 37,000-61,000 a second | 0.044 ms |
 *
 * sqlite-vec finds a partition's chunks by a scan of the chunk table, which grows 32 times longer with
 * chunks of 32, so the chunk table gets an index on (partition, chunk id): without it the small-scope
 * KNN took 0.51 ms and ingest slowed as the table grew.
 */

/** Vectors per sqlite-vec chunk (a multiple of 8). */
export const VECTOR_CHUNK_SIZE = 32;

/** SQL creating `memory_vectors` for `dimension`-d vectors in this layout (the table must not exist). */
export function createVectorTableSql(dimension: number): string {
  if (!Number.isInteger(dimension) || dimension <= 0) throw new Error(`vector dimension must be a positive integer, got ${dimension}`);
  return `
    CREATE VIRTUAL TABLE memory_vectors USING vec0 (
      scope TEXT PARTITION KEY,
      embedding FLOAT[${dimension}] distance_metric=cosine,
      chunk_size=${VECTOR_CHUNK_SIZE}
    );
    ${PARTITION_INDEX_SQL}`;
}

/** The index sqlite-vec's own chunk lookups (and the bulk reads in `stored-vectors.ts`) seek by. */
export const PARTITION_INDEX_SQL =
  'CREATE INDEX IF NOT EXISTS memory_vectors_chunks_partition ON memory_vectors_chunks (partition00, chunk_id);';

/** The dimension `memory_vectors` was created with, from its definition (`undefined`: no such table). */
export function vectorTableDimension(definition: string | undefined): number | undefined {
  const match = definition === undefined ? null : /FLOAT\[(\d+)\]/i.exec(definition);
  return match === null ? undefined : Number(match[1]);
}

/** The chunk size `memory_vectors` was created with (sqlite-vec's default, 1,024, when it names none). */
export function vectorTableChunkSize(definition: string | undefined): number {
  const match = definition === undefined ? null : /chunk_size\s*=\s*(\d+)/i.exec(definition);
  return match === null ? 1024 : Number(match[1]);
}
