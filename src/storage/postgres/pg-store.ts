/**
 * The PostgreSQL store: one schema of a PostgreSQL database, shared by any number of Engram processes.
 *
 * Reads outside transactions go through the pool (committed data). A transaction takes one pooled
 * session and, first thing, a transaction-scoped advisory lock on the schema: writers are serialised
 * across every server, like SQLite's `BEGIN IMMEDIATE`, so read-then-write logic (supersession, dedup)
 * never interleaves. In one process a mutex queues transactions so they hold one pool session, not ten.
 */
import { EngramError, messages } from '../../core/errors.js';
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
import type { Scope } from '../../core/scope.js';
import * as keyRows from './pg-api-keys.js';
import { claimJobs, completeJobs, failJob, jobBacklog } from './pg-jobs.js';
import { countPendingParts, PartBlobCache, readPendingParts } from './pg-parts.js';
import { countPendingMentions, readPendingMentions, writeMentions } from './pg-mentions.js';
import { assertReadScopes } from '../../core/scope.js';
import { consoleLogger, type Logger } from '../../core/ports/logger.js';
import { AccessBatch } from '../access-batch.js';
import { AsyncMutex } from '../async-mutex.js';
import type { PgDriver, PgQueryable } from './pg-driver.js';
import { pgCode, toEngramError } from './pg-errors.js';
import { checkEmbeddingIdentity, ensurePgvector, LOCK_WRITE, migrate, readVectorStorage, type VectorStorage } from './pg-migrations.js';
import { PgReader, type PgReaderContext } from './pg-reader.js';
import { SCHEMA_NAME, tablesOf, type Tables } from './pg-rows.js';
import { PgTransaction } from './pg-transaction.js';
import { VectorCache } from './pg-vector-cache.js';
import { assertEmbedderCurrent, PgVectorStaging } from './pg-vector-staging.js';
import type { VectorStaging } from '../../core/ports/vector-staging.js';

/** Flush accesses at once when this many ids are waiting. */
const ACCESS_FLUSH_SIZE = 5000;

/** How the store is opened over an already created driver. */
export interface PostgresStoreOptions {
  driver: PgDriver;
  embedding: { name: string; dimension: number };
  /** Schema holding Engram's tables (default `engram`); created if missing. */
  schema?: string;
  /**
   * `auto` (default): pgvector when the database has or can install it, else exact search over
   * `real[]`. `pgvector` insists on it; `exact` never uses it. An existing schema keeps what it was created with.
   */
  vectors?: 'auto' | 'pgvector' | 'exact';
  /** Above this many records in the searched scopes, vector search uses the HNSW index (default 20 000). */
  annThreshold?: number;
  /** Accesses are written within this many ms (default 1000). */
  accessFlushMs?: number;
  /** Where the store reports writes it let go, such as access counts a role that may only read cannot save (default: `console.warn`). */
  logger?: Logger;
}

interface OpenState {
  closed: boolean;
}

/** SQLSTATEs of a session that may not write: insufficient_privilege, read_only_sql_transaction (a standby). */
const WRITE_REFUSED = new Set(['42501', '25006']);

/** Memory rows inserted (through this store) before it refreshes the table's planner statistics. */
const ANALYZE_MIN_ROWS = 1_000;

/**
 * The PostgreSQL implementation of the `Store` port. Open it with `openPostgresStore` (a URL) or
 * `openPgliteStore` (an in-process PGlite database).
 */
export class PostgresStore extends PgReader implements Store {
  readonly capabilities: StoreCapabilities;
  readonly vectorStaging: VectorStaging;
  /** How vectors are stored in this schema. */
  readonly vectorStorage: VectorStorage;
  readonly #driver: PgDriver;
  readonly #tables: Tables;
  readonly #options: Required<Pick<PostgresStoreOptions, 'annThreshold' | 'accessFlushMs'>> & { dimension: number; embedderName: string };
  readonly #state: OpenState;
  readonly #mutex = new AsyncMutex();
  readonly #access = new AccessBatch();
  readonly #logger: Logger;
  /** Set once the role proved it may not write access counts: later reads queue none. */
  #accessDenied = false;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #closing: Promise<void> | undefined;
  /** Memory rows this store inserted since it last analysed the table, and the rows the table had then. */
  readonly #analysis = { insertedSince: 0, rowsThen: 0 };

  readonly #vectorCache: VectorCache | undefined;
  readonly #partCache: PartBlobCache;

  private constructor(parts: {
    driver: PgDriver;
    tables: Tables;
    vectors: VectorStorage;
    dimension: number;
    embedderName: string;
    annThreshold: number;
    accessFlushMs: number;
    logger: Logger;
    state: OpenState;
    vectorCache: VectorCache | undefined;
    partCache: PartBlobCache;
  }) {
    super({
      ...contextFor(
        { ...parts, checkEmbedder: true },
        parts.driver,
        () => assertOpen(parts.state),
        (fn) => parts.driver.transaction(fn),
      ),
      // reads outside transactions only: a transaction's context has none
      partCache: parts.partCache,
    });
    this.#vectorCache = parts.vectorCache;
    this.#partCache = parts.partCache;
    this.#driver = parts.driver;
    this.#tables = parts.tables;
    this.vectorStorage = parts.vectors;
    this.#options = {
      annThreshold: parts.annThreshold,
      accessFlushMs: parts.accessFlushMs,
      dimension: parts.dimension,
      embedderName: parts.embedderName,
    };
    this.#state = parts.state;
    this.#logger = parts.logger;
    this.capabilities = Object.freeze({ annIndex: parts.vectors === 'pgvector', multiProcess: parts.driver.concurrentSessions });
    this.vectorStaging = new PgVectorStaging({
      tables: parts.tables,
      embedderName: parts.embedderName,
      vectors: parts.vectors,
      read: (action, fn) => this.read(action, fn),
      locked: (action, fn) => this.#locked(action, fn),
    });
  }

  /** Opens (creating and migrating if needed) the schema over `options.driver`; closes the driver on failure. */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const schema = options.schema ?? 'engram';
    const { driver, embedding } = options;
    try {
      if (!SCHEMA_NAME.test(schema)) {
        throw new EngramError(
          'INVALID_INPUT',
          messages.invalidInput(`schema "${schema}" must be a lower-case identifier ([a-z_][a-z0-9_]*)`),
          { details: { schema } },
        );
      }
      if (!Number.isInteger(embedding.dimension) || embedding.dimension < 1 || embedding.dimension > 16_000) {
        throw new EngramError('INVALID_INPUT', messages.invalidInput('the embedding dimension must be an integer between 1 and 16000'));
      }
      const tables = tablesOf(schema);
      const wanted = options.vectors ?? 'auto';
      let vectors = await readVectorStorage(driver, tables).catch((error: unknown) => {
        throw toEngramError(error, 'connect to PostgreSQL');
      });
      if (vectors === undefined) {
        const pgvector =
          wanted === 'exact'
            ? false
            : await ensurePgvector(driver).catch((error: unknown) => {
                throw toEngramError(error, 'check for pgvector');
              });
        if (wanted === 'pgvector' && !pgvector) {
          throw new EngramError(
            'STORAGE_UNAVAILABLE',
            messages.storageUnavailable('pgvector was required (vectors: "pgvector") but the server does not have the "vector" extension'),
          );
        }
        vectors = pgvector ? 'pgvector' : 'array';
      }
      await migrate(driver, { tables, dimension: embedding.dimension, vectors });
      vectors = (await readVectorStorage(driver, tables)) ?? vectors;
      await checkEmbeddingIdentity(driver, tables, embedding);
      return new PostgresStore({
        driver,
        tables,
        vectors,
        dimension: embedding.dimension,
        embedderName: embedding.name,
        annThreshold: options.annThreshold ?? 20_000,
        accessFlushMs: options.accessFlushMs ?? 1000,
        logger: options.logger ?? consoleLogger,
        state: { closed: false },
        vectorCache: vectors === 'array' ? new VectorCache(embedding.dimension) : undefined,
        partCache: new PartBlobCache(),
      });
    } catch (error) {
      await driver.close().catch(() => undefined);
      throw toEngramError(error, 'open the store');
    }
  }

  /** The schema this store lives in. */
  get schema(): string {
    return this.#tables.schema;
  }

  /**
   * Runs `fn` in one transaction holding the schema's writer lock: commits when it resolves, rolls back
   * and rethrows when it rejects. Inside `fn` write only through `tx`.
   */
  async transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    assertOpen(this.#state);
    return this.#mutex.run(async () => {
      await this.#flushAccessLocked();
      let finished = false;
      let callerFailed = false;
      let inserted = 0;
      try {
        const result = await this.#driver.transaction(async (session) => {
          await session.query(`SELECT ${LOCK_WRITE}`, [this.#tables.schema]);
          // after the lock, so a reembed that switched the model meanwhile is seen
          await assertEmbedderCurrent(session, this.#tables, this.#options.embedderName);
          const context = contextFor(
            {
              tables: this.#tables,
              vectors: this.vectorStorage,
              dimension: this.#options.dimension,
              embedderName: this.#options.embedderName,
              checkEmbedder: false,
              annThreshold: this.#options.annThreshold,
              vectorCache: this.#vectorCache,
            },
            session,
            () => {
              if (finished)
                throw new EngramError('INTERNAL', messages.storageUnavailable('a transaction object was used after its transaction ended'));
            },
            (inner) => inner(session),
          );
          const tx = new PgTransaction(context);
          try {
            const value = await fn(tx);
            inserted = tx.insertedRows;
            return value;
          } catch (error) {
            callerFailed = true;
            throw error;
          }
        });
        await this.#keepStatisticsCurrent(inserted);
        return result;
      } catch (error) {
        // the cache may hold vectors this transaction wrote and rolled back: reload it from the log
        this.#vectorCache?.clear();
        // the caller's own rejection propagates as it is; driver failures become EngramErrors
        if (callerFailed) throw error;
        throw toEngramError(error, 'run a transaction');
      } finally {
        finished = true;
      }
    });
  }

  /**
   * After bulk inserts (at least {@link ANALYZE_MIN_ROWS} rows since the last time, and a fifth of the
   * table), refreshes the planner's statistics of the memories table and moves the lexeme index's
   * pending entries into the index, as autovacuum would within a minute or so. Until then a freshly
   * loaded schema is planned as if nearly empty and every lexical search reads the GIN index's unsorted
   * pending list: in a just-loaded 10k schema a claim's document-frequency counts took 54 ms instead of
   * 3, and the 30%-claim write mix ran at 36/s instead of 86. Best effort: the write has committed, and
   * a role that does not own the table is left to autovacuum.
   */
  async #keepStatisticsCurrent(inserted: number): Promise<void> {
    const analysis = this.#analysis;
    analysis.insertedSince += inserted;
    if (analysis.insertedSince < Math.max(ANALYZE_MIN_ROWS, analysis.rowsThen / 5)) return;
    analysis.insertedSince = 0;
    try {
      await this.#driver.query(`ANALYZE ${this.#tables.memories}`);
      const rows = await this.#driver.query<{ rows: number }>(
        `SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = $1::regclass`,
        [this.#tables.memories],
      );
      analysis.rowsThen = Number(rows.rows[0]?.rows ?? 0);
      await this.#driver.query(`SELECT gin_clean_pending_list($1::regclass)`, [`${this.#tables.q('memories_lexemes')}`]);
    } catch {
      // autovacuum does the same later
    }
  }

  /** Queues the accesses and returns at once; they are written within `accessFlushMs`, before the next transaction, or on close. */
  async recordAccess(ids: readonly string[], at: number): Promise<void> {
    if (this.#state.closed || this.#accessDenied || ids.length === 0) return;
    this.#access.add(ids, at);
    this.#scheduleAccessFlush();
  }

  async getMeta(key: string): Promise<string | null> {
    return this.read(
      'read metadata',
      async (db) =>
        (await db.query<{ value: string }>(`SELECT value FROM ${this.#tables.meta} WHERE key = $1`, [key])).rows[0]?.value ?? null,
    );
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.read('write metadata', (db) =>
      db.query(`INSERT INTO ${this.#tables.meta} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [
        key,
        value,
      ]),
    );
  }

  async insertApiKey(key: StoredApiKey): Promise<void> {
    await this.read('store an API key', (db) => keyRows.insertApiKey(db, this.#tables, key));
  }

  async listApiKeys(): Promise<StoredApiKey[]> {
    return this.read('list API keys', (db) => keyRows.listApiKeys(db, this.#tables));
  }

  async findApiKey(hash: string): Promise<StoredApiKey | null> {
    return this.read('look up an API key', (db) => keyRows.findApiKey(db, this.#tables, hash));
  }

  async revokeApiKey(id: string, at: number): Promise<StoredApiKey | null> {
    return this.read('revoke an API key', (db) => keyRows.revokeApiKey(db, this.#tables, id, at));
  }

  async countApiKeys(): Promise<{ total: number; active: number }> {
    return this.read('count API keys', (db) => keyRows.countApiKeys(db, this.#tables));
  }

  /**
   * Takes the lease `name` for `owner` for `ttlMs`: true if it was free, expired, or
   * already held by `owner` (then renewed); false while another owner's lease runs. One atomic upsert
   * on the database's clock, so every server agrees on expiry. A holder that dies lets its lease expire.
   */
  async acquireJobLock(name: string, owner: string, ttlMs: number): Promise<boolean> {
    if (name.length === 0 || owner.length === 0 || !(ttlMs > 0)) {
      throw new EngramError('INVALID_INPUT', messages.invalidInput('a job lock needs a name, an owner and a positive ttlMs'));
    }
    return this.read('acquire a job lock', async (db) => {
      const result = await db.query(
        `WITH now AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS t)
         INSERT INTO ${this.#tables.jobLocks} AS l (name, owner, acquired_at, expires_at)
         SELECT $1, $2, now.t, now.t + $3::bigint FROM now
         ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, acquired_at = EXCLUDED.acquired_at, expires_at = EXCLUDED.expires_at
         WHERE l.owner = EXCLUDED.owner OR l.expires_at <= EXCLUDED.acquired_at
         RETURNING l.name`,
        [name, owner, Math.ceil(ttlMs)],
      );
      return result.rowCount > 0;
    });
  }

  /** Releases the lease if `owner` holds it; returns whether it did. */
  async releaseJobLock(name: string, owner: string): Promise<boolean> {
    return this.read(
      'release a job lock',
      async (db) => (await db.query(`DELETE FROM ${this.#tables.jobLocks} WHERE name = $1 AND owner = $2`, [name, owner])).rowCount > 0,
    );
  }

  /** Claims due jobs with `FOR UPDATE SKIP LOCKED`: concurrent claimers on any server never get the same job. */
  async claimJobs(query: ClaimJobsQuery): Promise<Job[]> {
    return this.read('claim jobs', (db) => claimJobs(db, this.#tables, query));
  }

  async completeJobs(ids: readonly string[], owner: string): Promise<number> {
    return this.read('complete jobs', (db) => completeJobs(db, this.#tables, ids, owner));
  }

  async failJob(
    id: string,
    owner: string,
    error: string,
    options: { now: number; maxAttempts?: number; retryAfterMs?: number },
  ): Promise<'retry' | 'failed' | 'lost'> {
    return this.read('record a job failure', (db) => failJob(db, this.#tables, id, owner, error, options));
  }

  async jobBacklog(scopes: readonly Scope[]): Promise<JobBacklog> {
    return this.read('count jobs', (db) => jobBacklog(db, this.#tables, scopes));
  }

  async pendingParts(query: { scopes: readonly Scope[] | 'all'; limit: number }): Promise<PartsCandidate[]> {
    return this.read('read records pending part vectors', (db) => readPendingParts(db, this.#tables, query));
  }

  async pendingMentions(query: { scopes: readonly Scope[] | 'all'; limit: number }): Promise<MentionsCandidate[]> {
    if (query.scopes !== 'all') assertReadScopes(query.scopes);
    return this.read('read records whose mentioned times are not stored', (db) =>
      readPendingMentions(db, this.#tables, query.scopes, query.limit),
    );
  }

  async setMentions(entries: readonly (MentionsCandidate & { mentions: readonly TimeSpan[] })[]): Promise<number> {
    return this.read('store mentioned times', (db) => writeMentions(db, this.#tables, entries));
  }

  async countPendingMentions(scopes: readonly Scope[]): Promise<number> {
    const allowed = assertReadScopes(scopes);
    return this.read('count records whose mentioned times are not stored', (db) => countPendingMentions(db, this.#tables, allowed));
  }

  async countPendingParts(scopes: readonly Scope[]): Promise<number> {
    return this.read('count records pending part vectors', (db) => countPendingParts(db, this.#tables, scopes));
  }

  /**
   * After a purge: vacuums the tables it deleted from, so the dead rows and their index entries
   * (tsvector, vectors) are removed from the heap and indexes rather than only invisible. Best effort:
   * the rows are already deleted; a VACUUM refused (no privilege, a lock) changes nothing visible.
   */
  async scrubDeleted(_scopes: readonly Scope[]): Promise<void> {
    assertOpen(this.#state);
    // the part vectors were made from the deleted text: none stay in this process either
    this.#partCache.clear();
    for (const table of [this.#tables.memories, this.#tables.edges, this.#tables.q('concept_refs'), this.#tables.q('memory_parts')]) {
      await this.#driver.query(`VACUUM ${table}`).catch(() => undefined);
    }
  }

  /** Runs `fn` with the raw driver and table names (migration tool, diagnostics). */
  async withDriver<T>(fn: (db: PgDriver, tables: Tables) => Promise<T>): Promise<T> {
    assertOpen(this.#state);
    return fn(this.#driver, this.#tables);
  }

  /** Writes pending accesses and closes the pool (or the PGlite instance, if the store owns it). Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  async #shutDown(): Promise<void> {
    if (this.#flushTimer !== undefined) clearTimeout(this.#flushTimer);
    // access counts are best effort: the read they count has answered, so a close never fails for them
    await this.#mutex
      .run(() => this.#flushAccessLocked({ rethrow: true }))
      .catch((error: unknown) => {
        this.#logger.warn(`the access counts of this run were not saved (${error instanceof Error ? error.message : String(error)})`);
      });
    this.#state.closed = true;
    await this.#driver.close().catch(() => undefined);
  }

  /** Runs `fn` in one transaction holding the schema's writer lock, queued behind this process's transactions. */
  async #locked<T>(action: string, fn: (session: PgQueryable) => Promise<T>): Promise<T> {
    assertOpen(this.#state);
    return this.#mutex.run(async () => {
      try {
        return await this.#driver.transaction(async (session) => {
          await session.query(`SELECT ${LOCK_WRITE}`, [this.#tables.schema]);
          return fn(session);
        });
      } catch (error) {
        this.#vectorCache?.clear();
        throw toEngramError(error, action);
      }
    });
  }

  /** Writes queued accesses in one statement; call with the mutex held. Failures re-queue them. */
  async #flushAccessLocked(options: { rethrow?: boolean } = {}): Promise<void> {
    if (this.#access.size === 0) return;
    const entries = this.#access.take();
    const batch = [...entries].map(([id, { count, lastAt }]) => ({ id, count, at: lastAt }));
    try {
      await this.#driver.query(
        `UPDATE ${this.#tables.memories} m SET access_count = m.access_count + u.count,
           last_accessed_at = CASE WHEN m.last_accessed_at IS NULL OR m.last_accessed_at < u.at THEN u.at ELSE m.last_accessed_at END
         FROM json_to_recordset($1::json) AS u(id text, count bigint, at bigint) WHERE m.id = u.id`,
        [JSON.stringify(batch)],
      );
    } catch (error) {
      if (WRITE_REFUSED.has(pgCode(error) ?? '')) {
        // a role that may only read: let these go, queue no more, and say so once
        this.#accessDenied = true;
        this.#access.take();
        this.#logger.warn('access counts are not saved: this PostgreSQL session may not write the store (it may only read)', {
          schema: this.#tables.schema,
        });
        return;
      }
      this.#access.restore(entries);
      if (options.rethrow === true) throw toEngramError(error, 'record accesses');
    }
  }

  #scheduleAccessFlush(): void {
    if (this.#flushTimer !== undefined) return;
    const delay = this.#access.size >= ACCESS_FLUSH_SIZE ? 0 : this.#options.accessFlushMs;
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

function contextFor(
  parts: {
    tables: Tables;
    vectors: VectorStorage;
    dimension: number;
    embedderName: string;
    checkEmbedder: boolean;
    annThreshold: number;
    vectorCache: VectorCache | undefined;
  },
  db: PgQueryable,
  assertUsable: () => void,
  withLocalSettings: PgReaderContext['withLocalSettings'],
): PgReaderContext {
  const { tables, dimension, embedderName, checkEmbedder, vectors, annThreshold } = parts;
  const context = { db, tables, dimension, embedderName, checkEmbedder, vectors, annThreshold, withLocalSettings, assertUsable };
  return parts.vectorCache === undefined ? context : { ...context, vectorCache: parts.vectorCache };
}

function assertOpen(state: OpenState): void {
  if (state.closed) throw new EngramError('STORAGE_UNAVAILABLE', messages.storageUnavailable('the store has been closed'));
}
