/**
 * `engram migrate`: copies a SQLite database into a PostgreSQL schema through the stores' own paths —
 * a lossless dump of every scope (records of every status with their vectors and belief intervals, edges, concept refs,
 * relation types, state documents, audit entries) read from the source store and restored into the
 * target store, exactly as `engram export jsonl | engram import jsonl` — plus what a dump leaves out
 * (API keys through the key port; the job queue and metadata row by row). Then it verifies each table
 * by a content hash computed the same way from both sides: the same logical columns, in the same
 * order, canonicalised in JS (JSON columns with their keys sorted).
 */
import { createHash } from 'node:crypto';
import { EngramError, messages } from '../../core/errors.js';
import { upgradeSourceKey } from '../../core/write/new-record.js';
import { canonicalJson, exportDump, importDump } from '../../core/dump/index.js';
import type { Embedder } from '../../core/ports/embedder.js';
import { openPostgresStore, PostgresStore } from '../postgres/index.js';
import { openSqliteStore } from '../sqlite/index.js';
import { createNestedDriver, type PgDriver, type PgQueryable } from '../postgres/pg-driver.js';
import { LOCK_WRITE } from '../postgres/pg-migrations.js';
import { MEMORY_FIELDS, parseVectorText, type Tables } from '../postgres/pg-rows.js';
import { openConnection, openWriterUnlessFolderReadOnly, type SqliteConnection } from '../sqlite/sqlite-connection.js';
import {
  assertSchemaCurrent,
  LATEST_VERSION,
  migrate,
  olderSchema,
  readEmbeddingIdentity,
  schemaState,
} from '../sqlite/sqlite-migrations.js';
import { databaseWritable } from '../sqlite/read-only-folder.js';

/** Tables compared, in copy order. */
export const MIGRATED_TABLES = [
  'memories',
  'memory_beliefs',
  'edges',
  'relation_types',
  'concept_refs',
  'state',
  'jobs',
  'meta',
  'api_keys',
] as const;
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
/** A JSON column with its keys sorted (the two sides may write the same value with another key order). */
const canon = (v: unknown): unknown => {
  if (typeof v !== 'string') return v ?? null;
  try {
    return canonicalJson(JSON.parse(v));
  } catch {
    return v;
  }
};
const bool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't';

/** The canonical form of a memory row (either side) with its embedding. */
function memoryRow(r: Record<string, unknown>, embedding: Float32Array): Row {
  return [
    r.id,
    r.scope,
    r.layer,
    r.content,
    r.summary ?? null,
    canon(r.tags),
    canon(r.entities),
    r.importance ?? null,
    r.salience,
    r.surprise,
    canon(r.emotion),
    bool(r.pinned),
    int(r.mention_count),
    int(r.access_count),
    int(r.last_accessed_at),
    r.confidence,
    r.status,
    canon(r.provenance),
    int(r.valid_from),
    int(r.valid_to),
    int(r.occurred_at),
    int(r.recorded_at),
    int(r.invalidated_at),
    r.source_key ?? null,
    int(r.updated_at),
    canon(r.data),
    Array.from(embedding),
  ];
}

const EDGE_SQL_COLUMNS = 'id, scope, from_id, type, to_id, weight, valid_from, valid_to, recorded_at, invalidated_at, metadata';
const edgeRow = (r: Record<string, unknown>): Row => [
  r.id,
  r.scope,
  r.from_id,
  r.type,
  r.to_id,
  r.weight,
  int(r.valid_from),
  int(r.valid_to),
  int(r.recorded_at),
  int(r.invalidated_at),
  canon(r.metadata),
];
const relationRow = (r: Record<string, unknown>): Row => [
  r.tenant,
  r.name,
  bool(r.symmetric),
  bool(r.built_in),
  r.proposed_by ?? null,
  r.description ?? null,
  int(r.registered_at),
];
const refRow = (r: Record<string, unknown>): Row => [r.scope, r.concept_id, r.layer, r.ref_id];
const BELIEF_SQL_COLUMNS = 'memory_id, scope, valid_from, valid_to, known_from, known_to';
const beliefRow = (r: Record<string, unknown>): Row => [
  r.memory_id,
  r.scope,
  int(r.valid_from),
  int(r.valid_to),
  int(r.known_from),
  int(r.known_to),
];
const stateRow = (r: Record<string, unknown>): Row => [r.scope, r.key, canon(r.value), int(r.updated_at)];
const JOB_COLUMNS = 'seq, scope, kind, payload, dedupe_key, status, attempts, owner, lease_until, run_after, last_error, enqueued_at';
const jobRow = (r: Record<string, unknown>): Row => [
  int(r.seq),
  r.scope,
  r.kind,
  r.payload,
  r.dedupe_key ?? null,
  r.status,
  int(r.attempts),
  r.owner ?? null,
  int(r.lease_until),
  int(r.run_after),
  r.last_error ?? null,
  int(r.enqueued_at),
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
          .all<{ rowid: number; embedding: Buffer }>(
            'SELECT rowid, embedding FROM memory_vectors WHERE rowid IN (SELECT value FROM json_each(?))',
            JSON.stringify(rows.map((r) => r._rowid)),
          )
          .map((v) => [Number(v.rowid), blobVector(v.embedding)]),
      );
      yield rows.map((raw) => {
        const embedding = vectors.get(Number(raw._rowid));
        if (embedding === undefined) {
          throw new EngramError(
            'STORAGE_CORRUPT',
            messages.storageUnavailable(`memory ${String(raw.id)} has no embedding in the source database`),
          );
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
      case 'memory_beliefs':
        return this.connection.all(`SELECT ${BELIEF_SQL_COLUMNS} FROM memory_beliefs ORDER BY memory_id, known_to`);
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
        return this.connection
          .all<{ key: string; value: string }>('SELECT key, value FROM meta ORDER BY key')
          .filter((r) => !BACKEND_META.has(r.key));
      case 'api_keys':
        return this.connection.all(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id`);
    }
  }
}

/** Reads the PostgreSQL side in the same order (binary collation, like SQLite). */
class PostgresSide {
  constructor(
    readonly db: PgQueryable,
    readonly t: Tables,
  ) {}

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
      case 'memory_beliefs':
        return all(`SELECT ${BELIEF_SQL_COLUMNS} FROM ${t.beliefs} ORDER BY memory_id COLLATE "C", known_to`);
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
  memory_beliefs: beliefRow,
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
async function insertRows(
  db: PgQueryable,
  prefix: string,
  rows: readonly (readonly unknown[])[],
  suffix = '',
  casts: readonly string[] = [],
): Promise<void> {
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
  /** The SQLite file to read (only written to migrate its schema when an earlier Engram wrote it). */
  from: string;
  /** `postgres://…[?schema=name]`; the schema must hold no Engram data yet. */
  to: string;
  /** Called with progress lines (copied counts). */
  onProgress?: (message: string) => void;
}

/**
 * Copies everything from the SQLite file `from` into the PostgreSQL schema `to` in one transaction
 * (all of it or nothing), then compares a content hash per table. Throws `CONFLICT` when the target already holds data; resolves with the
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
    const [schema, identity] = source.snapshot(() => [schemaState(source), readEmbeddingIdentity(source)] as const);
    if (identity.name === undefined || identity.dimension === undefined) {
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(`${options.from} records no embedding model; is it an Engram database?`),
      );
    }
    const embedding = { name: identity.name, dimension: Number(identity.dimension) };
    if (schema.pending) await migrateSourceSchema(options, schema.version, embedding.dimension);
    source.snapshot(() => assertSchemaCurrent(source));
    target = await openPostgresStore({ url: options.to, embedding, poolSize: 2 });
    await target.withDriver((driver, tables) => copyInOneTransaction({ ...options, source, driver, tables, embedding }));
    const sourceHashes = hashSqlite(source);
    const targetHashes = await target.withDriver((driver, tables) => hashPostgres(driver, tables));
    const checks: TableCheck[] = MIGRATED_TABLES.map((table) => {
      const s = sourceHashes.get(table)!;
      const t = targetHashes.get(table)!;
      return {
        table,
        sourceRows: s.rows,
        targetRows: t.rows,
        sourceHash: s.hash,
        targetHash: t.hash,
        match: s.rows === t.rows && s.hash === t.hash,
      };
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

/**
 * Brings the schema of a source file an earlier Engram wrote current first, as every read-write open of
 * it does (the copy reads the current tables); says so on `onProgress`. A file this process cannot
 * write is refused with what to do.
 */
async function migrateSourceSchema(options: MigrateOptions, version: number, dimension: number): Promise<void> {
  const writer = databaseWritable(options.from) ? await openWriterUnlessFolderReadOnly(options.from, 10_000) : undefined;
  if (writer === undefined) {
    throw olderSchema(
      version,
      `engram migrate migrates it first, as any command that opens it does, but this process cannot write "${options.from}" or its folder; make both writable (or copy the file into a folder that can be written and migrate from the copy), then run it again`,
    );
  }
  try {
    await migrate(writer, { dimension });
  } finally {
    writer.close();
  }
  options.onProgress?.(
    `${options.from}: schema migrated from version ${version} to ${LATEST_VERSION} first, as opening it read-write does`,
  );
}

/**
 * The copy as one transaction of the target: a copy that fails or is killed leaves the schema as it
 * was (empty), so the same command can simply run again. The schema's writer lock is held until the
 * commit: a second migrate into the same schema waits, then finds it full.
 */
async function copyInOneTransaction(parts: {
  from: string;
  source: SqliteConnection;
  driver: PgDriver;
  tables: Tables;
  embedding: { name: string; dimension: number };
  onProgress?: (message: string) => void;
}): Promise<void> {
  const { driver, tables, embedding } = parts;
  await driver.transaction(async (session) => {
    await session.query(`SELECT ${LOCK_WRITE}`, [tables.schema]);
    await assertEmpty(session, tables);
    const target = await PostgresStore.open({ driver: createNestedDriver(session, driver.kind), embedding, schema: tables.schema });
    try {
      await copyAll(parts.from, parts.source, target, embedding, parts.onProgress);
    } finally {
      await target.close();
    }
  });
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

/**
 * The copy: the dump of every scope, read from the source store and restored into the target store
 * (as `engram export jsonl --all-scopes --embeddings | engram import jsonl`), then the API keys, the job
 * queue and the metadata, which a dump leaves out.
 */
async function copyAll(
  path: string,
  source: SqliteConnection,
  target: PostgresStore,
  embedding: { name: string; dimension: number },
  progress?: (message: string) => void,
): Promise<void> {
  const store = await openSqliteStore({ path, embedding, readonly: true, busyTimeoutMs: 10_000 });
  try {
    const lines = exportDump({ store, embedder: embedding }, { scopes: 'all', embeddings: true });
    const report = await importDump({ store: target, embedder: storedVectorsOnly(embedding) }, lines, {
      onProgress: (r) =>
        progress?.(
          `memories: ${r.counts.record.created}, edges: ${r.counts.edge.created}, concept refs: ${r.counts.conceptRef.created}, state: ${r.counts.state.created}`,
        ),
    });
    progress?.(
      `memories ${report.counts.record.created}, edges ${report.counts.edge.created}, relation types ${report.counts.relationType.created}: copied`,
    );
    for (const key of await store.listApiKeys()) await target.insertApiKey(key);
  } finally {
    await store.close();
  }
  await target.withDriver((driver, t) => driver.transaction((session) => copyQueueAndMeta(source, session, t)));
}

/** An embedder that is never asked: every record of a migration comes with its stored vector. */
function storedVectorsOnly(embedding: { name: string; dimension: number }): Embedder {
  return {
    ...embedding,
    embed: () =>
      Promise.reject(new EngramError('INTERNAL', 'A migration copies stored vectors and never embeds: the source dump lacks a vector.')),
  };
}

/** The job queue (ids are sequence numbers, kept) and the metadata, row by row. */
async function copyQueueAndMeta(source: SqliteConnection, db: PgQueryable, t: Tables): Promise<void> {
  const side = new SqliteSide(source);
  const read = <T extends Exclude<MigratedTable, 'memories'>>(table: T) => source.snapshot(() => side.rows(table));
  const jobs = read('jobs').map(jobRow);
  await insertRows(db, `INSERT INTO ${t.q('jobs')} (${JOB_COLUMNS}) OVERRIDING SYSTEM VALUE`, jobs);
  await db.query(`SELECT setval(pg_get_serial_sequence($1, 'seq'), greatest((SELECT max(seq) FROM ${t.q('jobs')}), 1))`, [t.q('jobs')]);
  await insertRows(
    db,
    `INSERT INTO ${t.meta} (key, value)`,
    read('meta').map(metaRow),
    ' ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
  );
}

/** The URL with any password replaced by `***`. */
export function maskUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1***@');
}

export type { PgDriver };
