/**
 * The embedded store: one SQLite file in WAL mode that several processes may read and write at once.
 *
 * Two connections: reads outside transactions use a read-only connection, so they see committed data
 * only, never the half-done writes of a transaction that is awaiting something; transactions use the
 * writer, serialised in this process by a mutex and across processes by `BEGIN IMMEDIATE`.
 * (`:memory:` has a single connection, so there reads do see an open transaction's writes.)
 */
import { EngramError, isEngramError, messages } from '../../core/errors.js';
import type {
  ClaimJobsQuery,
  Job,
  JobBacklog,
  MentionsCandidate,
  PartsCandidate,
  TimeSpan,
  Store,
  StoreCapabilities,
  StoredApiKey,
  StoreTransaction,
} from '../../core/ports/store.js';
import { countPendingParts, readPendingParts } from './sqlite-parts.js';
import { countPendingMentions, readPendingMentions, writeMentions } from './sqlite-mentions.js';
import type { Scope } from '../../core/scope.js';
import { claimJobs, completeJobs, failJob, jobBacklog } from './sqlite-jobs.js';
import * as keyRows from './sqlite-api-keys.js';
import { assertReadScopes } from '../../core/scope.js';
import { AccessBatch } from '../access-batch.js';
import { openAnnIndex, type AnnIndex } from './ann/ann-index.js';
import { AsyncMutex } from '../async-mutex.js';
import { WalCheckpointer, type WalCheckpointUsage } from './wal-checkpointer.js';
import { resolve } from 'node:path';
import { isMemoryPath, openConnection, openWriterUnlessFolderReadOnly, type SqliteConnection } from './sqlite-connection.js';
import { readOnlyFolderWarning } from './read-only-folder.js';
import { toEngramError } from './sqlite-errors.js';
import { assertSchemaCurrent, checkEmbeddingIdentity, migrate } from './sqlite-migrations.js';
import { LexicalIndex, type LexicalIndexUsage } from './lexical/lexical-index.js';
import { PendingLexicalRows } from './lexical/lexical-pending.js';
import { SqliteReader, type ReaderContext } from './sqlite-reader.js';
import { ReadCache, type ReadCacheUsage } from './read-cache.js';
import { resolveSqliteStoreConfig, type ResolvedSqliteStoreConfig, type SqliteStoreConfig } from './sqlite-store-config.js';
import { SqliteTransaction } from './sqlite-transaction.js';
import { scopeSize } from './ann/sqlite-vector-search.js';
import { scrubAfterDelete } from './sqlite-browse.js';
import { VectorIndex, type VectorIndexUsage } from './ann/vector-index.js';
import { assertEmbedderCurrent, SqliteVectorStaging } from './ann/sqlite-vector-staging.js';
import type { VectorStaging } from '../../core/ports/vector-staging.js';

/** Flush accesses at once when this many ids are waiting. */
const ACCESS_FLUSH_SIZE = 5000;
/** How long a close waits for the write lock to save pending access counts before it lets them go. */
const CLOSE_ACCESS_WAIT_MS = 1000;

const RECORD_ACCESS_SQL = `UPDATE memories SET access_count = access_count + ?,
  last_accessed_at = CASE WHEN last_accessed_at IS NULL OR last_accessed_at < ? THEN ? ELSE last_accessed_at END
  WHERE id = ?`;

interface OpenState {
  closed: boolean;
}

/**
 * The SQLite implementation of the `Store` port. Open it with `openSqliteStore`.
 *
 * @example
 * ```ts
 * const store = await openSqliteStore({ path: './engram.db', embedding: { name: 'use-lite:512', dimension: 512 } });
 * const stats = await store.stats(['acme/shared']);
 * await store.close();
 * ```
 */
export class SqliteStore extends SqliteReader implements Store {
  readonly capabilities: StoreCapabilities;
  readonly vectorStaging: VectorStaging;
  readonly #config: ResolvedSqliteStoreConfig;
  readonly #reader: SqliteConnection;
  readonly #readCache: ReadCache | undefined;
  /** Absent when opened read-only; the reader itself for `:memory:`. */
  readonly #writer: SqliteConnection | undefined;
  readonly #index: VectorIndex;
  readonly #ann: AnnIndex | undefined;
  readonly #lexical: LexicalIndex | undefined;
  /** The writer's WAL checkpoints off its thread; a writable file store only. */
  readonly #checkpointer: WalCheckpointer | undefined;
  readonly #state: OpenState;
  readonly #mutex = new AsyncMutex();
  readonly #access = new AccessBatch();
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #closing: Promise<void> | undefined;

  private constructor(parts: {
    config: ResolvedSqliteStoreConfig;
    reader: SqliteConnection;
    writer: SqliteConnection | undefined;
    index: VectorIndex;
    ann: AnnIndex | undefined;
    lexical: LexicalIndex | undefined;
    readCache: ReadCache | undefined;
    state: OpenState;
  }) {
    super({
      ...readerContext(parts, parts.reader, () => assertOpen(parts.state)),
      ...(parts.lexical !== undefined ? { lexicalIndex: parts.lexical } : {}),
      ...(parts.readCache !== undefined ? { readCache: parts.readCache } : {}),
    });
    this.#readCache = parts.readCache;
    this.#lexical = parts.lexical;
    this.#config = parts.config;
    this.#reader = parts.reader;
    this.#writer = parts.writer;
    this.#index = parts.index;
    this.#ann = parts.ann;
    this.#state = parts.state;
    this.#checkpointer =
      parts.writer === undefined || isMemoryPath(parts.config.path)
        ? undefined
        : new WalCheckpointer({
            path: resolve(parts.config.path),
            writer: parts.writer,
            startBytes: parts.config.walCheckpointThreadBytes,
            logger: parts.config.logger,
          });
    this.capabilities = Object.freeze({ annIndex: parts.ann !== undefined, multiProcess: !isMemoryPath(parts.config.path) });
    this.vectorStaging = new SqliteVectorStaging({
      embedderName: parts.config.embedding.name,
      read: (action, fn) => this.read(action, fn),
      write: (action, fn) => this.#writeLocked(action, fn),
      exclusive: (action, fn) => this.#exclusive(action, fn),
      prepareVectorIndex: (scopes) => this.prepareVectorIndex(scopes),
    });
  }

  /** Opens (creating and migrating if needed) the store described by `config`. */
  static async open(config: SqliteStoreConfig): Promise<SqliteStore> {
    let resolved = resolveSqliteStoreConfig(config);
    const { path, busyTimeoutMs, embedding } = resolved;
    const opened: SqliteConnection[] = [];
    try {
      let writer: SqliteConnection | undefined;
      let reader: SqliteConnection;
      if (!resolved.readonly) {
        writer = await openWriterUnlessFolderReadOnly(path, busyTimeoutMs);
        // a database in a folder this process cannot write is still readable: open it read-only
        if (writer === undefined) resolved = Object.freeze({ ...resolved, readonly: true });
      }
      if (writer === undefined) {
        reader = await openConnection({ path, readonly: true, busyTimeoutMs });
        opened.push(reader);
        reader.snapshot(() => assertSchemaCurrent(reader));
        await checkEmbeddingIdentity(reader, embedding, { readonly: true });
        const warning = readOnlyFolderWarning(path, { fellBack: config.readonly !== true, inMemoryCopy: reader.inMemoryCopy });
        if (warning !== '') resolved.logger.warn(warning);
      } else {
        opened.push(writer);
        await migrate(writer, { dimension: embedding.dimension });
        await checkEmbeddingIdentity(writer, embedding, { readonly: false });
        reader = isMemoryPath(path) ? writer : await openConnection({ path, readonly: true, busyTimeoutMs });
        if (reader !== writer) opened.push(reader);
      }
      const index = new VectorIndex(reader, embedding.dimension, {
        simd: resolved.simdScan,
        budgetBytes: resolved.memoryIndexBudgetMb * 2 ** 20,
      });
      const ann = openAnnIndex(resolved, reader);
      // an in-memory lexical index serves the read connection of a file (the writer may share a :memory: one)
      const lexical = isMemoryPath(path)
        ? undefined
        : new LexicalIndex({
            connection: reader,
            databasePath: resolve(path),
            busyTimeoutMs,
            threshold: resolved.lexicalIndexThreshold,
            pruneRows: resolved.lexicalPruneRows,
            readonly: resolved.readonly,
            changeFeedRetention: resolved.changeFeedRetention,
            logger: resolved.logger,
          });
      // a connection's own commits leave its data_version alone: no cache where the reader also writes
      const readCache =
        reader === writer || resolved.readCacheRecords === 0 ? undefined : new ReadCache({ records: resolved.readCacheRecords });
      return new SqliteStore({ config: resolved, reader, writer, index, ann, lexical, readCache, state: { closed: false } });
    } catch (error) {
      for (const connection of opened) closeQuietly(connection);
      throw toEngramError(error, 'open the store');
    }
  }

  /**
   * Runs `fn` in one write transaction (`BEGIN IMMEDIATE`): commits when it resolves, rolls back and
   * rethrows when it rejects. Transactions of this process run one at a time, in call order, so inside
   * `fn` write only through `tx`: calling `transaction`, `setMeta` or the job-lock methods of this store
   * from inside `fn` would wait for `fn` forever.
   */
  async transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    const writer = this.#requireWriter('run a transaction');
    return this.#mutex.run(async () => {
      await this.#flushAccessLocked();
      await writer.beginImmediate();
      try {
        assertEmbedderCurrent(writer, this.#config.embedding.name);
      } catch (error) {
        writer.rollbackQuietly();
        throw error;
      }
      let finished = false;
      const context: ReaderContext = {
        ...readerContext({ config: this.#config, index: this.#index, ann: this.#ann }, writer, () => {
          if (finished)
            throw new EngramError('INTERNAL', messages.storageUnavailable('a transaction object was used after its transaction ended'));
        }),
        // the lexical index holds committed rows; the transaction's own are read beside it
        ...(this.#lexical === undefined || writer === this.#reader
          ? {}
          : { lexicalIndex: this.#lexical, pendingLexical: new PendingLexicalRows() }),
      };
      try {
        const result = await fn(new SqliteTransaction(context));
        try {
          writer.commit();
        } catch (error) {
          throw toEngramError(error, 'commit a transaction');
        }
        return result;
      } catch (error) {
        writer.rollbackQuietly();
        // with one shared connection the index may have read rows that no longer exist
        if (writer === this.#reader) this.#index.clear();
        throw error;
      } finally {
        finished = true;
      }
    });
  }

  /** Queues the accesses and returns at once; they are written within `accessFlushMs`, before the next transaction, or on close. */
  async recordAccess(ids: readonly string[], at: number): Promise<void> {
    if (this.#state.closed || this.#writer === undefined || ids.length === 0) return;
    this.#access.add(ids, at);
    this.#scheduleAccessFlush();
  }

  async getMeta(key: string): Promise<string | null> {
    return this.read(
      'read metadata',
      (connection) => connection.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', key)?.value ?? null,
    );
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.#writeLocked('write metadata', (connection) => {
      connection.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value);
    });
  }

  async insertApiKey(key: StoredApiKey): Promise<void> {
    await this.#writeLocked('store an API key', (connection) => keyRows.insertApiKey(connection, key));
  }

  async listApiKeys(): Promise<StoredApiKey[]> {
    return this.read('list API keys', (connection) => keyRows.listApiKeys(connection));
  }

  async findApiKey(hash: string): Promise<StoredApiKey | null> {
    return this.read('look up an API key', (connection) => keyRows.findApiKey(connection, hash));
  }

  async revokeApiKey(id: string, at: number): Promise<StoredApiKey | null> {
    return this.#writeLocked('revoke an API key', (connection) => keyRows.revokeApiKey(connection, id, at));
  }

  async countApiKeys(): Promise<{ total: number; active: number }> {
    return this.read('count API keys', (connection) => keyRows.countApiKeys(connection));
  }

  /**
   * Takes the lease `name` for `owner` for `ttlMs`: true if it was free, expired, or
   * already held by `owner` (then renewed); false while another owner's lease runs. Uses the wall clock,
   * since leases are shared with other processes. A holder that dies simply lets its lease expire.
   *
   * @example
   * ```ts
   * if (await store.acquireJobLock('consolidate:acme', 'pid-42', 60_000)) {
   *   try { ... } finally { await store.releaseJobLock('consolidate:acme', 'pid-42'); }
   * }
   * ```
   */
  async acquireJobLock(name: string, owner: string, ttlMs: number): Promise<boolean> {
    if (name.length === 0 || owner.length === 0 || !(ttlMs > 0)) {
      throw new EngramError('INVALID_INPUT', messages.invalidInput('a job lock needs a name, an owner and a positive ttlMs'));
    }
    return this.#writeLocked('acquire a job lock', (connection) => {
      const now = Date.now();
      const held = connection.get<{ owner: string; expires_at: number }>('SELECT owner, expires_at FROM job_locks WHERE name = ?', name);
      if (held !== undefined && held.owner !== owner && held.expires_at > now) return false;
      connection.run(
        'INSERT OR REPLACE INTO job_locks (name, owner, acquired_at, expires_at) VALUES (?, ?, ?, ?)',
        name,
        owner,
        now,
        now + ttlMs,
      );
      return true;
    });
  }

  /** Releases the lease if `owner` holds it; returns whether it did. */
  async releaseJobLock(name: string, owner: string): Promise<boolean> {
    return this.#writeLocked(
      'release a job lock',
      (connection) => connection.run('DELETE FROM job_locks WHERE name = ? AND owner = ?', name, owner) > 0,
    );
  }

  async claimJobs(query: ClaimJobsQuery): Promise<Job[]> {
    return this.#writeLocked('claim jobs', (connection) => claimJobs(connection, query));
  }

  async completeJobs(ids: readonly string[], owner: string): Promise<number> {
    return this.#writeLocked('complete jobs', (connection) => completeJobs(connection, ids, owner));
  }

  async failJob(
    id: string,
    owner: string,
    error: string,
    options: { now: number; maxAttempts?: number; retryAfterMs?: number },
  ): Promise<'retry' | 'failed' | 'lost'> {
    return this.#writeLocked('record a job failure', (connection) => failJob(connection, id, owner, error, options));
  }

  async jobBacklog(scopes: readonly Scope[]): Promise<JobBacklog> {
    return this.read('count jobs', (connection) => jobBacklog(connection, scopes));
  }

  async pendingParts(query: { scopes: readonly Scope[] | 'all'; limit: number }): Promise<PartsCandidate[]> {
    if (query.scopes !== 'all') assertReadScopes(query.scopes);
    return this.read('read records waiting for part vectors', (connection) => readPendingParts(connection, query.scopes, query.limit));
  }

  async pendingMentions(query: { scopes: readonly Scope[] | 'all'; limit: number }): Promise<MentionsCandidate[]> {
    if (query.scopes !== 'all') assertReadScopes(query.scopes);
    return this.read('read records whose mentioned times are not stored', (connection) =>
      readPendingMentions(connection, query.scopes, query.limit),
    );
  }

  async setMentions(entries: readonly (MentionsCandidate & { mentions: readonly TimeSpan[] })[]): Promise<number> {
    if (entries.length === 0) return 0;
    return this.#writeLocked('store mentioned times', (connection) => writeMentions(connection, entries));
  }

  async countPendingMentions(scopes: readonly Scope[]): Promise<number> {
    return this.read('count records whose mentioned times are not stored', (connection) =>
      countPendingMentions(connection, assertReadScopes(scopes)),
    );
  }

  async countPendingParts(scopes: readonly Scope[]): Promise<number> {
    return this.read('count records waiting for part vectors', (connection) => countPendingParts(connection, assertReadScopes(scopes)));
  }

  /**
   * After a purge: compacts the FTS index and truncates the WAL (with `secure_delete`, the deleted
   * text is then in neither file), and drops the approximate index files of `scopes` and the lexical
   * index file, which are rebuilt from the database when next needed.
   */
  async scrubDeleted(scopes: readonly Scope[]): Promise<void> {
    const writer = this.#requireWriter('erase deleted records');
    await this.#mutex.run(async () => {
      await this.#flushAccessLocked();
      try {
        await scrubAfterDelete(writer);
      } catch (error) {
        throw toEngramError(error, 'erase deleted records');
      }
    });
    for (const scope of assertReadScopes(scopes)) await this.#ann?.discard(scope);
    await this.#lexical?.discard();
  }

  /**
   * Brings the persisted approximate vector index of each listed scope that is above
   * `memoryIndexThreshold` up to date now: builds it if missing (in a worker thread), folds in
   * pending changes, and maps it. Searches never wait for this (they fall back to exact search while
   * an index is not ready); call it to warm a server up or before measuring. Resolves with the scopes
   * now served by their index; none when the store has no `annIndex`.
   *
   * @example
   * ```ts
   * const ready = await store.prepareVectorIndex(['acme/shared']);
   * ```
   */
  async prepareVectorIndex(scopes: readonly string[]): Promise<string[]> {
    assertOpen(this.#state);
    const ann = this.#ann;
    if (ann === undefined) return [];
    const ready: string[] = [];
    const threshold = this.#config.memoryIndexThreshold;
    for (const scope of assertReadScopes(scopes)) {
      const large = threshold !== Infinity && this.#reader.snapshot(() => scopeSize(this.#reader, scope)) > threshold;
      if (large && (await ann.prepare(scope))) ready.push(scope);
    }
    return ready;
  }

  /**
   * Loads the in-memory lexical index from its file now, or builds it (in a worker thread) when the file
   * is missing or unusable; otherwise that happens on the first lexical search of a store with
   * `lexicalIndexThreshold` rows, and searches use FTS5 until it is ready, with the same results.
   * Resolves `true` once it serves searches; `false` for `:memory:` stores or when the threshold is
   * `Infinity`.
   */
  async prepareLexicalIndex(): Promise<boolean> {
    assertOpen(this.#state);
    return (await this.#lexical?.prepare()) ?? false;
  }

  /** What the in-memory vector index holds: loaded scopes, bytes, scopes dropped for the budget, SIMD or not. */
  get vectorIndexUsage(): VectorIndexUsage {
    return this.#index.usage;
  }

  /** HNSW searches since the store opened, the rows they asked for and how many ran on the search thread; undefined without an approximate index. */
  get annIndexUsage(): { readonly searches: number; readonly rowsAsked: number; readonly threadSearches: number } | undefined {
    return this.#ann?.usage;
  }

  /**
   * Searches the lexical index answered and left to FTS5 since the store opened, its rows, and how often
   * it was loaded from its file or built (for benchmarks and tests).
   */
  get lexicalIndexUsage(): LexicalIndexUsage | undefined {
    return this.#lexical?.usage;
  }

  /** What the read connection's cache holds and how often it answered (`read-cache.ts`); undefined without one (`:memory:`). */
  get readCacheUsage(): ReadCacheUsage | undefined {
    return this.#readCache?.usage;
  }

  /** What the WAL checkpoint thread has done (`wal-checkpointer.ts`); undefined for a read-only or `:memory:` store. */
  get walCheckpointUsage(): WalCheckpointUsage | undefined {
    return this.#checkpointer?.usage;
  }

  /**
   * Writes pending accesses (best effort: a lock held elsewhere lets them go after a moment, a store this
   * user may only read lets them go with a warning; they never fail the close) and closes both
   * connections. Idempotent; later calls on the store throw.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  async #shutDown(): Promise<void> {
    this.#state.closed = true;
    if (this.#flushTimer !== undefined) clearTimeout(this.#flushTimer);
    // access counts are best effort: while another process holds the write lock, a close waits a
    // moment for them and then lets them go rather than fail the command that is done (a prompt hook);
    // a store this user may only read, or a full disk, lets them go with a warning
    await this.#mutex
      .run(() => this.#flushAccessLocked({ rethrow: true, maxWaitMs: CLOSE_ACCESS_WAIT_MS }))
      .catch((error: unknown) => {
        if (isEngramError(error) && error.code === 'BUSY') return;
        this.#config.logger.warn(`the access counts of this run were not saved (${unsavedReason(error)})`);
      });
    await this.#lexical?.close();
    await this.#ann?.close();
    await this.#checkpointer?.close();
    // the reader first: the last connection to close folds the WAL into the database file and deletes it,
    // which a read-only one cannot do (closed last, it left a CLI run's writes in the WAL, the file alone empty)
    if (this.#reader !== this.#writer) closeQuietly(this.#reader);
    if (this.#writer !== undefined) closeQuietly(this.#writer);
  }

  #requireWriter(action: string): SqliteConnection {
    assertOpen(this.#state);
    if (this.#writer === undefined) {
      throw new EngramError('STORAGE_UNAVAILABLE', messages.storageUnavailable(`the store was opened read-only, so it cannot ${action}`), {
        details: { action },
      });
    }
    return this.#writer;
  }

  /** A short synchronous write transaction under the mutex. */
  async #writeLocked<T>(action: string, fn: (connection: SqliteConnection) => T): Promise<T> {
    const writer = this.#requireWriter(action);
    return this.#mutex.run(async () => {
      await writer.beginImmediate();
      try {
        const result = fn(writer);
        writer.commit();
        return result;
      } catch (error) {
        writer.rollbackQuietly();
        throw toEngramError(error, action);
      }
    });
  }

  /** A write transaction whose body may await; nothing else of this process writes meanwhile. */
  async #exclusive<T>(action: string, fn: (connection: SqliteConnection) => Promise<T>): Promise<T> {
    const writer = this.#requireWriter(action);
    return this.#mutex.run(async () => {
      await this.#flushAccessLocked();
      await writer.beginImmediate();
      try {
        const result = await fn(writer);
        writer.commit();
        return result;
      } catch (error) {
        writer.rollbackQuietly();
        if (writer === this.#reader) this.#index.clear();
        throw toEngramError(error, action);
      }
    });
  }

  /** Writes queued accesses in their own transaction; call with the mutex held. Failures re-queue them. */
  async #flushAccessLocked(options: { rethrow?: boolean; maxWaitMs?: number } = {}): Promise<void> {
    const writer = this.#writer;
    if (writer === undefined || this.#access.size === 0) return;
    const entries = this.#access.take();
    try {
      await writer.beginImmediate(options.maxWaitMs);
      try {
        for (const [id, { count, lastAt }] of entries) writer.run(RECORD_ACCESS_SQL, count, lastAt, lastAt, id);
        writer.commit();
      } catch (error) {
        writer.rollbackQuietly();
        throw error;
      }
    } catch (error) {
      this.#access.restore(entries);
      if (options.rethrow === true) throw toEngramError(error, 'record accesses');
    }
  }

  #scheduleAccessFlush(): void {
    if (this.#flushTimer !== undefined) return;
    const delay = this.#access.size >= ACCESS_FLUSH_SIZE ? 0 : this.#config.accessFlushMs;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      if (this.#state.closed) return;
      void this.#mutex
        .run(() => this.#flushAccessLocked())
        .then(() => {
          if (this.#access.size > 0 && !this.#state.closed) this.#scheduleAccessFlush();
        });
    }, delay);
    // best effort: pending accesses must not keep the process alive (close() writes them)
    this.#flushTimer.unref?.();
  }
}

function readerContext(
  parts: { config: ResolvedSqliteStoreConfig; index: VectorIndex; ann: AnnIndex | undefined },
  connection: SqliteConnection,
  assertUsable: () => void,
): ReaderContext {
  const { config, index, ann } = parts;
  return {
    connection,
    index,
    ann,
    dimension: config.embedding.dimension,
    embedderName: config.embedding.name,
    memoryIndexThreshold: config.memoryIndexThreshold,
    memoryIndexWarmup: config.memoryIndexWarmup,
    assertUsable,
  };
}

function assertOpen(state: OpenState): void {
  if (state.closed) throw new EngramError('STORAGE_UNAVAILABLE', messages.storageUnavailable('the store has been closed'));
}

/** Why a close could not save access counts, in a few words (the SQLite result code, and what it means when it is a usual one). */
function unsavedReason(error: unknown): string {
  const code = isEngramError(error) ? error.details.sqliteCode : undefined;
  if (typeof code !== 'string') return error instanceof Error ? error.message : String(error);
  if (code.startsWith('SQLITE_READONLY')) return `${code}: the store is read-only for this process`;
  if (code === 'SQLITE_FULL') return `${code}: the disk is full`;
  return code;
}

function closeQuietly(connection: SqliteConnection): void {
  try {
    connection.close();
  } catch {
    // closing is best effort; the process may be shutting down
  }
}
