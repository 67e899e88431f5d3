/**
 * The small driver surface the PostgreSQL store needs, with two implementations: `pg.Pool` for a real
 * server (many sessions, pooled) and PGlite (PostgreSQL compiled to WASM, one in-process session). The
 * store's SQL is the same for both; only how a query and a transaction are issued differs.
 */
import { createHash } from 'node:crypto';

export interface PgResult<R> {
  rows: R[];
  rowCount: number;
}

/** Something that runs one parameterised statement (`$1`, `$2`, …). */
export interface PgQueryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<PgResult<R>>;
  /** Runs several statements without parameters (schema changes). */
  exec(sql: string): Promise<void>;
}

export interface PgDriver extends PgQueryable {
  /** `pg` (a server over the network) or `pglite` (in-process). */
  readonly kind: 'pg' | 'pglite';
  /** Several sessions at once: reads outside a transaction then never wait for it. */
  readonly concurrentSessions: boolean;
  /** Runs `fn` on one session between BEGIN and COMMIT (ROLLBACK when it rejects). */
  transaction<T>(fn: (session: PgQueryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Options for a pooled connection to a PostgreSQL server. */
export interface PgPoolOptions {
  /** `postgres://user:password@host:port/database` (any libpq URL `pg` accepts). */
  connectionString: string;
  /** Pool size (default 10). */
  max?: number;
  /**
   * How many distinct parameterised statements run outside transactions are prepared once per pooled
   * session and reused (default {@link PREPARED_STATEMENTS}; `0`: none, for a pooler that cannot keep
   * them, e.g. PgBouncer in transaction mode before 1.21). A statement past the limit runs unnamed.
   */
  preparedStatements?: number;
}

/**
 * Distinct statements a pool driver prepares (the store's reads are a few dozen texts; the limit bounds
 * what each session keeps if some text varied without end). A recall's neighbour read spent 2.1 ms of
 * its ~7 ms planning an unprepared statement (`docs/performance.md`).
 */
export const PREPARED_STATEMENTS = 256;

/** SQLSTATEs after which a named statement is retried unnamed: its cached plan's result type changed (a migration by another process), or the session lost or already holds it (a pooler between). */
const RETRY_UNNAMED = new Set(['0A000', '26000', '42P05']);

/** A `pg.Pool` driver; int8 values come back as numbers (epoch ms fit in 2^53). */
export async function createPoolDriver(options: PgPoolOptions): Promise<PgDriver> {
  const pg = (await import('pg')).default;
  const int8 = (value: string): number => Number(value);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: 15_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? int8 : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // an idle client that loses its server must not crash the process; the next query reports it
  pool.on('error', () => undefined);
  const named = statementNames(options.preparedStatements ?? PREPARED_STATEMENTS);
  const asResult = <R>(r: { rows: R[]; rowCount: number | null }): PgResult<R> => ({ rows: r.rows, rowCount: r.rowCount ?? 0 });
  // one statement, prepared under `name` when it has one
  const send = async <R>(config: { name?: string; text: string; values: unknown[] }): Promise<PgResult<R>> =>
    asResult<R>((await pool.query(config)) as unknown as { rows: R[]; rowCount: number | null });
  return {
    kind: 'pg',
    concurrentSessions: true,
    async query<R>(sql: string, params: readonly unknown[] = []) {
      const values = params as unknown[];
      const name = values.length > 0 ? named.nameOf(sql) : undefined;
      if (name === undefined) return send<R>({ text: sql, values });
      try {
        return await send<R>({ name, text: sql, values });
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (typeof code !== 'string' || !RETRY_UNNAMED.has(code)) throw error;
        // a pooler that swaps sessions under the pool cannot keep them: stop naming statements
        if (code !== '0A000') named.stop();
        return send<R>({ text: sql, values });
      }
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async transaction<T>(fn: (session: PgQueryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // callers may issue a transaction's reads in parallel; one pg client takes one query at a time
      const inTurn = oneAtATime();
      const run = (sql: string, params?: readonly unknown[]) =>
        inTurn(
          async () => (await client.query(sql, params as unknown[] | undefined)) as unknown as { rows: unknown[]; rowCount: number | null },
        );
      let broken = false;
      try {
        await run('BEGIN');
        const session: PgQueryable = {
          async query<R>(sql: string, params: readonly unknown[] = []) {
            return asResult<R>((await run(sql, params)) as { rows: R[]; rowCount: number | null });
          },
          async exec(sql: string) {
            await run(sql);
          },
        };
        const result = await fn(session);
        await run('COMMIT');
        return result;
      } catch (error) {
        try {
          await run('ROLLBACK');
        } catch {
          broken = true;
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * Runs `fn` in a savepoint of the transaction `db` is in: all of it or none of it, and the transaction
 * stays usable after a failure (if even the rollback fails, the transaction's COMMIT fails too).
 */
export async function inSavepoint<T>(db: PgQueryable, name: string, fn: () => Promise<T>): Promise<T> {
  await db.query(`SAVEPOINT ${name}`);
  try {
    const result = await fn();
    await db.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await db.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
    await db.query(`RELEASE SAVEPOINT ${name}`).catch(() => undefined);
    throw error;
  }
}

/**
 * A driver over `session`, a session inside a transaction its owner opened: every statement runs
 * there and each `transaction` is a savepoint (one at a time), so all of it commits or rolls back with
 * the owner's transaction. `close` leaves the session to its owner.
 *
 * @example
 * ```ts
 * await pool.transaction((session) => useStore(createNestedDriver(session, pool.kind)));
 * ```
 */
export function createNestedDriver(session: PgQueryable, kind: PgDriver['kind']): PgDriver {
  const inTurn = oneAtATime();
  return {
    kind,
    concurrentSessions: false,
    query<R>(sql: string, params?: readonly unknown[]) {
      return session.query<R>(sql, params);
    },
    exec: (sql: string) => session.exec(sql),
    transaction<T>(fn: (inner: PgQueryable) => Promise<T>): Promise<T> {
      return inTurn(() => inSavepoint(session, 'engram_nested', () => fn(session)));
    },
    async close() {},
  };
}

/**
 * Names for up to `limit` distinct statement texts (a hash of the text, so every session of the pool
 * prepares a text under the same name); `undefined` past the limit or once stopped.
 */
function statementNames(limit: number): { nameOf(sql: string): string | undefined; stop(): void } {
  const names = new Map<string, string>();
  let open = limit > 0;
  return {
    nameOf(sql) {
      if (!open) return undefined;
      let name = names.get(sql);
      if (name === undefined && names.size < limit) {
        name = `engram_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
        names.set(sql, name);
      }
      return name;
    },
    stop() {
      open = false;
    },
  };
}

/** A queue that starts each task when the previous one has settled, in call order. */
function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const next = tail.then(task);
    tail = next.catch(() => undefined);
    return next;
  };
}

/** The part of a PGlite instance the driver uses (so this module does not load PGlite). */
export interface PgliteLike {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
  transaction<T>(
    fn: (tx: {
      query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
      exec(sql: string): Promise<unknown>;
    }) => Promise<T>,
  ): Promise<T>;
  close(): Promise<void>;
  readonly closed?: boolean;
}

/**
 * A driver over a PGlite instance. `ownsDatabase`: close the instance with the store (else the
 * caller, who may share it between stores in different schemas, closes it).
 */
export function createPgliteDriver(db: PgliteLike, options: { ownsDatabase: boolean }): PgDriver {
  const asResult = <R>(r: { rows: R[]; affectedRows?: number }): PgResult<R> => ({
    rows: r.rows,
    rowCount: r.affectedRows ?? r.rows.length,
  });
  return {
    kind: 'pglite',
    concurrentSessions: false,
    async query<R>(sql: string, params: readonly unknown[] = []) {
      return asResult<R>(await db.query<R>(sql, params as unknown[]));
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    transaction<T>(fn: (session: PgQueryable) => Promise<T>): Promise<T> {
      return db.transaction((tx) =>
        fn({
          async query<R>(sql: string, params: readonly unknown[] = []) {
            return asResult<R>(await tx.query<R>(sql, params as unknown[]));
          },
          async exec(sql: string) {
            await tx.exec(sql);
          },
        }),
      );
    },
    async close() {
      if (options.ownsDatabase && db.closed !== true) await db.close();
    },
  };
}
