/**
 * Bulk reads of the vectors sqlite-vec stores. sqlite-vec keeps a scope's vectors in chunks of up to
 * 1024, one blob per chunk. Reading whole chunks is ~10x faster than reading rows one at a time, and
 * reading one row costs about half a chunk (SQLite walks the blob's overflow pages from its start).
 * So these functions read the chunk tables directly when their layout is the one this code knows,
 * and fall back to the public row interface otherwise. Call them inside a snapshot.
 */
import type { SqliteConnection } from '../sqlite-connection.js';

/** Up to one chunk's vectors: `rowids[i]` is -1 for an empty or deleted slot. */
export interface VectorChunk {
  readonly chunkId: number;
  readonly size: number;
  readonly rowids: Float64Array;
  readonly vectors: Float32Array;
}

interface ChunkRow {
  chunk_id: number;
  size: number;
  validity: Uint8Array;
  rowids: Uint8Array;
  vectors: Uint8Array;
}

const CHUNK_SQL = `SELECT c.chunk_id AS chunk_id, c.size AS size, c.validity AS validity, c.rowids AS rowids, v.vectors AS vectors
  FROM memory_vectors_chunks c JOIN memory_vectors_vector_chunks00 v ON v.rowid = c.chunk_id`;
/** A chunk is worth reading whole when this many of the wanted rows are in it. */
const ROWS_PER_CHUNK_READ = 3;

const layouts = new WeakMap<SqliteConnection, boolean>();

/**
 * The chunks of `scope` with id above `afterChunkId`, in id order, at most `limit` of them; or
 * `undefined` when the chunk layout is unknown or a chunk looks malformed (then use `readScopeRows`).
 */
export function readScopeChunks(
  connection: SqliteConnection,
  options: { scope: string; dimension: number; afterChunkId?: number; limit?: number },
): VectorChunk[] | undefined {
  if (!chunkLayoutKnown(connection)) return undefined;
  const rows = connection.statement(`${CHUNK_SQL} WHERE c.partition00 = ? AND c.chunk_id > ? ORDER BY c.chunk_id LIMIT ?`);
  const chunks: VectorChunk[] = [];
  for (const raw of rows.iterate(options.scope, options.afterChunkId ?? 0, options.limit ?? -1)) {
    const chunk = decodeChunk(raw as ChunkRow, options.dimension);
    if (chunk === undefined) return undefined;
    chunks.push(chunk);
  }
  return chunks;
}

/** The id of the newest sqlite-vec chunk of `scope` (0: none), or `undefined` when the layout is unknown. */
export function lastScopeChunkId(connection: SqliteConnection, scope: string): number | undefined {
  if (!chunkLayoutKnown(connection)) return undefined;
  const row = connection.get<{ last: number | null }>(
    'SELECT max(chunk_id) AS last FROM memory_vectors_chunks WHERE partition00 = ?',
    scope,
  );
  return row?.last ?? 0;
}

/** Every vector of `scope` through the public row interface, as one chunk. */
export function readScopeRows(connection: SqliteConnection, scope: string, dimension: number): VectorChunk {
  const rowids: number[] = [];
  const blobs: Uint8Array[] = [];
  for (const row of connection.statement('SELECT rowid, embedding FROM memory_vectors WHERE scope = ?').iterate(scope)) {
    const { rowid, embedding } = row as { rowid: number; embedding: Uint8Array };
    if (embedding.length !== dimension * 4) continue;
    rowids.push(rowid);
    blobs.push(embedding);
  }
  const vectors = new Float32Array(rowids.length * dimension);
  blobs.forEach((blob, i) => vectors.set(toFloat32(blob), i * dimension));
  return { chunkId: 0, size: rowids.length, rowids: Float64Array.from(rowids), vectors };
}

/** The current vectors of `rowids`; a rowid without a vector (deleted) is absent from the map. */
export function readVectors(connection: SqliteConnection, rowids: Iterable<number>, dimension: number): Map<number, Float32Array> {
  const found = new Map<number, Float32Array>();
  const wanted = [...new Set(rowids)];
  let single = wanted;
  if (wanted.length >= ROWS_PER_CHUNK_READ && chunkLayoutKnown(connection)) {
    single = [];
    const byChunk = new Map<number, Array<{ rowid: number; offset: number }>>();
    const located = connection.all<{ rowid: number; chunk_id: number | null; chunk_offset: number | null }>(
      'SELECT rowid, chunk_id, chunk_offset FROM memory_vectors_rowids WHERE rowid IN (SELECT value FROM json_each(?))',
      JSON.stringify(wanted),
    );
    // a rowid sqlite-vec does not know has no vector, so it is simply not looked up
    for (const { rowid, chunk_id: chunkId, chunk_offset: offset } of located) {
      if (chunkId === null || offset === null) continue;
      const rows = byChunk.get(chunkId) ?? [];
      rows.push({ rowid, offset });
      byChunk.set(chunkId, rows);
    }
    for (const [chunkId, rows] of byChunk) {
      if (rows.length < ROWS_PER_CHUNK_READ) {
        single.push(...rows.map((r) => r.rowid));
        continue;
      }
      const raw = connection.get<ChunkRow>(`${CHUNK_SQL} WHERE c.chunk_id = ?`, chunkId);
      const chunk = raw === undefined ? undefined : decodeChunk(raw, dimension);
      for (const { rowid, offset } of rows) {
        if (chunk !== undefined && offset < chunk.size && chunk.rowids[offset] === rowid) {
          found.set(rowid, chunk.vectors.slice(offset * dimension, (offset + 1) * dimension));
        } else {
          single.push(rowid);
        }
      }
    }
  }
  for (const rowid of single) {
    const row = connection.get<{ embedding: Uint8Array }>('SELECT embedding FROM memory_vectors WHERE rowid = ?', BigInt(rowid));
    if (row !== undefined && row.embedding.length === dimension * 4)
      found.set(rowid, new Float32Array(new Uint8Array(row.embedding).buffer));
  }
  return found;
}

/** A Float32Array over the blob's bytes: a view when aligned, else a copy. */
export function toFloat32(bytes: Uint8Array): Float32Array {
  if (bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  return new Float32Array(new Uint8Array(bytes).buffer);
}

function decodeChunk(chunk: ChunkRow, dimension: number): VectorChunk | undefined {
  const { size } = chunk;
  if (chunk.validity.length * 8 < size || chunk.rowids.length !== size * 8 || chunk.vectors.length !== size * dimension * 4)
    return undefined;
  const ids = new DataView(chunk.rowids.buffer, chunk.rowids.byteOffset, chunk.rowids.length);
  const rowids = new Float64Array(size);
  for (let slot = 0; slot < size; slot++) {
    const valid = ((chunk.validity[slot >> 3] as number) & (1 << (slot & 7))) !== 0;
    rowids[slot] = valid ? Number(ids.getBigInt64(slot * 8, true)) : -1;
  }
  return { chunkId: chunk.chunk_id, size, rowids, vectors: toFloat32(chunk.vectors) };
}

function chunkLayoutKnown(connection: SqliteConnection): boolean {
  let known = layouts.get(connection);
  if (known === undefined) {
    const sql = (name: string): string => connection.get<{ sql: string }>('SELECT sql FROM sqlite_master WHERE name = ?', name)?.sql ?? '';
    const chunks = sql('memory_vectors_chunks');
    const rowids = sql('memory_vectors_rowids');
    known =
      ['size', 'partition00', 'validity', 'rowids', 'chunk_id'].every((c) => chunks.includes(c)) &&
      ['chunk_id', 'chunk_offset'].every((c) => rowids.includes(c)) &&
      sql('memory_vectors_vector_chunks00').includes('vectors');
    layouts.set(connection, known);
  }
  return known;
}
