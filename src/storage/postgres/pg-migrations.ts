/**
 * Versioned schema migrations of the PostgreSQL store, recorded in `schema_migrations`. All run in one
 * transaction under an advisory lock on the schema, so concurrent first opens from several servers
 * apply each exactly once. Append-only: never edit a shipped migration, add the next version.
 */
import { partsGenerationSql, partsSchemaSql } from './pg-parts.js';
import { supersededGenerationSql } from './pg-superseded.js';
import { mentionsByScopeSql, mentionsPendingOnEditSql, mentionsResetSql, mentionsSchemaSql } from './pg-mentions.js';
import { beliefsOnDeleteSql } from './pg-beliefs.js';
import { EngramError, messages } from '../../core/errors.js';
import { LAYERS, STATUSES } from '../../core/memory.js';
import { BUILT_IN_RELATIONS } from '../../core/relations.js';
import { LEGACY_HASH_PREFIX, LEGACY_INDEX_KEY, legacyMetaKeys, legacyRelationTenants } from '../legacy-layout.js';
import { insertApiKey } from './pg-api-keys.js';
import type { PgDriver, PgQueryable } from './pg-driver.js';
import { toEngramError } from './pg-errors.js';
import { lexemesOf, termLength, type Tables } from './pg-rows.js';
import { hasCjk } from '../../core/text/index.js';
import { storedStringList } from '../../core/readable-records.js';

/** How vectors are stored: pgvector `vector(d)` with an HNSW index, or `real[]` searched exactly. */
export type VectorStorage = 'pgvector' | 'array';

export interface MigrationContext {
  readonly tables: Tables;
  readonly dimension: number;
  readonly vectors: VectorStorage;
}

export interface Migration {
  readonly version: number;
  readonly name: string;
  up(session: PgQueryable, context: MigrationContext): Promise<void>;
}

const list = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(', ');

/** Advisory-lock class for everything Engram locks per schema (the second key is hashtext(schema)). */
export const LOCK_CLASS = 0x454e47; // 'ENG'
export const LOCK_WRITE = `pg_advisory_xact_lock(${LOCK_CLASS}, hashtext($1))`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'memories (tsvector, vectors), edges, meta, job locks',
    async up(session, { tables: t, dimension, vectors }) {
      const embedding = vectors === 'pgvector' ? `vector(${dimension})` : 'real[]';
      await session.exec(`
        CREATE TABLE ${t.meta} (key text PRIMARY KEY, value text NOT NULL);
        CREATE TABLE ${t.memories} (
          seq bigint GENERATED ALWAYS AS IDENTITY,
          id text COLLATE "C" PRIMARY KEY,
          scope text NOT NULL,
          layer text NOT NULL CHECK (layer IN (${list(LAYERS)})),
          content text NOT NULL,
          summary text,
          tags text NOT NULL,
          entities text NOT NULL,
          importance double precision,
          salience double precision NOT NULL,
          surprise double precision NOT NULL,
          emotion text,
          pinned boolean NOT NULL,
          mention_count bigint NOT NULL,
          access_count bigint NOT NULL,
          last_accessed_at bigint,
          confidence double precision NOT NULL,
          status text NOT NULL CHECK (status IN (${list(STATUSES)})),
          provenance text NOT NULL,
          valid_from bigint NOT NULL,
          valid_to bigint,
          occurred_at bigint,
          recorded_at bigint NOT NULL,
          invalidated_at bigint,
          source_key text,
          updated_at bigint NOT NULL,
          data text NOT NULL,
          term_count integer NOT NULL,
          lexemes tsvector NOT NULL,
          embedding ${embedding} NOT NULL,
          claim_subject text GENERATED ALWAYS AS ((data::jsonb) #>> '{claim,subject}') STORED,
          claim_attribute text GENERATED ALWAYS AS ((data::jsonb) #>> '{claim,attribute}') STORED,
          -- the conversation thread; mirrors core's threadKeyOf
          thread text GENERATED ALWAYS AS (
            coalesce((data::jsonb) #>> '{context,sessionId}', (provenance::jsonb) #>> '{sources,0,conversationId}')
          ) STORED,
          UNIQUE (scope, id)
        );
        CREATE INDEX memories_scope_status_layer ON ${t.memories} (scope, status, layer);
        CREATE INDEX memories_scope_seq ON ${t.memories} (scope, seq);
        CREATE UNIQUE INDEX memories_scope_source_key ON ${t.memories} (scope, source_key) WHERE source_key IS NOT NULL;
        CREATE INDEX memories_scope_layer_claim ON ${t.memories} (scope, layer, claim_subject, claim_attribute) WHERE claim_subject IS NOT NULL;
        CREATE INDEX memories_thread ON ${t.memories} (scope, thread, occurred_at, id) WHERE thread IS NOT NULL;
        CREATE INDEX memories_scope_event_time ON ${t.memories} (scope, (coalesce(occurred_at, valid_from)));
        CREATE INDEX memories_lexemes ON ${t.memories} USING gin (lexemes);

        CREATE TABLE ${t.edges} (
          seq bigint GENERATED ALWAYS AS IDENTITY,
          id text COLLATE "C" PRIMARY KEY,
          scope text NOT NULL,
          from_id text COLLATE "C" NOT NULL,
          type text NOT NULL,
          to_id text COLLATE "C" NOT NULL,
          weight double precision NOT NULL,
          valid_from bigint NOT NULL,
          valid_to bigint,
          recorded_at bigint NOT NULL,
          invalidated_at bigint,
          metadata text NOT NULL,
          -- both ends in the edge's own scope
          FOREIGN KEY (scope, from_id) REFERENCES ${t.memories} (scope, id),
          FOREIGN KEY (scope, to_id) REFERENCES ${t.memories} (scope, id)
        );
        CREATE INDEX edges_scope_from ON ${t.edges} (scope, from_id);
        CREATE INDEX edges_scope_to ON ${t.edges} (scope, to_id);

        CREATE TABLE ${t.jobLocks} (
          name text PRIMARY KEY,
          owner text NOT NULL,
          acquired_at bigint NOT NULL,
          expires_at bigint NOT NULL
        );
      `);
      if (vectors === 'pgvector') {
        await session.query(`CREATE INDEX memories_embedding_hnsw ON ${t.memories} USING hnsw (embedding vector_cosine_ops)`);
      }
      await session.query(`INSERT INTO ${t.meta} (key, value) VALUES ('vector.storage', $1)`, [vectors]);
    },
  },
  {
    version: 2,
    name: 'layers: relation registry, concept refs, concept names, state documents, job queue',
    async up(session, { tables: t }) {
      await session.exec(`
        CREATE TABLE ${t.q('relation_types')} (
          name text COLLATE "C" PRIMARY KEY,
          "symmetric" boolean NOT NULL,
          built_in boolean NOT NULL,
          proposed_by text,
          description text,
          registered_at bigint NOT NULL
        );
        -- per (concept, layer) an insertion-ordered capped set; seq gives the FIFO order
        CREATE TABLE ${t.q('concept_refs')} (
          seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          scope text NOT NULL,
          concept_id text COLLATE "C" NOT NULL,
          layer text NOT NULL CHECK (layer IN (${list(LAYERS)})),
          ref_id text COLLATE "C" NOT NULL,
          FOREIGN KEY (scope, concept_id) REFERENCES ${t.memories} (scope, id),
          FOREIGN KEY (scope, ref_id) REFERENCES ${t.memories} (scope, id)
        );
        CREATE UNIQUE INDEX concept_refs_member ON ${t.q('concept_refs')} (scope, concept_id, layer, ref_id);
        CREATE INDEX concept_refs_order ON ${t.q('concept_refs')} (scope, concept_id, layer, seq);
        CREATE INDEX concept_refs_ref ON ${t.q('concept_refs')} (scope, ref_id);

        -- ASCII-only lower-casing and space trimming, exactly as the SQLite store's lower(trim(...))
        ALTER TABLE ${t.memories} ADD COLUMN concept_name text GENERATED ALWAYS AS (
          translate(btrim((data::jsonb) #>> '{name}', ' '), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
        ) STORED;
        CREATE INDEX memories_scope_concept_name ON ${t.memories} (scope, concept_name) WHERE concept_name IS NOT NULL;

        CREATE TABLE ${t.q('state')} (
          scope text NOT NULL,
          key text COLLATE "C" NOT NULL,
          value text NOT NULL,
          updated_at bigint NOT NULL,
          PRIMARY KEY (scope, key)
        );

        CREATE TABLE ${t.q('jobs')} (
          seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          scope text NOT NULL,
          kind text NOT NULL,
          payload text NOT NULL,
          dedupe_key text,
          status text NOT NULL CHECK (status IN ('pending', 'running', 'failed')),
          attempts integer NOT NULL DEFAULT 0,
          owner text,
          lease_until bigint,
          run_after bigint NOT NULL,
          last_error text,
          enqueued_at bigint NOT NULL
        );
        CREATE INDEX jobs_claim ON ${t.q('jobs')} (kind, status, seq);
        CREATE INDEX jobs_scope ON ${t.q('jobs')} (scope, kind, status);
        CREATE UNIQUE INDEX jobs_dedupe ON ${t.q('jobs')} (scope, kind, dedupe_key) WHERE dedupe_key IS NOT NULL AND status IN ('pending', 'running');
      `);
      for (const type of BUILT_IN_RELATIONS) {
        await session.query(
          `INSERT INTO ${t.q('relation_types')} (name, "symmetric", built_in, proposed_by, description, registered_at) VALUES ($1, $2, true, NULL, $3, 0) ON CONFLICT DO NOTHING`,
          [type.name, type.symmetric, type.description],
        );
      }
    },
  },
  {
    version: 3,
    name: 'vector write log (exact search caches stay fresh across servers)',
    async up(session, { tables: t }) {
      await session.exec(`
        CREATE TABLE ${t.q('vector_log')} (
          seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          scope text NOT NULL,
          memory_id text COLLATE "C" NOT NULL
        );
        CREATE INDEX vector_log_scope_seq ON ${t.q('vector_log')} (scope, seq);
        INSERT INTO ${t.q('vector_log')} (scope, memory_id) SELECT scope, id FROM ${t.memories} ORDER BY seq;
      `);
    },
  },
  {
    version: 4,
    name: 'API keys as rows; registered relation types belong to a tenant',
    async up(session, { tables: t }) {
      await session.exec(`
        CREATE TABLE ${t.q('api_keys')} (
          id text COLLATE "C" PRIMARY KEY,
          hash text COLLATE "C" NOT NULL UNIQUE,
          tenant text NOT NULL,
          label text,
          created_at bigint NOT NULL,
          revoked_at bigint
        );
      `);
      const index = (await session.query<{ value: string }>(`SELECT value FROM ${t.meta} WHERE key = $1`, [LEGACY_INDEX_KEY])).rows[0]
        ?.value;
      const entries = (
        await session.query<{ value: string }>(`SELECT value FROM ${t.meta} WHERE starts_with(key, $1)`, [LEGACY_HASH_PREFIX])
      ).rows.map((r) => r.value);
      for (const key of legacyMetaKeys(index, entries)) await insertApiKey(session, t, key);
      await session.query(`DELETE FROM ${t.meta} WHERE key = $1 OR starts_with(key, $2)`, [LEGACY_INDEX_KEY, LEGACY_HASH_PREFIX]);

      // '' is the tenant of the built-ins, which every tenant sees
      await session.exec(`
        ALTER TABLE ${t.q('relation_types')} ADD COLUMN tenant text NOT NULL DEFAULT '';
        ALTER TABLE ${t.q('relation_types')} ALTER COLUMN tenant DROP DEFAULT;
        ALTER TABLE ${t.q('relation_types')} DROP CONSTRAINT relation_types_pkey;
        ALTER TABLE ${t.q('relation_types')} ADD PRIMARY KEY (tenant, name);
      `);
      const everyTenant = (
        await session.query<{ tenant: string }>(`SELECT DISTINCT split_part(scope, '/', 1) AS tenant FROM ${t.memories}`)
      ).rows.map((r) => r.tenant);
      const legacy = (
        await session.query<{ name: string; proposed_by: string | null }>(
          `SELECT name, proposed_by FROM ${t.q('relation_types')} WHERE NOT built_in`,
        )
      ).rows;
      for (const type of legacy) {
        const users = (
          await session.query<{ tenant: string }>(`SELECT DISTINCT split_part(scope, '/', 1) AS tenant FROM ${t.edges} WHERE type = $1`, [
            type.name,
          ])
        ).rows.map((r) => r.tenant);
        for (const tenant of legacyRelationTenants(type.proposed_by, users, everyTenant)) {
          await session.query(
            `INSERT INTO ${t.q('relation_types')} (tenant, name, "symmetric", built_in, proposed_by, description, registered_at)
             SELECT $2, name, "symmetric", false, proposed_by, description, registered_at FROM ${t.q('relation_types')} WHERE tenant = '' AND name = $1
             ON CONFLICT DO NOTHING`,
            [type.name, tenant],
          );
        }
      }
      await session.query(`DELETE FROM ${t.q('relation_types')} WHERE tenant = '' AND NOT built_in`);
    },
  },
  {
    version: 5,
    name: 'staged vectors of another embedding model (reembed)',
    async up(session, { tables: t, vectors }) {
      // unsized: the target dimension is only known when a reembed starts (meta)
      await session.exec(`
        CREATE TABLE ${t.q('embedding_staging')} (
          memory_id text COLLATE "C" PRIMARY KEY,
          embedding ${vectors === 'pgvector' ? 'vector' : 'real[]'} NOT NULL
        );
        CREATE INDEX memories_seq ON ${t.memories} (seq);
      `);
    },
  },
  {
    version: 6,
    name: 'browse indexes (keyset pages per scope) and the audit log of purges',
    async up(session, { tables: t }) {
      // the sort expressions must match pg-browse.ts character for character
      await session.exec(`
        CREATE INDEX memories_browse_recorded ON ${t.memories} (scope, recorded_at, id);
        CREATE INDEX memories_browse_valid ON ${t.memories} (scope, valid_from, id);
        CREATE INDEX memories_browse_importance ON ${t.memories} (scope, (coalesce(importance, 1.0)), id);
        CREATE INDEX memories_browse_accessed ON ${t.memories} (scope, (coalesce(last_accessed_at, -8640000000000000)), id);
        CREATE TABLE ${t.q('audit_log')} (
          seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          id text COLLATE "C" NOT NULL UNIQUE,
          at bigint NOT NULL,
          actor text NOT NULL,
          action text NOT NULL,
          scope text NOT NULL,
          count integer NOT NULL,
          details text NOT NULL
        );
        CREATE INDEX audit_log_scope_at ON ${t.q('audit_log')} (scope, at);
      `);
    },
  },
  {
    version: 7,
    name: 'thread neighbours read by an index in their own order',
    async up(session, { tables: t }) {
      // The neighbour read orders by coalesce(occurred_at, -1) and id in byte order ("C"): an index on
      // the bare columns made each read scan and sort the whole thread.
      await session.exec(`
        DROP INDEX IF EXISTS "${t.schema}".memories_thread;
        CREATE INDEX memories_thread_order ON ${t.memories} (scope, thread, (coalesce(occurred_at, -1)), id COLLATE "C") WHERE thread IS NOT NULL;
      `);
    },
  },
  {
    version: 8,
    name: 'overview indexes: records per day and layer, and the order decay reaches active records in',
    async up(session, { tables: t }) {
      // the expressions and the partial-index condition must match pg-explore.ts
      await session.exec(`
        CREATE INDEX memories_scope_layer_recorded ON ${t.memories} (scope, layer, recorded_at);
        CREATE INDEX memories_decay_order ON ${t.memories} (scope, (coalesce(last_accessed_at, recorded_at)), id COLLATE "C")
          WHERE status = 'active' AND NOT pinned AND layer IN ('episodic', 'semantic');
      `);
    },
  },
  {
    version: 10,
    name: 'neighbours in time of episodes written without a thread',
    async up(session, { tables: t }) {
      // the WHERE must match getNeighbours' unthreaded reads (pg-reader.ts)
      await session.exec(
        `CREATE INDEX memories_unthreaded ON ${t.memories} (scope, occurred_at, id COLLATE "C") WHERE thread IS NULL AND layer = 'episodic'`,
      );
    },
  },
  {
    version: 11,
    name: 'CJK words as lexemes: rows holding Chinese, Japanese or Korean text get the words of their runs',
    async up(session, { tables: t }) {
      // before, a CJK run was one lexeme no query matched; only rows with such characters change
      const rows = await session.query<{ id: string; scope: string; content: string; tags: string; entities: string }>(
        `SELECT id, scope, content, tags, entities FROM ${t.memories} WHERE content ~ '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]'`,
      );
      for (const row of rows.rows) {
        if (!hasCjk(row.content)) continue;
        await session.query(
          `UPDATE ${t.memories} SET lexemes = array_to_tsvector($1::text[]), term_count = $2 WHERE id = $3 AND scope = $4`,
          [lexemesOf(row.content, storedStringList(row.tags), storedStringList(row.entities)), termLength(row.content), row.id, row.scope],
        );
      }
    },
  },
  {
    version: 21,
    name: 'built-in relation types added since the store was made (decision chains); tombstones of expired records keep no vector',
    async up(session, { tables: t }) {
      for (const type of BUILT_IN_RELATIONS) {
        await session.query(
          `INSERT INTO ${t.q('relation_types')} (tenant, name, "symmetric", built_in, proposed_by, description, registered_at) VALUES ('', $1, $2, true, NULL, $3, 0) ON CONFLICT DO NOTHING`,
          [type.name, type.symmetric, type.description],
        );
      }
      await session.exec(`ALTER TABLE ${t.memories} ALTER COLUMN embedding DROP NOT NULL`);
    },
  },
  {
    version: 22,
    name: 'no planner statistics of the vectors and the texts: no query filters on their values, and they were most of an ANALYZE',
    async up(session, { tables: t }) {
      // ANALYZE of 10k records: 0.62-0.64 s with them (array statistics of every vector), 25-31 ms without
      await session.exec(`ALTER TABLE ${t.memories} ALTER COLUMN embedding SET STATISTICS 0, ALTER COLUMN content SET STATISTICS 0`);
    },
  },
  {
    version: 23,
    name: 'part vectors of records, and the records still to be given theirs (every record written or edited)',
    async up(session, { tables: t }) {
      await session.exec(partsSchemaSql(t));
    },
  },
  {
    version: 24,
    name: 'a generation per scope raised by every change to its part vectors, so a process can keep the blobs it read',
    async up(session, { tables: t }) {
      await session.exec(partsGenerationSql(t));
    },
  },
  {
    version: 25,
    name: 'the times a memory names, stored off the write path; every record is pending once',
    async up(session, { tables: t }) {
      await session.exec(mentionsSchemaSql(t));
    },
  },
  {
    version: 26,
    name: 'the records whose mentioned times are pending, by scope',
    async up(session, { tables: t }) {
      await session.exec(mentionsByScopeSql(t));
    },
  },
  {
    version: 27,
    name: 'the date reader finds ranges and more years (mentions version 2): every stored time is pending again',
    async up(session, { tables: t }) {
      await session.exec(mentionsResetSql(t));
    },
  },
  {
    version: 28,
    name: 'belief intervals: the validity a record was believed to have until it changed, for knownAt reads',
    async up(session, { tables: t }) {
      // a superseded claim that had an end of its own was believed to end then until the supersession
      await session.exec(`
        CREATE TABLE ${t.beliefs} (
          memory_id text NOT NULL,
          scope text NOT NULL,
          valid_from bigint NOT NULL,
          valid_to bigint,
          known_from bigint NOT NULL,
          known_to bigint NOT NULL,
          PRIMARY KEY (memory_id, known_to)
        );
        CREATE INDEX memory_beliefs_scope ON ${t.beliefs} (scope, known_to);
        INSERT INTO ${t.beliefs} (memory_id, scope, valid_from, valid_to, known_from, known_to)
          SELECT id, scope, valid_from, ((data::jsonb) ->> 'validToBefore')::numeric::bigint, recorded_at, invalidated_at FROM ${t.memories}
          WHERE invalidated_at > recorded_at AND valid_to IS NOT NULL AND jsonb_typeof((data::jsonb) -> 'validToBefore') = 'number';
      `);
    },
  },
  {
    version: 29,
    name: 'a generation per scope raised by every write that changes its superseded captured claims, so a process can keep its index of corrected claims',
    async up(session, { tables: t }) {
      await session.exec(supersededGenerationSql(t));
    },
  },
  {
    version: 30,
    name: "triggers that keep the stored mentioned times and the belief intervals right on every process's writes: an edit makes the times pending, a delete takes the intervals",
    async up(session, { tables: t }) {
      await session.exec(mentionsPendingOnEditSql(t));
      await session.exec(beliefsOnDeleteSql(t));
    },
  },
  {
    version: 31,
    name: "the date reader finds quarters, halves, 29 February and future-tense days (mentions version 3), and reads a text on its writer's wall clock: every stored time is pending again",
    async up(session, { tables: t }) {
      await session.exec(mentionsResetSql(t));
    },
  },
];

export const LATEST_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/** The recorded vector storage of an existing schema, if any. */
export async function readVectorStorage(db: PgQueryable, tables: Tables): Promise<VectorStorage | undefined> {
  const exists = await db.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [tables.meta]);
  if (exists.rows[0]?.t == null) return undefined;
  const row = (await db.query<{ value: string }>(`SELECT value FROM ${tables.meta} WHERE key = 'vector.storage'`)).rows[0];
  return row?.value === 'pgvector' || row?.value === 'array' ? row.value : undefined;
}

/** Is pgvector installed in this database (installing it when the server has it and we may)? */
export async function ensurePgvector(db: PgDriver): Promise<boolean> {
  const installed = await db.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
  if (installed.rows.length > 0) return true;
  const available = await db.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  if (available.rows.length === 0) return false;
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS vector');
    return true;
  } catch {
    // another process may have installed it at the same moment (a duplicate-key failure here)
    const raced = await db.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
    return raced.rows.length > 0; // else no privilege: fall back to exact search
  }
}

/** Applies every pending migration in one transaction, serialised across servers by an advisory lock. */
export async function migrate(db: PgDriver, context: MigrationContext): Promise<void> {
  const t = context.tables;
  try {
    // a current schema needs no write, so a role that may only read opens it too
    if (await schemaCurrent(db, t)) return;
    await db.transaction(async (session) => {
      await session.query(`SELECT ${LOCK_WRITE}`, [t.schema]);
      await session.query(`CREATE SCHEMA IF NOT EXISTS "${t.schema}"`);
      await session.query(
        `CREATE TABLE IF NOT EXISTS ${t.migrations} (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)`,
      );
      const newest = Number((await session.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${t.migrations}`)).rows[0]?.v ?? 0);
      if (newest > LATEST_VERSION) throw newerSchema(newest);
      // by version, not by the newest: a migration merged later with a lower number still applies
      const applied = new Set(
        (await session.query<{ version: number }>(`SELECT version FROM ${t.migrations}`)).rows.map((r) => Number(r.version)),
      );
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        await migration.up(session, context);
        await session.query(`INSERT INTO ${t.migrations} (version, name, applied_at) VALUES ($1, $2, $3)`, [
          migration.version,
          migration.name,
          Date.now(),
        ]);
      }
    });
  } catch (error) {
    throw toEngramError(error, 'apply schema migrations');
  }
}

/** Are all migrations applied? Reads only; throws when a newer Engram wrote the schema. */
async function schemaCurrent(db: PgQueryable, t: Tables): Promise<boolean> {
  const exists = await db.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [t.migrations]);
  if (exists.rows[0]?.t == null) return false;
  const versions = (await db.query<{ version: number }>(`SELECT version FROM ${t.migrations}`)).rows.map((r) => Number(r.version));
  const newest = Math.max(0, ...versions);
  if (newest > LATEST_VERSION) throw newerSchema(newest);
  const applied = new Set(versions);
  return MIGRATIONS.every((migration) => applied.has(migration.version));
}

const META_EMBEDDING_NAME = 'embedding.name';
const META_EMBEDDING_DIMENSION = 'embedding.dimension';

/** The recorded embedder name of a schema, or `null` (no schema yet, or none recorded). */
export async function readEmbeddingName(db: PgQueryable, tables: Tables): Promise<string | null> {
  const exists = await db.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [tables.meta]);
  if (exists.rows[0]?.t == null) return null;
  const row = (await db.query<{ value: string }>(`SELECT value FROM ${tables.meta} WHERE key = $1`, [META_EMBEDDING_NAME])).rows[0];
  return row?.value ?? null;
}

/**
 * Records the embedder on first open; afterwards refuses another name (`EMBEDDING_MODEL_MISMATCH`) or
 * dimension (`EMBEDDING_DIMENSION_MISMATCH`), since mixing vector spaces gives silent garbage.
 */
export async function checkEmbeddingIdentity(db: PgDriver, tables: Tables, embedding: { name: string; dimension: number }): Promise<void> {
  const recorded = await readEmbeddingIdentity(db, tables).catch((error: unknown) => {
    throw toEngramError(error, 'read the embedding model');
  });
  // once recorded there is nothing to write (a role that may only read opens the store too)
  const stored = recorded.size === 2 ? recorded : await recordEmbeddingIdentity(db, tables, embedding);
  const name = stored.get(META_EMBEDDING_NAME);
  if (name !== undefined && name !== embedding.name) {
    throw new EngramError('EMBEDDING_MODEL_MISMATCH', messages.modelMismatch(name, embedding.name), {
      details: { stored: name, given: embedding.name },
    });
  }
  const dimension = stored.get(META_EMBEDDING_DIMENSION);
  if (dimension !== undefined && Number(dimension) !== embedding.dimension) {
    throw new EngramError('EMBEDDING_DIMENSION_MISMATCH', messages.dimensionMismatch(Number(dimension), embedding.dimension), {
      details: { stored: Number(dimension), given: embedding.dimension },
    });
  }
}

/** The recorded embedder name and dimension (those present). */
async function readEmbeddingIdentity(db: PgQueryable, tables: Tables): Promise<Map<string, string>> {
  const rows = (
    await db.query<{ key: string; value: string }>(`SELECT key, value FROM ${tables.meta} WHERE key IN ($1, $2)`, [
      META_EMBEDDING_NAME,
      META_EMBEDDING_DIMENSION,
    ])
  ).rows;
  return new Map(rows.map((r) => [r.key, r.value]));
}

/** Records the embedder where none is recorded yet, then returns what is recorded. */
function recordEmbeddingIdentity(
  db: PgDriver,
  tables: Tables,
  embedding: { name: string; dimension: number },
): Promise<Map<string, string>> {
  return db
    .transaction(async (session) => {
      await session.query(`SELECT ${LOCK_WRITE}`, [tables.schema]);
      await session.query(`INSERT INTO ${tables.meta} (key, value) VALUES ($1, $2), ($3, $4) ON CONFLICT (key) DO NOTHING`, [
        META_EMBEDDING_NAME,
        embedding.name,
        META_EMBEDDING_DIMENSION,
        String(embedding.dimension),
      ]);
      return readEmbeddingIdentity(session, tables);
    })
    .catch((error: unknown) => {
      throw toEngramError(error, 'record the embedding model');
    });
}

function newerSchema(version: number): EngramError {
  return new EngramError(
    'STORAGE_UNAVAILABLE',
    messages.storageUnavailable(
      `the database was written by a newer Engram (schema ${version}, this one knows ${LATEST_VERSION}); upgrade Engram`,
    ),
    { details: { version, expected: LATEST_VERSION } },
  );
}
