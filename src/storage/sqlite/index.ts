/**
 * `engram/sqlite`: the embedded SQLite store (WAL, FTS5, sqlite-vec). The driver is loaded when a
 * store is opened, not when this module is imported.
 */
import { existsSync } from 'node:fs';
import { isMemoryPath, openConnection } from './sqlite-connection.js';
import { toEngramError } from './sqlite-errors.js';
import { readEmbeddingIdentity } from './sqlite-migrations.js';
import { SqliteStore } from './sqlite-store.js';
import type { SqliteStoreConfig } from './sqlite-store-config.js';

export { SqliteStore } from './sqlite-store.js';
export type { SqliteStoreConfig } from './sqlite-store-config.js';

/**
 * Opens the SQLite store at `config.path`, creating and migrating it if needed. Throws
 * `EMBEDDING_MODEL_MISMATCH` / `EMBEDDING_DIMENSION_MISMATCH` when the file was created with another
 * embedder, and `STORAGE_UNAVAILABLE` when the file cannot be opened.
 *
 * @example
 * ```ts
 * import { openSqliteStore } from 'engram/sqlite';
 * const store = await openSqliteStore({ path: './engram.db', embedding: { name: 'use-lite:512', dimension: 512 } });
 * try {
 *   console.log(await store.stats(['acme/shared']));
 * } finally {
 *   await store.close();
 * }
 * ```
 */
export function openSqliteStore(config: SqliteStoreConfig): Promise<SqliteStore> {
  return SqliteStore.open(config);
}

/**
 * The embedder name recorded in an existing database, or `null` when the file does not exist yet or
 * records none; lets a caller reopen a database with the embedder it was created with.
 *
 * @example
 * ```ts
 * import { readSqliteEmbedder } from 'engram/sqlite';
 * const name = await readSqliteEmbedder('./engram.db'); // e.g. 'use-lite:512'
 * ```
 */
export async function readSqliteEmbedder(path: string): Promise<string | null> {
  if (isMemoryPath(path) || !existsSync(path)) return null;
  const connection = await openConnection({ path, readonly: true, busyTimeoutMs: 10_000 });
  try {
    return connection.snapshot(() => readEmbeddingIdentity(connection)).name ?? null;
  } catch (error) {
    throw toEngramError(error, 'read the recorded embedder');
  } finally {
    connection.close();
  }
}
