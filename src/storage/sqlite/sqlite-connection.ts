/**
 * One SQLite connection: opening it (pragmas, sqlite-vec), a bounded prepared-statement cache,
 * read snapshots and `BEGIN IMMEDIATE` with retries.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EngramError, isEngramError, messages } from '../../core/errors.js';
import { blockedByReadOnlyFolder, folderWritable, readOnlyCopy } from './read-only-folder.js';
import { BUSY_WAIT_SETTING, isBusy, toEngramError } from './sqlite-errors.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-store-config.js';

const STATEMENT_CACHE_SIZE = 200;
/** One synchronous busy wait at most this long, so a blocked writer never freezes the event loop for long. */
const WRITE_BUSY_SLICE_MS = 250;

/** Is `path` SQLite's private in-memory database rather than a file? */
export function isMemoryPath(path: string): boolean {
  return path === ':memory:' || path.startsWith('file::memory:');
}

/**
 * Opens one connection with WAL, `busy_timeout`, foreign keys, `synchronous=NORMAL` and sqlite-vec loaded.
 * A read-only connection to a database in a folder it cannot write (SQLite could not create `-wal`/`-shm`)
 * reads a copy of the file held in memory instead (`inMemoryCopy`); it throws when a `-wal` holds changes.
 * The driver is imported lazily so that importing this module loads no native code.
 */
export async function openConnection(options: { path: string; readonly: boolean; busyTimeoutMs: number }): Promise<SqliteConnection> {
  const { path, readonly } = options;
  if (!isMemoryPath(path)) {
    const directory = dirname(resolve(path));
    if (!existsSync(directory)) {
      throw new EngramError(
        'STORAGE_UNAVAILABLE',
        messages.storageUnavailable(`the directory "${directory}" does not exist; create it first or choose another path`),
        {
          details: { path },
        },
      );
    }
    if (readonly && !existsSync(path)) {
      throw new EngramError(
        'STORAGE_UNAVAILABLE',
        messages.storageUnavailable(`"${path}" does not exist, so it cannot be opened read-only; open it read-write once to create it`),
        {
          details: { path },
        },
      );
    }
  }
  const [driver, sqliteVec] = await Promise.all([import('better-sqlite3'), import('sqlite-vec')]);
  let db: SqliteDatabase;
  let inMemoryCopy = false;
  try {
    db = new driver.default(path, { readonly, fileMustExist: readonly });
    if (readonly && !isMemoryPath(path) && blockedByReadOnlyFolder(db, path)) {
      db.close();
      db = new driver.default(readOnlyCopy(path), { readonly: true });
      inMemoryCopy = true;
    }
  } catch (error) {
    if (isEngramError(error)) throw error;
    throw new EngramError(
      'STORAGE_UNAVAILABLE',
      messages.storageUnavailable(`"${path}" cannot be opened; check that its directory is writable and the file is an SQLite database`),
      {
        details: { path },
        cause: error,
      },
    );
  }
  try {
    db.pragma(`busy_timeout = ${Math.round(options.busyTimeoutMs)}`);
    if (!readonly && !isMemoryPath(path)) db.pragma('journal_mode = WAL');
    // reads through a memory map skip a system call per page (recall reads a few hundred rows at random)
    if (readonly && !isMemoryPath(path) && !inMemoryCopy) db.pragma('mmap_size = 8589934592');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // freed bytes are zeroed when freed, so a purged text leaves no copy in a page or the freelist
    if (!readonly) db.pragma('secure_delete = ON');
    sqliteVec.load(db);
  } catch (error) {
    db.close();
    throw toEngramError(error, 'open the database');
  }
  return new SqliteConnection(db, options.busyTimeoutMs, inMemoryCopy);
}

/**
 * The write connection, or `undefined` when it cannot be opened because the database exists in a
 * folder this process may not write (the caller then opens the store read-only).
 */
export async function openWriterUnlessFolderReadOnly(path: string, busyTimeoutMs: number): Promise<SqliteConnection | undefined> {
  try {
    return await openConnection({ path, readonly: false, busyTimeoutMs });
  } catch (error) {
    if (isMemoryPath(path) || !existsSync(path) || folderWritable(path)) throw error;
    return undefined;
  }
}

/** A connection with cached statements; every method is synchronous, like the driver. */
export class SqliteConnection {
  readonly #db: SqliteDatabase;
  #afterCommit: (() => void) | undefined;
  readonly #busyTimeoutMs: number;
  readonly #statements = new Map<string, SqliteStatement>();
  /** Reads a copy of the file taken at open (its folder could not be written): later changes are not seen. */
  readonly inMemoryCopy: boolean;

  constructor(db: SqliteDatabase, busyTimeoutMs: number, inMemoryCopy = false) {
    this.#db = db;
    this.#busyTimeoutMs = busyTimeoutMs;
    this.inMemoryCopy = inMemoryCopy;
  }

  get inTransaction(): boolean {
    return this.#db.inTransaction;
  }

  /** The cached prepared statement for `sql` (least recently prepared evicted first). */
  statement(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  all<T>(sql: string, ...params: unknown[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  readonly #rawStatements = new Map<string, SqliteStatement>();

  /** Like `all`, rows as arrays of column values in SELECT order (much cheaper for wide rows). */
  allArrays(sql: string, ...params: unknown[]): unknown[][] {
    let statement = this.#rawStatements.get(sql);
    if (statement === undefined) {
      const prepared = this.#db.prepare(sql);
      if (prepared.raw === undefined) return this.all<Record<string, unknown>>(sql, ...params).map((row) => Object.values(row));
      statement = prepared.raw(true);
      if (this.#rawStatements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#rawStatements.keys().next().value;
        if (oldest !== undefined) this.#rawStatements.delete(oldest);
      }
      this.#rawStatements.set(sql, statement);
    }
    return statement.all(...params) as unknown[][];
  }

  get<T>(sql: string, ...params: unknown[]): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  /** Runs a write and returns the number of changed rows. */
  run(sql: string, ...params: unknown[]): number {
    return this.statement(sql).run(...params).changes;
  }

  /** Runs an INSERT and returns the new row's rowid. */
  insert(sql: string, ...params: unknown[]): number {
    return Number(this.statement(sql).run(...params).lastInsertRowid);
  }

  exec(sql: string): void {
    this.#db.exec(sql);
  }

  /** Runs synchronous reads in one consistent snapshot, unless a transaction is already open. */
  snapshot<T>(fn: () => T): T {
    if (this.#db.inTransaction) return fn();
    this.#db.exec('BEGIN');
    try {
      const result = fn();
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * `BEGIN IMMEDIATE`: takes the write lock now, so no other writer (any process) interleaves.
   * Waits in short synchronous slices with async pauses between them, up to `busyTimeoutMs` in all,
   * then throws `BUSY`.
   */
  async beginImmediate(maxWaitMs = this.#busyTimeoutMs): Promise<void> {
    const deadline = Date.now() + Math.min(maxWaitMs, this.#busyTimeoutMs);
    this.#db.pragma(`busy_timeout = ${Math.min(WRITE_BUSY_SLICE_MS, Math.round(this.#busyTimeoutMs))}`);
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          this.#db.exec('BEGIN IMMEDIATE');
          return;
        } catch (error) {
          if (!isBusy(error)) throw toEngramError(error, 'begin a write transaction');
          if (Date.now() >= deadline) {
            throw new EngramError(
              'BUSY',
              messages.busy(`another writer held the write lock for more than ${this.#busyTimeoutMs} ms`, BUSY_WAIT_SETTING),
              {
                details: { action: 'begin a write transaction', attempts: attempt + 1 },
                cause: error,
              },
            );
          }
          await sleep(Math.min(5 + Math.random() * 20 * Math.min(attempt + 1, 5), Math.max(0, deadline - Date.now())));
        }
      }
    } finally {
      this.#db.pragma(`busy_timeout = ${Math.round(this.#busyTimeoutMs)}`);
    }
  }

  commit(): void {
    this.#db.exec('COMMIT');
    this.#afterCommit?.();
  }

  /** Calls `listener` after each COMMIT on this connection (one listener; undefined removes it). It must not throw. */
  onCommit(listener: (() => void) | undefined): void {
    this.#afterCommit = listener;
  }

  /** The WAL size in pages past which a COMMIT checkpoints on this connection (SQLite's default 1,000; 0: never). */
  setAutoCheckpoint(pages: number): void {
    this.#db.pragma(`wal_autocheckpoint = ${Math.max(0, Math.floor(pages))}`);
  }

  /** Rolls back if a transaction is open; never throws (the original failure matters more). */
  rollbackQuietly(): void {
    try {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
    } catch {
      // SQLite already rolled back (e.g. after SQLITE_FULL); nothing left to undo
    }
  }

  close(): void {
    this.#statements.clear();
    this.#rawStatements.clear();
    this.#db.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
