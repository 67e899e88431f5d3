/**
 * `engram migrate`: copies a SQLite database into a PostgreSQL schema, table by table (memories with
 * their embeddings, edges, relation types, concept refs, state documents and reports, the job queue,
 * metadata), in one PostgreSQL transaction, then verifies each table by a content hash computed the
 * same way from both sides: the same logical columns, in the same order, canonicalised in JS.
 */
import { createHash } from 'node:crypto';
import { EngramError, messages } from '../../core/errors.js';
import { upgradeSourceKey } from '../../core/write/new-record.js';
import { openPostgresStore, type PostgresStore } from '../postgres/index.js';
import type { PgDriver, PgQueryable } from '../postgres/pg-driver.js';
import { lexemesOf, MEMORY_FIELDS, parseVectorText, termLength, vectorLiteral, type Tables } from '../postgres/pg-rows.js';
import { openConnection, type SqliteConnection } from '../sqlite/sqlite-connection.js';
import { assertSchemaCurrent, readEmbeddingIdentity } from '../sqlite/sqlite-migrations.js';

/** Tables compared, in copy order. */
export const MIGRATED_TABLES = ['memories', 'edges', 'relation_types', 'concept_refs', 'state', 'jobs', 'meta', 'api_keys'] as const;
export type MigratedTable = (typeof MIGRATED_TABLES)[number];

export interface TableCheck {
  table: MigratedTable;
  sourceRows: number;
  targetRows: number;
  sourceHash: string;
  targetHash: string;
  match: boolean;
}

export interface MigrationReport {
  from: string;
  /** The target URL with its password masked. */
  to: string;
  schema: string;
  embedder: { name: string; dimension: number };
  tables: TableCheck[];
  ok: boolean;
  durationMs: number;
}

/** Metadata the backends keep for themselves; not copied, not compared. */
const BACKEND_META = new Set(['vector.storage']);
const PAGE = 500;

type Row = readonly unknown[];

/** Streams canonical rows into a hash and counts them. */
class TableHash {
  readonly #hash = createHash('sha256');
  rows = 0;
  add(row: Row): void {
    this.#hash.update(JSON.stringify(row));
    this.#hash.update('\n');
    this.rows++;
  }
  digest(): string {
    return this.#hash.digest('hex');
  }
}

const int = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const bool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't';

/** The canonical form of a memory row (either side) with its embedding. */
function memoryRow(r: Record<string, unknown>, embedding: Float32Array): Row {
  return [
    r.id, r.scope, r.layer, r.content, r.summary ?? null, r.tags, r.entities, r.importance ?? null, r.salience, r.surprise, r.emotion ?? null,
    bool(r.pinned), int(r.mention_count), int(r.access_count), int(r.last_accessed_at), r.confidence, r.status, r.provenance,
    int(r.valid_from), int(r.valid_to), int(r.occurred_at), int(r.recorded_at), int(r.invalidated_at), r.source_key ?? null, int(r.updated_at), r.data,
    Array.from(embedding),
  ];
}

const EDGE_SQL_COLUMNS = 'id, scope, from_id, type, to_id, weight, valid_from, valid_to, recorded_at, invalidated_at, metadata';
const edgeRow = (r: Record<string, unknown>): Row => [
  r.id, r.scope, r.from_id, r.type, r.to_id, r.weight, int(r.valid_from), int(r.valid_to), int(r.recorded_at), int(r.invalidated_at), r.metadata,
];
const relationRow = (r: Record<string, unknown>): Row => [r.tenant, r.name, bool(r.symmetric), bool(r.built_in), r.proposed_by ?? null, r.description ?? null, int(r.registered_at)];
const refRow = (r: Record<string, unknown>): Row => [r.scope, r.concept_id, r.layer, r.ref_id];
const stateRow = (r: Record<string, unknown>): Row => [r.scope, r.key, r.value, int(r.updated_at)];
const JOB_COLUMNS = 'seq, scope, kind, payload, dedupe_key, status, attempts, owner, lease_until, run_after, last_error, enqueued_at';
const jobRow = (r: Record<string, unknown>): Row => [
  int(r.seq), r.scope, r.kind, r.payload, r.dedupe_key ?? null, r.status, int(r.attempts), r.owner ?? null, int(r.lease_until), int(r.run_after), r.last_error ?? null, int(r.enqueued_at),
];
const metaRow = (r: Record<string, unknown>): Row => [r.key, r.value];
const KEY_COLUMNS = 'id, hash, tenant, label, created_at, revoked_at';
const keyRow = (r: Record<string, unknown>): Row => [r.id, r.hash, r.tenant, r.label ?? null, int(r.created_at), int(r.revoked_at)];

function blobVector(blob: Buffer): Float32Array {
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

const MEMORY_SELECT = MEMORY_FIELDS.join(', ');

/** Reads the SQLite side: each table in the canonical order, page by page where it may be large. */
class SqliteSide {
  constructor(readonly connection: SqliteConnection) {}

  /** Memories in id order (binary), each with its embedding. */
  *memories(): Generator<{ raw: Record<string, unknown>; embedding: Float32Array }[]> {
    let after = '';
    for (;;) {
      const rows = this.connection.all<Record<string, unknown>>(
        `SELECT rowid AS _rowid, ${MEMORY_SELECT}, term_count FROM memories WHERE id > ? ORDER BY id LIMIT ?`,
        after,
        PAGE,
      );
      if (rows.length === 0) return;
      const vectors = new Map(
        this.connection
          .all<{ rowid: number; embedding: Buffer }>('SELECT rowid, embedding FROM memory_vectors WHERE rowid IN (SELECT value FROM json_each(?))', JSON.stringify(rows.map((r) => r._rowid)))
          .map((v) => [Number(v.rowid), blobVector(v.embedding)]),
      );
      yield rows.map((raw) => {
        const embedding = vectors.get(Number(raw._rowid));
        if (embedding === undefined) {
          throw new EngramError('STORAGE_CORRUPT', messages.storageUnavailable(`memory ${String(raw.id)} has no embedding in the source database`));
        }
        // PostgreSQL text cannot hold a NUL-joined key, which an already running older process may still write
        if (typeof raw.source_key === 'string') raw.source_key = upgradeSourceKey(raw.source_key);
        return { raw, embedding };
      });
      after = String(rows[rows.length - 1]!.id);
    }
  }

  rows(table: Exclude<MigratedTable, 'memories'>): Record<string, unknown>[] {
    switch (table) {
      case 'edges':
        return this.connection.all(`SELECT ${EDGE_SQL_COLUMNS} FROM edges ORDER BY id`);
      case 'relation_types':
        return this.connection.all('SELECT * FROM relation_types ORDER BY tenant, name');
      case 'concept_refs':
        return this.connection.all('SELECT scope, concept_id, layer, ref_id FROM concept_refs ORDER BY seq');
      case 'state':
        return this.connection.all('SELECT scope, key, value, updated_at FROM state ORDER BY scope, key');
      case 'jobs':
        return this.connection.all(`SELECT ${JOB_COLUMNS} FROM jobs ORDER BY seq`);
      case 'meta':
        return this.connection.all<{ key: string; value: string }>('SELECT key, value FROM meta ORDER BY key').filter((r) => !BACKEND_META.has(r.key));
      case 'api_keys':
        return this.connection.all(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id`);
    }
  }
}

/** Reads the PostgreSQL side in the same order (binary collation, like SQLite). */
class PostgresSide {
  constructor(readonly db: PgQueryable, readonly t: Tables) {}

  async *memories(): AsyncGenerator<{ raw: Record<string, unknown>; embedding: Float32Array }[]> {
    let after = '';
    for (;;) {
      const rows = (
        await this.db.query<Record<string, unknown>>(
          `SELECT ${MEMORY_SELECT}, embedding::text AS _embedding FROM ${this.t.memories} WHERE id > $1 ORDER BY id LIMIT $2`,
          [after, PAGE],
        )
      ).rows;
      if (rows.length === 0) return;
      yield rows.map((raw) => ({ raw, embedding: parseVectorText(String(raw._embedding)) }));
      after = String(rows[rows.length - 1]!.id);
    }
  }

  async rows(table: Exclude<MigratedTable, 'memories'>): Promise<Record<string, unknown>[]> {
    const t = this.t;
    const all = async (sql: string) => (await this.db.query<Record<string, unknown>>(sql)).rows;
    switch (table) {
      case 'edges':
        return all(`SELECT ${EDGE_SQL_COLUMNS} FROM ${t.edges} ORDER BY id COLLATE "C"`);
      case 'relation_types':
        return all(`SELECT * FROM ${t.q('relation_types')} ORDER BY tenant COLLATE "C", name COLLATE "C"`);
      case 'concept_refs':
        return all(`SELECT scope, concept_id, layer, ref_id FROM ${t.q('concept_refs')} ORDER BY seq`);
      case 'state':
        return all(`SELECT scope, key, value, updated_at FROM ${t.q('state')} ORDER BY scope COLLATE "C", key COLLATE "C"`);
      case 'jobs':
        return all(`SELECT ${JOB_COLUMNS} FROM ${t.q('jobs')} ORDER BY seq`);
      case 'meta':
        return (await all(`SELECT key, value FROM ${t.meta} ORDER BY key COLLATE "C"`)).filter((r) => !BACKEND_META.has(String(r.key)));
      case 'api_keys':
        return all(`SELECT ${KEY_COLUMNS} FROM ${t.q('api_keys')} ORDER BY id COLLATE "C"`);
    }
  }
}

const CANONICAL: Record<Exclude<MigratedTable, 'memories'>, (r: Record<string, unknown>) => Row> = {
  edges: edgeRow,
  relation_types: relationRow,
  concept_refs: refRow,
  state: stateRow,
  jobs: jobRow,
  meta: metaRow,
  api_keys: keyRow,
};

/** Content hashes and row counts of every table of a SQLite database. */
export function hashSqlite(connection: SqliteConnection): Map<MigratedTable, { rows: number; hash: string }> {
  return connection.snapshot(() => {
    const side = new SqliteSide(connection);
    const result = new Map<MigratedTable, { rows: number; hash: string }>();
    const memories = new TableHash();
    for (const page of side.memories()) for (const { raw, embedding } of page) memories.add(memoryRow(raw, embedding));
    result.set('memories', { rows: memories.rows, hash: memories.digest() });
    for (const table of MIGRATED_TABLES) {
      if (table === 'memories') continue;
      const hash = new TableHash();
      for (const row of side.rows(table)) hash.add(CANONICAL[table](row));
      result.set(table, { rows: hash.rows, hash: hash.digest() });
    }
    return result;
  });
}

/** Content hashes and row counts of every table of a PostgreSQL schema. */
export async function hashPostgres(db: PgQueryable, tables: Tables): Promise<Map<MigratedTable, { rows: number; hash: string }>> {
  const side = new PostgresSide(db, tables);
  const result = new Map<MigratedTable, { rows: number; hash: string }>();
  const memories = new TableHash();
  for await (const page of side.memories()) for (const { raw, embedding } of page) memories.add(memoryRow(raw, embedding));
  result.set('memories', { rows: memories.rows, hash: memories.digest() });
  for (const table of MIGRATED_TABLES) {
    if (table === 'memories') continue;
    const hash = new TableHash();
    for (const row of await side.rows(table)) hash.add(CANONICAL[table](row));
    result.set(table, { rows: hash.rows, hash: hash.digest() });
  }
  return result;
}

/** Inserts `rows` (arrays of values) in multi-row statements. */
async function insertRows(db: PgQueryable, prefix: string, rows: readonly (readonly unknown[])[], suffix = '', casts: readonly string[] = []): Promise<void> {
  const width = rows[0]?.length ?? 0;
  const perStatement = Math.max(1, Math.floor(30_000 / Math.max(1, width)));
  for (let start = 0; start < rows.length; start += perStatement) {
    const batch = rows.slice(start, start + perStatement);
    const params: unknown[] = [];
    const tuples = batch.map((row) => `(${row.map((value, i) => `$${params.push(value)}${casts[i] ?? ''}`).join(', ')})`);
    await db.query(`${prefix} VALUES ${tuples.join(', ')}${suffix}`, params);
  }
}

export interface MigrateOptions {
  /** The SQLite file to read (never written). */
  from: string;
  /** `postgres://…[?schema=name]`; the schema must hold no Engram data yet. */
  to: string;
  /** Called with progress lines (copied counts). */
  onProgress?: (message: string) => void;
}

/**
 * Copies everything from the SQLite file `from` into the PostgreSQL schema `to`, then compares a
 * content hash per table. Throws `CONFLICT` when the target already holds data; resolves with the
 * per-table report (`ok` false when any table differs).
 *
 * @example
 * ```ts
 * const report = await migrateSqliteToPostgres({ from: 'engram.db', to: 'postgres://engram@localhost/engram' });
 * ```
 */
export async function migrateSqliteToPostgres(options: MigrateOptions): Promise<MigrationReport> {
  const started = Date.now();
  const source = await openConnection({ path: options.from, readonly: true, busyTimeoutMs: 10_000 });
  let target: PostgresStore | undefined;
  try {
    const identity = source.snapshot(() => {
      assertSchemaCurrent(source);
      return readEmbeddingIdentity(source);
    });
    if (identity.name === undefined || identity.dimension === undefined) {
      throw new EngramError('INVALID_INPUT', messages.invalidInput(`${options.from} records no embedding model; is it an Engram database?`));
    }
    const embedding = { name: identity.name, dimension: Number(identity.dimension) };
    target = await openPostgresStore({ url: options.to, embedding, poolSize: 2 });
    await target.withDriver(async (driver, tables) => {
      await assertEmpty(driver, tables);
      await driver.transaction((session) => copyAll(source, session, tables, target!.vectorStorage, options.onProgress));
    });
    const sourceHashes = hashSqlite(source);
    const targetHashes = await target.withDriver((driver, tables) => hashPostgres(driver, tables));
    const checks: TableCheck[] = MIGRATED_TABLES.map((table) => {
      const s = sourceHashes.get(table)!;
      const t = targetHashes.get(table)!;
      return { table, sourceRows: s.rows, targetRows: t.rows, sourceHash: s.hash, targetHash: t.hash, match: s.rows === t.rows && s.hash === t.hash };
    });
    return {
      from: options.from,
      to: maskUrl(options.to),
      schema: target.schema,
      embedder: embedding,
      tables: checks,
      ok: checks.every((c) => c.match),
      durationMs: Date.now() - started,
    };
  } finally {
    source.close();
    await target?.close();
  }
}

async function assertEmpty(db: PgQueryable, t: Tables): Promise<void> {
  const counts = (
    await db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM ${t.memories}) + (SELECT count(*) FROM ${t.edges}) + (SELECT count(*) FROM ${t.q('state')})
            + (SELECT count(*) FROM ${t.q('jobs')}) + (SELECT count(*) FROM ${t.q('concept_refs')}) AS n`,
    )
  ).rows[0];
  const n = Number(counts?.n ?? 0);
  if (n > 0) {
    throw new EngramError(
      'CONFLICT',
      `The target schema "${t.schema}" already holds ${n} Engram rows; migrate into an empty schema (add ?schema=<new_name> to the URL) so nothing is merged by accident.`,
      { details: { schema: t.schema, rows: n } },
    );
  }
}

async function copyAll(source: SqliteConnection, db: PgQueryable, t: Tables, vectors: 'pgvector' | 'array', progress?: (message: string) => void): Promise<void> {
  const side = new SqliteSide(source);
  const cast = vectors === 'pgvector' ? '::vector' : '::real[]';
  let copied = 0;
  // bulk load first, index after: building GIN and HNSW once is far cheaper than row by row
  await db.query(`DROP INDEX IF EXISTS ${t.q('memories_lexemes')}`);
  if (vectors === 'pgvector') await db.query(`DROP INDEX IF EXISTS ${t.q('memories_embedding_hnsw')}`);
  // page by page (a source written meanwhile shows up as a hash mismatch, never as silent loss)
  for (const page of side.memories()) {
    const rows = page.map(({ raw, embedding }) => {
      const values = MEMORY_FIELDS.map((f) => (f === 'pinned' ? bool(raw.pinned) : raw[f]));
      const tags = JSON.parse(String(raw.tags)) as string[];
      const entities = JSON.parse(String(raw.entities)) as string[];
      const termCount = raw.term_count ?? termLength(String(raw.content));
      return [...values, termCount, lexemesOf(String(raw.content), tags, entities), vectorLiteral(embedding, vectors)];
    });
    const casts = [...MEMORY_FIELDS.map(() => ''), '', '::text[]', cast];
    await insertRowsWith(db, `INSERT INTO ${t.memories} (${MEMORY_FIELDS.join(', ')}, term_count, lexemes, embedding)`, rows, casts, MEMORY_FIELDS.length + 1);
    copied += page.length;
    progress?.(`memories: ${copied}`);
  }
  progress?.('memories: building indexes');
  await db.query(`CREATE INDEX memories_lexemes ON ${t.memories} USING gin (lexemes)`);
  if (vectors === 'pgvector') await db.query(`CREATE INDEX memories_embedding_hnsw ON ${t.memories} USING hnsw (embedding vector_cosine_ops)`);
  // every embedding write is logged (the exact-search caches of running servers catch up from it)
  await db.query(`INSERT INTO ${t.q('vector_log')} (scope, memory_id) SELECT scope, id FROM ${t.memories} ORDER BY seq`);
  const read = <T extends Exclude<MigratedTable, 'memories'>>(table: T) => source.snapshot(() => side.rows(table));
  const edges = read('edges').map(edgeRow);
  await insertRows(db, `INSERT INTO ${t.edges} (${EDGE_SQL_COLUMNS})`, edges);
  progress?.(`edges: ${edges.length}`);
  await insertRows(
    db,
    `INSERT INTO ${t.q('relation_types')} (tenant, name, "symmetric", built_in, proposed_by, description, registered_at)`,
    read('relation_types').map(relationRow),
    ` ON CONFLICT (tenant, name) DO UPDATE SET "symmetric" = EXCLUDED."symmetric", built_in = EXCLUDED.built_in, proposed_by = EXCLUDED.proposed_by,
        description = EXCLUDED.description, registered_at = EXCLUDED.registered_at`,
  );
  await insertRows(db, `INSERT INTO ${t.q('concept_refs')} (scope, concept_id, layer, ref_id)`, read('concept_refs').map(refRow));
  await insertRows(db, `INSERT INTO ${t.q('state')} (scope, key, value, updated_at)`, read('state').map(stateRow));
  const jobs = read('jobs').map(jobRow);
  // job ids are their sequence numbers: keep them, then move the sequence past them
  await insertRows(db, `INSERT INTO ${t.q('jobs')} (${JOB_COLUMNS}) OVERRIDING SYSTEM VALUE`, jobs);
  await db.query(`SELECT setval(pg_get_serial_sequence($1, 'seq'), greatest((SELECT max(seq) FROM ${t.q('jobs')}), 1))`, [t.q('jobs')]);
  await insertRows(db, `INSERT INTO ${t.meta} (key, value)`, read('meta').map(metaRow), ' ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value');
  await insertRows(db, `INSERT INTO ${t.q('api_keys')} (${KEY_COLUMNS})`, read('api_keys').map(keyRow));
  progress?.(`edges ${edges.length}, jobs ${jobs.length}: copied`);
}

/** Like `insertRows`, with a parameter cast per column (`lexemes` become a tsvector via array_to_tsvector). */
async function insertRowsWith(db: PgQueryable, prefix: string, rows: readonly (readonly unknown[])[], casts: readonly string[], lexemeColumn: number): Promise<void> {
  const width = rows[0]?.length ?? 0;
  const perStatement = Math.max(1, Math.floor(30_000 / Math.max(1, width)));
  for (let start = 0; start < rows.length; start += perStatement) {
    const batch = rows.slice(start, start + perStatement);
    const params: unknown[] = [];
    const tuples = batch.map(
      (row) =>
        `(${row
          .map((value, i) => {
            const placeholder = `$${params.push(value)}${casts[i] ?? ''}`;
            return i === lexemeColumn ? `array_to_tsvector(${placeholder})` : placeholder;
          })
          .join(', ')})`,
    );
    await db.query(`${prefix} VALUES ${tuples.join(', ')}`, params);
  }
}

/** The URL with any password replaced by `***`. */
export function maskUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1***@');
}

export type { PgDriver };
