/**
 * Bulk reads of the vectors sqlite-vec stores. sqlite-vec keeps a scope's vectors in chunks (of 32 in
 * stores made or moved by schema 23, of 1,024 before: `vector-table.ts`), one blob per chunk. Reading
 * whole chunks is ~10x faster than reading rows one at a time, and reading one row costs about half a
 * chunk (SQLite walks the blob's overflow pages from its start).
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

/** Vectors a sqlite-vec chunk of this store holds (its table's chunk size; 1,024 when it has no chunk yet). */
export function chunkCapacity(connection: SqliteConnection): number {
  if (!chunkLayoutKnown(connection)) return 1024;
  return connection.get<{ size: number }>('SELECT size FROM memory_vectors_chunks LIMIT 1')?.size ?? 1024;
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
      const slice = readChunkSlice(connection, chunkId, rows, dimension);
      for (const { rowid, offset } of rows) {
        const vector = slice?.vectorOf(rowid, offset);
        if (vector !== undefined) found.set(rowid, vector);
        else single.push(rowid);
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

/**
 * The part of a chunk's vector blob that spans `rows` (their lowest to highest slot), with the chunk's
 * slot table: recent rows sit together at a chunk's end, and a slice is ~0.2 ms where the whole 2 MB
 * blob of a full 512-d chunk is ~0.4-1.2 ms. `undefined` when the chunk is missing or malformed.
 */
function readChunkSlice(
  connection: SqliteConnection,
  chunkId: number,
  rows: ReadonlyArray<{ offset: number }>,
  dimension: number,
): { vectorOf: (rowid: number, offset: number) => Float32Array | undefined } | undefined {
  const first = Math.min(...rows.map((r) => r.offset));
  const last = Math.max(...rows.map((r) => r.offset));
  const rowBytes = dimension * 4;
  const raw = connection.get<{ size: number; validity: Uint8Array; rowids: Uint8Array; bytes: number; vectors: Uint8Array | null }>(
    `SELECT c.size AS size, c.validity AS validity, c.rowids AS rowids, length(v.vectors) AS bytes,
       substr(v.vectors, ?, ?) AS vectors
     FROM memory_vectors_chunks c JOIN memory_vectors_vector_chunks00 v ON v.rowid = c.chunk_id WHERE c.chunk_id = ?`,
    first * rowBytes + 1,
    (last - first + 1) * rowBytes,
    chunkId,
  );
  if (raw === undefined || raw.vectors === null) return undefined;
  const { size, validity, rowids } = raw;
  if (validity.length * 8 < size || rowids.length !== size * 8 || raw.bytes !== size * rowBytes || last >= size) return undefined;
  if (raw.vectors.length !== (last - first + 1) * rowBytes) return undefined;
  const ids = new DataView(rowids.buffer, rowids.byteOffset, rowids.length);
  const vectors = raw.vectors;
  return {
    vectorOf: (rowid, offset) => {
      const valid = ((validity[offset >> 3] as number) & (1 << (offset & 7))) !== 0;
      if (!valid || Number(ids.getBigInt64(offset * 8, true)) !== rowid) return undefined;
      const at = (offset - first) * rowBytes;
      // a copy of the row's bytes, so the vector owns aligned memory of its own
      return new Float32Array(new Uint8Array(vectors.subarray(at, at + rowBytes)).buffer);
    },
  };
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
