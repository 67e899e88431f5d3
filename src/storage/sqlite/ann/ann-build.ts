/**
 * Builds or updates one scope's persisted ANN index from the vectors in SQLite, on its own read-only
 * connection (run in a worker thread, or in-process when no compiled worker exists). An existing valid
 * file is loaded and caught up from its high-water mark; otherwise every vector is read, chunk by
 * chunk in short snapshots (no long-held read transaction), after the high-water mark was taken.
 * Either way the changes logged after that mark are then replayed, so rows written meanwhile, or
 * changed between chunk reads, end up with their latest vector. An int8 index is published with a file
 * of its rows' exact vectors (`ann-vectors.ts`), written from the same reads and replay (a caught-up
 * index's rows are read again for it).
 */
import { createAnnIndex, type AnnParameters, type UsearchIndex, type UsearchModule } from './ann-library.js';
import { AnnFiles, type AnnManifest } from './ann-files.js';
import { AnnVectorsWriter } from './ann-vectors.js';
import { openConnection, type SqliteConnection } from '../sqlite-connection.js';
import { chunkCapacity, lastScopeChunkId, readScopeChunks, readScopeRows, readVectors, type VectorChunk } from './stored-vectors.js';

/** What to build; plain data, so it can cross to a worker thread. */
export interface AnnBuildRequest {
  readonly databasePath: string;
  readonly busyTimeoutMs: number;
  readonly directory: string;
  readonly scope: string;
  readonly embedder: { readonly name: string; readonly dimension: number };
  readonly parameters: AnnParameters;
}

export interface AnnBuildResult {
  readonly manifest: AnnManifest;
  /** 'update': an existing file caught up; 'build': from scratch (`reason` says why). */
  readonly kind: 'build' | 'update';
  readonly reason: string;
  readonly seconds: number;
}

/** Vectors read per snapshot, in whole chunks (8 of the old 1,024-vector chunks, 256 of today's 32). */
const VECTORS_PER_READ = 8192;
/**
 * Threads per `add`: one. usearch's multi-threaded insertion of a batch leaves nodes that no search
 * reaches (a row's own vector does not find it, even with k = 2000): 1-4 in every build of 2,500
 * clustered 96-d vectors with 2 threads, none in 24 single-threaded builds (a single-threaded HNSW
 * still orphans about 1 in 10-20k at these parameters). Builds run in a worker thread, so the store
 * never waits for them, and a single-threaded build is deterministic.
 */
const INSERT_THREADS = 1;

/** Builds or updates the index of `request.scope` and publishes it; throws on failure (the caller logs it). */
export async function buildAnnIndex(
  request: AnnBuildRequest,
  library: UsearchModule,
  shouldStop: () => boolean = () => false,
): Promise<AnnBuildResult> {
  const started = performance.now();
  const connection = await openConnection({ path: request.databasePath, readonly: true, busyTimeoutMs: request.busyTimeoutMs });
  let vectors: AnnVectorsWriter | undefined;
  try {
    const files = new AnnFiles(request.directory);
    files.removeLeftovers();
    if (request.parameters.quantization === 'i8')
      vectors = new AnnVectorsWriter(files.temporaryFile(request.scope), request.embedder.dimension);
    const sink = vectors;
    const databaseId = connection.snapshot(() => readDatabaseId(connection));
    const previous = files.readManifest(request.scope);
    const problem = previous === undefined ? 'no index file yet' : manifestProblem(previous, request, databaseId);
    let index: UsearchIndex;
    let highWaterMark: number;
    let reason: string;
    if (
      previous !== undefined &&
      problem === undefined &&
      connection.snapshot(() => continues(connection, previous)) &&
      files.verify(previous)
    ) {
      index = createAnnIndex(library, request.embedder.dimension, request.parameters);
      index.load(files.indexPath(previous));
      highWaterMark = previous.highWaterMark;
      reason = 'caught up';
      if (sink !== undefined) {
        // the rows as they are now (the replay below covers every change after the old mark)
        const lastChunk = connection.snapshot(() => lastScopeChunkId(connection, request.scope));
        await readAllVectors(connection, request, shouldStop, lastChunk, (chunk) => addRows(sink, chunk, request));
      }
    } else {
      reason = problem ?? 'the index file was corrupt or the change log did not match';
      index = createAnnIndex(library, request.embedder.dimension, request.parameters);
      // the vectors as of one instant: the chunks that existed then (rows written into them later are
      // added too) and the change log's mark; what comes after is replayed below, so a build never
      // chases a writer that adds rows faster than the index takes them
      const start = connection.snapshot(() => ({
        mark: lastChange(connection, request.scope).seq,
        lastChunk: lastScopeChunkId(connection, request.scope),
      }));
      highWaterMark = start.mark;
      const built = index;
      await readAllVectors(connection, request, shouldStop, start.lastChunk, (chunk) => {
        addChunk(built, chunk, request);
        if (sink !== undefined) addRows(sink, chunk, request);
      });
    }
    if (shouldStop()) throw new Error('the index build was stopped');
    const mark = connection.snapshot(() => replayChanges(connection, { index, vectors: sink }, request, highWaterMark));
    const manifest = files.publish(
      request.scope,
      {
        embedder: { name: request.embedder.name, dimension: request.embedder.dimension },
        parameters: {
          connectivity: request.parameters.connectivity,
          expansionAdd: request.parameters.expansionAdd,
          quantization: request.parameters.quantization,
        },
        databaseId,
        highWaterMark: mark.seq,
        highWaterRowid: mark.rowid,
        count: index.size(),
      },
      (path) => index.save(path),
      sink === undefined ? undefined : (path) => sink.finish(path),
    );
    return { manifest, kind: reason === 'caught up' ? 'update' : 'build', reason, seconds: (performance.now() - started) / 1000 };
  } finally {
    vectors?.abort();
    connection.close();
  }
}

/** Why `manifest` cannot serve this database and embedder, or `undefined` when it can. */
export function manifestProblem(
  manifest: AnnManifest,
  expected: { embedder: { name: string; dimension: number }; parameters: AnnParameters },
  databaseId: string,
): string | undefined {
  if (manifest.embedder?.name !== expected.embedder.name || manifest.embedder?.dimension !== expected.embedder.dimension) {
    return 'the index file was built for another embedder';
  }
  const { connectivity, expansionAdd, quantization } = expected.parameters;
  const built = manifest.parameters;
  if (built?.connectivity !== connectivity || built.expansionAdd !== expansionAdd || built.quantization !== quantization) {
    return 'the index file was built with other HNSW parameters';
  }
  if (manifest.databaseId !== databaseId) return 'the index file belongs to another database at this path';
  if (quantization === 'i8' && manifest.vectors === undefined) return 'the int8 index file has no file of exact vectors beside it';
  return undefined;
}

/** Identifies the database file: the time its schema was created. */
export function readDatabaseId(connection: SqliteConnection): string {
  return String(connection.get<{ at: number }>('SELECT applied_at AS at FROM schema_migrations WHERE version = 1')?.at ?? 0);
}

/** Whether the change log still holds the change the manifest's high-water mark names. */
export function continues(connection: SqliteConnection, manifest: AnnManifest): boolean {
  if (manifest.highWaterMark === 0) return true;
  const row = connection.get<{ scope: string; memory_rowid: number }>(
    'SELECT scope, memory_rowid FROM vector_changes WHERE seq = ?',
    manifest.highWaterMark,
  );
  return row !== undefined && row.scope === manifest.scope && row.memory_rowid === manifest.highWaterRowid;
}

/** The scope's last logged change: its seq (0: none) and rowid. */
export function lastChange(connection: SqliteConnection, scope: string): { seq: number; rowid: number } {
  const row = connection.get<{ seq: number; memory_rowid: number }>(
    'SELECT seq, memory_rowid FROM vector_changes WHERE scope = ? ORDER BY seq DESC LIMIT 1',
    scope,
  );
  return row === undefined ? { seq: 0, rowid: 0 } : { seq: row.seq, rowid: row.memory_rowid };
}

/** Hands every chunk of the scope's vectors up to `lastChunk` to `take`, a few thousand vectors a snapshot. */
async function readAllVectors(
  connection: SqliteConnection,
  request: AnnBuildRequest,
  shouldStop: () => boolean,
  lastChunk: number | undefined,
  take: (chunk: VectorChunk) => void,
): Promise<void> {
  const { scope, embedder } = request;
  const dimension = embedder.dimension;
  let afterChunkId = 0;
  const limit = Math.max(1, Math.round(VECTORS_PER_READ / connection.snapshot(() => chunkCapacity(connection))));
  for (;;) {
    const chunks = connection.snapshot(() => readScopeChunks(connection, { scope, dimension, afterChunkId, limit }));
    if (chunks === undefined) {
      // unknown layout: every row in one snapshot
      take(connection.snapshot(() => readScopeRows(connection, scope, dimension)));
      return;
    }
    if (chunks.length === 0) return;
    for (const chunk of chunks) {
      if (lastChunk !== undefined && chunk.chunkId > lastChunk) return;
      take(chunk);
    }
    afterChunkId = (chunks[chunks.length - 1] as VectorChunk).chunkId;
    if (shouldStop()) return;
    // lets an in-process build share the event loop
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function addChunk(index: UsearchIndex, chunk: VectorChunk, request: AnnBuildRequest): void {
  const dimension = request.embedder.dimension;
  const keys: bigint[] = [];
  const slots: number[] = [];
  for (let slot = 0; slot < chunk.size; slot++) {
    const rowid = chunk.rowids[slot] as number;
    if (rowid >= 0) {
      keys.push(BigInt(rowid));
      slots.push(slot);
    }
  }
  if (keys.length === 0) return;
  const present = index.contains(BigUint64Array.from(keys));
  // a row seen twice (moved between snapshots) keeps its first vector; the replay then sets the latest
  const fresh = slots.filter((_, i) => present[i] !== true);
  if (fresh.length === 0) return;
  const vectors = new Float32Array(fresh.length * dimension);
  fresh.forEach((slot, i) => vectors.set(chunk.vectors.subarray(slot * dimension, (slot + 1) * dimension), i * dimension));
  index.add(
    BigUint64Array.from(fresh, (slot) => BigInt(chunk.rowids[slot] as number)),
    vectors,
    INSERT_THREADS,
  );
}

/** Every live row of `chunk` into the vectors file (a row read twice keeps its later vector). */
function addRows(vectors: AnnVectorsWriter, chunk: VectorChunk, request: AnnBuildRequest): void {
  const dimension = request.embedder.dimension;
  for (let slot = 0; slot < chunk.size; slot++) {
    const rowid = chunk.rowids[slot] as number;
    if (rowid >= 0) vectors.add(rowid, chunk.vectors, slot * dimension);
  }
}

/** Applies every change of the scope after `since` to the index and the vectors file; returns the new high-water mark. */
function replayChanges(
  connection: SqliteConnection,
  target: { index: UsearchIndex; vectors: AnnVectorsWriter | undefined },
  request: AnnBuildRequest,
  since: number,
): { seq: number; rowid: number } {
  const { index } = target;
  const { scope, embedder } = request;
  const last = lastChange(connection, scope);
  if (last.seq <= since) {
    const row =
      since === 0 ? undefined : connection.get<{ memory_rowid: number }>('SELECT memory_rowid FROM vector_changes WHERE seq = ?', since);
    return { seq: since, rowid: row?.memory_rowid ?? 0 };
  }
  const changed = connection
    .all<{ memory_rowid: number }>(
      'SELECT DISTINCT memory_rowid FROM vector_changes WHERE scope = ? AND seq > ? AND seq <= ?',
      scope,
      since,
      last.seq,
    )
    .map((r) => r.memory_rowid);
  const vectors = readVectors(connection, changed, embedder.dimension);
  const known = index.contains(BigUint64Array.from(changed, BigInt));
  const stale = changed.filter((_, i) => known[i] === true);
  if (stale.length > 0) index.remove(BigUint64Array.from(stale, BigInt));
  for (const rowid of changed) {
    const vector = vectors.get(rowid);
    if (vector === undefined) target.vectors?.remove(rowid);
    else target.vectors?.add(rowid, vector);
  }
  const added = changed.filter((rowid) => vectors.has(rowid));
  if (added.length > 0) {
    const flat = new Float32Array(added.length * embedder.dimension);
    added.forEach((rowid, i) => flat.set(vectors.get(rowid) as Float32Array, i * embedder.dimension));
    index.add(BigUint64Array.from(added, BigInt), flat, INSERT_THREADS);
  }
  return last;
}
