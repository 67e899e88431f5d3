/**
 * `engram/postgres`: the PostgreSQL store (tsvector + GIN, pgvector HNSW or exact vectors, advisory
 * locks, pooled sessions), over a server (`pg`) or an in-process PGlite database. Drivers load when a
 * store is opened, not when this module is imported.
 */
import { EngramError, messages } from '../../core/errors.js';
import { createPgliteDriver, createPoolDriver, type PgliteLike } from './pg-driver.js';
import { toEngramError } from './pg-errors.js';
import { readEmbeddingName } from './pg-migrations.js';
import { SCHEMA_NAME, tablesOf } from './pg-rows.js';
import { PostgresStore, type PostgresStoreOptions } from './pg-store.js';

export { PostgresStore, type PostgresStoreOptions } from './pg-store.js';
export type { PgDriver, PgQueryable, PgliteLike } from './pg-driver.js';

/** Does `path` name a PostgreSQL database (`postgres://` or `postgresql://`)? */
export function isPostgresUrl(path: string): boolean {
  return /^postgres(ql)?:\/\//i.test(path);
}

/**
 * Splits Engram's own query parameters off a URL (libpq would reject them): `schema`, and `prepare=off`
 * for a pooler that cannot keep prepared statements (`preparedStatements: 0`; `on`, the default, keeps
 * the driver's limit).
 */
export function parsePostgresUrl(url: string): { connectionString: string; schema: string | undefined; prepare: boolean } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput('the PostgreSQL URL is malformed; expected postgres://user:password@host:5432/database[?schema=engram]'),
    );
  }
  const schema = parsed.searchParams.get('schema') ?? undefined;
  parsed.searchParams.delete('schema');
  const prepare = parsed.searchParams.get('prepare') ?? 'on';
  parsed.searchParams.delete('prepare');
  if (prepare !== 'on' && prepare !== 'off')
    throw new EngramError('INVALID_INPUT', messages.invalidInput(`prepare=${prepare} in the PostgreSQL URL must be on or off`));
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(`schema "${schema}" in the URL must be a lower-case identifier ([a-z_][a-z0-9_]*)`),
    );
  }
  return { connectionString: parsed.toString(), schema, prepare: prepare === 'on' };
}

export interface PostgresUrlOptions extends Omit<PostgresStoreOptions, 'driver' | 'schema'> {
  /** `postgres://user:password@host:port/database`; `?schema=name` picks the schema (default `engram`). */
  url: string;
  /** Overrides the URL's schema. */
  schema?: string;
  /** Connection pool size (default 10). */
  poolSize?: number;
  /**
   * Distinct read statements prepared once per pooled session (default 256); `0` (or `?prepare=off` in
   * the URL) for a pooler that cannot keep prepared statements. A whole number ≥ 0.
   */
  preparedStatements?: number;
}

/**
 * Opens the store in a PostgreSQL database, creating and migrating its schema if needed. Throws
 * `EMBEDDING_MODEL_MISMATCH` / `EMBEDDING_DIMENSION_MISMATCH` when the schema was created with another
 * embedder, and `STORAGE_UNAVAILABLE` when the server cannot be reached.
 *
 * @example
 * ```ts
 * import { openPostgresStore } from 'engram/postgres';
 * const store = await openPostgresStore({ url: 'postgres://engram:engram@localhost/engram', embedding: { name: 'use-lite:512', dimension: 512 } });
 * ```
 */
export async function openPostgresStore(options: PostgresUrlOptions): Promise<PostgresStore> {
  const { url, poolSize, schema: explicit, preparedStatements, ...rest } = options;
  const { connectionString, schema, prepare } = parsePostgresUrl(url);
  if (preparedStatements !== undefined && !(Number.isInteger(preparedStatements) && preparedStatements >= 0))
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(`preparedStatements must be a whole number ≥ 0 (0: none), got ${String(preparedStatements)}`),
    );
  const driver = await createPoolDriver({
    connectionString,
    ...(poolSize === undefined ? {} : { max: poolSize }),
    preparedStatements: prepare ? preparedStatements : 0,
  });
  const chosen = explicit ?? schema;
  return PostgresStore.open({ ...rest, driver, ...(chosen === undefined ? {} : { schema: chosen }) });
}

export interface PgliteStoreOptions extends Omit<PostgresStoreOptions, 'driver'> {
  /** An open PGlite instance (created with the pgvector extension for `vector`); the caller closes it. */
  pglite?: PgliteLike;
  /** Else: a data directory (`memory://` for none) for a PGlite this store creates, with pgvector, and closes. */
  dataDir?: string;
}

/**
 * Opens the store in PGlite (PostgreSQL in WASM, in this process): tests, demos, single-process use.
 *
 * @example
 * ```ts
 * import { openPgliteStore } from 'engram/postgres';
 * const store = await openPgliteStore({ dataDir: 'memory://', embedding: { name: 'hash:256', dimension: 256 } });
 * ```
 */
export async function openPgliteStore(options: PgliteStoreOptions): Promise<PostgresStore> {
  const { pglite, dataDir, ...rest } = options;
  if (pglite !== undefined) return PostgresStore.open({ ...rest, driver: createPgliteDriver(pglite, { ownsDatabase: false }) });
  const db = await createPglite(dataDir ?? 'memory://');
  return PostgresStore.open({ ...rest, driver: createPgliteDriver(db, { ownsDatabase: true }) });
}

/** A new PGlite database with pgvector loaded (not yet created in it; the store does that). */
export async function createPglite(dataDir = 'memory://'): Promise<PgliteLike> {
  const [{ PGlite }, { vector }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-pgvector')]);
  return (await PGlite.create(dataDir, { extensions: { vector } })) as unknown as PgliteLike;
}

/**
 * The embedder name recorded in the schema the URL names, or `null` when it does not exist yet.
 *
 * @example
 * ```ts
 * import { readPostgresEmbedder } from 'engram/postgres';
 * const name = await readPostgresEmbedder('postgres://localhost/engram'); // e.g. 'use-lite:512'
 * ```
 */
export async function readPostgresEmbedder(url: string): Promise<string | null> {
  const { connectionString, schema } = parsePostgresUrl(url);
  const driver = await createPoolDriver({ connectionString, max: 1 });
  try {
    return await readEmbeddingName(driver, tablesOf(schema ?? 'engram'));
  } catch (error) {
    throw toEngramError(error, 'read the recorded embedder');
  } finally {
    await driver.close().catch(() => undefined);
  }
}
