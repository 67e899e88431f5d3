/**
 * Builds or refreshes the persisted lexical index on its own read-only connection (in a worker thread,
 * or in-process when no compiled worker exists): a usable index file is loaded and caught up from the
 * change feed; otherwise every row is read, chunk by chunk in short snapshots, after the change feed's
 * mark was taken, and the changes logged meanwhile are applied. The result is written as the new file
 * (writable stores) and its bytes handed back; a writable store then prunes the change feeds.
 */
import { resolve } from 'node:path';
import { AnnFiles } from '../ann/ann-files.js';
import { pruneChangeFeeds, prunedPast, type PruneResult } from '../change-feeds.js';
import { openConnection, type SqliteConnection } from '../sqlite-connection.js';
import { readStoreId } from '../sqlite-migrations.js';
import { LexicalData } from './lexical-data.js';
import {
  deserializeLexicalData,
  readLexicalFile,
  readLexicalHeader,
  sealLexicalFile,
  serializeLexicalData,
  writeLexicalFile,
} from './lexical-file.js';

/** What to do; plain data, so it can cross to a worker thread. */
export interface LexicalBuildRequest {
  readonly databasePath: string;
  readonly busyTimeoutMs: number;
  readonly filePath: string;
  /** Build from the rows even when a usable file exists (the file's delta grew too large). */
  readonly rebuild: boolean;
  /** Write the file; `false` for read-only stores. */
  readonly write: boolean;
  /** A refresh writes only when the file lacks at least this many changes (0: always). */
  readonly minChanges: number;
  /** Prune the change feeds after writing, keeping at least this many newest entries (`undefined`: do not). */
  readonly pruneRetention: number | undefined;
  /** Hand the index's bytes back. */
  readonly reply: boolean;
}

export interface LexicalBuildResult {
  /** The index file's bytes (when asked for). */
  readonly bytes: Uint8Array | undefined;
  /** 'update': an existing file caught up; 'build': from the rows (`reason` says why). */
  readonly kind: 'build' | 'update';
  readonly reason: string;
  readonly written: boolean;
  /** The marks of the file on disk afterwards (`undefined`: none there). */
  readonly file: { readonly mark: number; readonly maxRowid: number } | undefined;
  readonly mark: number;
  readonly maxRowid: number;
  readonly rows: number;
  readonly seconds: number;
  readonly pruned: PruneResult | undefined;
}

/** Rows whose text changed since they were posted, beyond which a refresh rebuilds instead. */
const REFRESH_MAX_DELTA = 2500;
/** Share of absent rowids (deleted rows) beyond which a refresh rebuilds instead. */
const REFRESH_MAX_ABSENT = 0.25;

/**
 * A usable index file for this database: loaded (its arrays views into the file's bytes) but not caught
 * up yet; or why it is not usable. Call inside a snapshot.
 */
export function loadLexicalFile(
  connection: SqliteConnection,
  filePath: string,
  options: { seal: boolean },
): { data: LexicalData; bytes: Uint8Array } | { problem: string } {
  const read = readLexicalFile(filePath);
  if (read === undefined) return { problem: 'there is no index file' };
  const { bytes } = read;
  const header =
    read.sealedChecksum === undefined ? readLexicalHeader(bytes) : readLexicalHeader(bytes, { sealedChecksum: read.sealedChecksum });
  if (typeof header === 'string') return { problem: `the index file is not used: ${header}` };
  if (header.storeId !== readStoreId(connection)) return { problem: 'the index file belongs to another database' };
  const seq = (name: string): number =>
    connection.get<{ n: number | null }>('SELECT seq AS n FROM sqlite_sequence WHERE name = ?', name)?.n ?? 0;
  if (header.maxRowid > seq('memories') || header.mark > seq('memory_changes'))
    return { problem: 'the index file is newer than the database (restored from a backup?)' };
  if (prunedPast(connection, 'memory_changes', '', header.mark)) return { problem: 'the change feed was pruned past the index file' };
  if (header.mark > 0) {
    const entry = connection.get<{ memory_rowid: number }>('SELECT memory_rowid FROM memory_changes WHERE seq = ?', header.mark);
    // the entry at the mark is gone only when the floor is just above it
    if (entry === undefined ? !prunedPast(connection, 'memory_changes', '', header.mark - 1) : entry.memory_rowid !== header.markRowid)
      return { problem: 'the change feed does not hold the index file’s mark' };
  }
  try {
    const data = deserializeLexicalData(bytes, header);
    // checked by reading all of it and found usable here: seal it, so the next load does not read it twice
    if (options.seal && read.sealedChecksum !== header.checksum) sealLexicalFile(filePath, read.identity, header.checksum);
    return { data, bytes };
  } catch (error) {
    return { problem: `the index file is not used: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Builds or refreshes the index file; throws on failure (the caller logs it). */
export async function buildLexicalFile(
  request: LexicalBuildRequest,
  options: { shouldStop?: () => boolean; pause?: () => Promise<void> } = {},
): Promise<LexicalBuildResult> {
  const started = performance.now();
  const shouldStop = options.shouldStop ?? (() => false);
  const connection = await openConnection({ path: request.databasePath, readonly: true, busyTimeoutMs: request.busyTimeoutMs });
  try {
    let data: LexicalData | undefined;
    let kind: 'build' | 'update' = 'update';
    let reason = 'caught up';
    let fileMark = { mark: -1, maxRowid: -1 };
    if (!request.rebuild) {
      const loaded = connection.snapshot(() => {
        const file = loadLexicalFile(connection, request.filePath, { seal: request.write });
        if ('problem' in file) return file;
        fileMark = { mark: file.data.mark, maxRowid: file.data.maxRowid };
        return file.data.catchUp(connection) ? file : { problem: 'the change feed was pruned past the index file' };
      });
      if ('problem' in loaded) reason = loaded.problem;
      else if (loaded.data.delta.size > REFRESH_MAX_DELTA) reason = 'too many rows changed text since the file was built';
      else if (absentShare(loaded.data) > REFRESH_MAX_ABSENT) reason = 'too many rows were deleted since the file was built';
      else data = loaded.data;
    } else reason = 'rebuild requested';
    if (data === undefined) {
      kind = 'build';
      data = await readAllRows(connection, shouldStop, options.pause);
    }
    if (shouldStop()) throw new Error('the lexical index build was stopped');
    const built = data;
    const { markRowid, storeId } = connection.snapshot(() => {
      // the rows written meanwhile, then the mark's entry in the same snapshot
      if (!built.catchUp(connection)) throw new Error('the change feed was pruned during the build');
      return { markRowid: markRowidOf(connection, built.mark), storeId: readStoreId(connection) };
    });
    const lacking = built.mark - fileMark.mark + (built.maxRowid - fileMark.maxRowid);
    const write = request.write && (kind === 'build' || lacking >= request.minChanges);
    const file = write || request.reply ? serializeLexicalData(built, { storeId, markRowid }) : undefined;
    if (write && file !== undefined) writeLexicalFile(request.filePath, file);
    let pruned: PruneResult | undefined;
    if (write && request.pruneRetention !== undefined) pruned = await prune(request, built.mark);
    return {
      bytes: request.reply ? file : undefined,
      kind,
      reason,
      written: write,
      file: write ? { mark: built.mark, maxRowid: built.maxRowid } : fileMark.mark >= 0 ? fileMark : undefined,
      mark: built.mark,
      maxRowid: built.maxRowid,
      rows: built.rows,
      seconds: (performance.now() - started) / 1000,
      pruned,
    };
  } finally {
    connection.close();
  }
}

/** Every row, chunk by chunk in short snapshots, after the change feed's mark was taken. */
async function readAllRows(connection: SqliteConnection, shouldStop: () => boolean, pause?: () => Promise<void>): Promise<LexicalData> {
  const data = new LexicalData();
  data.mark = connection.snapshot(() => connection.get<{ m: number | null }>('SELECT max(seq) AS m FROM memory_changes')?.m ?? 0);
  for (;;) {
    if (shouldStop()) return data;
    if (connection.snapshot(() => data.readChunk(connection))) break;
    if (pause !== undefined) await pause();
  }
  data.compact();
  return data;
}

function absentShare(data: LexicalData): number {
  return data.maxRowid > 0 ? (data.maxRowid - data.rows) / data.maxRowid : 0;
}

function markRowidOf(connection: SqliteConnection, mark: number): number {
  if (mark === 0) return 0;
  return connection.get<{ memory_rowid: number }>('SELECT memory_rowid FROM memory_changes WHERE seq = ?', mark)?.memory_rowid ?? 0;
}

/** Prunes the change feeds on a writable connection of its own. */
async function prune(request: LexicalBuildRequest, lexicalMark: number): Promise<PruneResult> {
  const writer = await openConnection({ path: request.databasePath, readonly: false, busyTimeoutMs: request.busyTimeoutMs });
  try {
    const ann = new AnnFiles(`${resolve(request.databasePath)}.ann`);
    return await pruneChangeFeeds(writer, {
      retention: request.pruneRetention as number,
      lexicalMark,
      annMark: (scope) => (ann.hasManifest(scope) ? ann.readManifest(scope)?.highWaterMark : undefined),
    });
  } finally {
    writer.close();
  }
}
