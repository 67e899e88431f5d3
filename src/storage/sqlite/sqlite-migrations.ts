/**
 * Versioned schema migrations. Each runs in its own `BEGIN IMMEDIATE` transaction and is recorded in
 * `schema_migrations`, so concurrent first opens from several processes apply each exactly once.
 * Migrations are append-only: never edit one that has shipped, add the next version instead.
 */
import { PARTS_SCHEMA_SQL } from './sqlite-parts.js';
import { SUPERSEDED_GENERATION_SQL } from './sqlite-superseded.js';
import { MENTIONS_COLUMN } from '../stored-mentions.js';
import { MENTIONS_PENDING_INDEX, MENTIONS_PENDING_ON_EDIT_SQL } from './sqlite-mentions.js';
import { BELIEFS_ON_DELETE_SQL } from './sqlite-beliefs.js';
import { randomUUID } from 'node:crypto';
import { EngramError, messages } from '../../core/errors.js';
import { LAYERS, STATUSES } from '../../core/memory.js';
import { BUILT_IN_RELATIONS } from '../../core/relations.js';
import { termLength } from '../../core/text/bm25.js';
import { compatibilityForm, lexicalText, spaceCjkWords } from '../../core/text/index.js';
import { LEGACY_INDEX_KEY, legacyMetaKeys, legacyRelationTenants } from '../legacy-layout.js';
import { insertApiKey } from './sqlite-api-keys.js';
import { upgradeSourceKey } from '../../core/write/new-record.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { toEngramError } from './sqlite-errors.js';
import {
  createVectorTableSql,
  PARTITION_INDEX_SQL,
  VECTOR_CHUNK_SIZE,
  vectorTableChunkSize,
  vectorTableDimension,
} from './vector-table.js';

/** What a migration may depend on that is only known at open time. */
export interface MigrationContext {
  /** The embedding dimension; the vector table is created with it. */
  readonly dimension: number;
}

export interface Migration {
  readonly version: number;
  readonly name: string;
  up(connection: SqliteConnection, context: MigrationContext): void;
}

const list = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(', ');

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'memories, full-text index, vectors, edges, meta, job locks',
    up(connection, { dimension }) {
      connection.exec(`
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

        CREATE TABLE memories (
          rowid INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          scope TEXT NOT NULL,
          layer TEXT NOT NULL CHECK (layer IN (${list(LAYERS)})),
          content TEXT NOT NULL,
          summary TEXT,
          tags TEXT NOT NULL,
          entities TEXT NOT NULL,
          importance REAL,
          salience REAL NOT NULL,
          surprise REAL NOT NULL,
          emotion TEXT,
          pinned INTEGER NOT NULL CHECK (pinned IN (0, 1)),
          mention_count INTEGER NOT NULL,
          access_count INTEGER NOT NULL,
          last_accessed_at INTEGER,
          confidence REAL NOT NULL,
          status TEXT NOT NULL CHECK (status IN (${list(STATUSES)})),
          provenance TEXT NOT NULL,
          valid_from INTEGER NOT NULL,
          valid_to INTEGER,
          occurred_at INTEGER,
          recorded_at INTEGER NOT NULL,
          invalidated_at INTEGER,
          source_key TEXT,
          updated_at INTEGER NOT NULL,
          data TEXT NOT NULL,
          claim_subject TEXT GENERATED ALWAYS AS (json_extract(data, '$.claim.subject')) VIRTUAL,
          claim_attribute TEXT GENERATED ALWAYS AS (json_extract(data, '$.claim.attribute')) VIRTUAL
        );
        CREATE UNIQUE INDEX memories_scope_id ON memories (scope, id);
        CREATE INDEX memories_scope_status_layer ON memories (scope, status, layer);
        CREATE UNIQUE INDEX memories_scope_source_key ON memories (scope, source_key) WHERE source_key IS NOT NULL;
        CREATE INDEX memories_scope_layer_claim ON memories (scope, layer, claim_subject, claim_attribute)
          WHERE claim_subject IS NOT NULL;
        CREATE INDEX memories_scope_occurred_at ON memories (scope, occurred_at);

        CREATE VIRTUAL TABLE memories_fts USING fts5 (
          content, tags, entities,
          content = 'memories', content_rowid = 'rowid', tokenize = 'porter unicode61'
        );
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
          INSERT INTO memories_fts (rowid, content, tags, entities) VALUES (new.rowid, new.content, new.tags, new.entities);
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
            VALUES ('delete', old.rowid, old.content, old.tags, old.entities);
        END;
        CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, entities ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
            VALUES ('delete', old.rowid, old.content, old.tags, old.entities);
          INSERT INTO memories_fts (rowid, content, tags, entities) VALUES (new.rowid, new.content, new.tags, new.entities);
        END;

        CREATE VIRTUAL TABLE memory_vectors USING vec0 (
          scope TEXT PARTITION KEY,
          embedding FLOAT[${dimension}] distance_metric=cosine
        );
        -- every vector write (insert or replace), so in-memory indexes can catch up from a high-water mark
        CREATE TABLE vector_changes (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          scope TEXT NOT NULL,
          memory_rowid INTEGER NOT NULL
        );
        CREATE INDEX vector_changes_scope_seq ON vector_changes (scope, seq);

        CREATE TABLE edges (
          rowid INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          scope TEXT NOT NULL,
          from_id TEXT NOT NULL,
          type TEXT NOT NULL,
          to_id TEXT NOT NULL,
          weight REAL NOT NULL,
          valid_from INTEGER NOT NULL,
          valid_to INTEGER,
          recorded_at INTEGER NOT NULL,
          invalidated_at INTEGER,
          metadata TEXT NOT NULL,
          -- both ends in the edge's own scope
          FOREIGN KEY (scope, from_id) REFERENCES memories (scope, id),
          FOREIGN KEY (scope, to_id) REFERENCES memories (scope, id)
        );
        CREATE INDEX edges_scope_from ON edges (scope, from_id);
        CREATE INDEX edges_scope_to ON edges (scope, to_id);

        CREATE TABLE job_locks (
          name TEXT PRIMARY KEY,
          owner TEXT NOT NULL,
          acquired_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 2,
    name: 'thread key for conversational neighbours',
    up(connection) {
      // turns adjacent to strong hits in the same conversation; the key mirrors core's threadKeyOf
      connection.exec(`
        ALTER TABLE memories ADD COLUMN thread TEXT GENERATED ALWAYS AS (
          coalesce(json_extract(data, '$.context.sessionId'), json_extract(provenance, '$.sources[0].conversationId'))
        ) VIRTUAL;
        CREATE INDEX memories_thread ON memories (scope, thread, occurred_at, id) WHERE thread IS NOT NULL;
      `);
    },
  },
  {
    version: 3,
    name: 'document lengths for scope-local BM25',
    up(connection) {
      connection.exec(`
        ALTER TABLE memories ADD COLUMN term_count INTEGER;
        CREATE TABLE lexical_changes (id INTEGER PRIMARY KEY AUTOINCREMENT, memory_rowid INTEGER NOT NULL);
        CREATE TRIGGER memories_lexical_update AFTER UPDATE OF content, tags ON memories BEGIN
          INSERT INTO lexical_changes (memory_rowid) VALUES (new.rowid);
        END;
        CREATE TRIGGER memories_lexical_delete AFTER DELETE ON memories BEGIN
          INSERT INTO lexical_changes (memory_rowid) VALUES (old.rowid);
        END;
      `);
      const rows = connection.all<{ rowid: number; content: string }>('SELECT rowid, content FROM memories');
      for (const row of rows) connection.run('UPDATE memories SET term_count = ? WHERE rowid = ?', termLength(row.content), row.rowid);
    },
  },
  {
    version: 4,
    name: 'index for temporal search by event time',
    up(connection) {
      connection.exec('CREATE INDEX memories_scope_event_time ON memories (scope, coalesce(occurred_at, valid_from))');
    },
  },
  {
    version: 5,
    name: 'layers: relation registry, concept refs, concept names, state documents, job queue',
    up(connection) {
      connection.exec(`
        CREATE TABLE relation_types (
          name TEXT PRIMARY KEY,
          symmetric INTEGER NOT NULL CHECK (symmetric IN (0, 1)),
          built_in INTEGER NOT NULL CHECK (built_in IN (0, 1)),
          proposed_by TEXT,
          description TEXT,
          registered_at INTEGER NOT NULL
        ) WITHOUT ROWID;

        -- per (concept, layer) an insertion-ordered capped set; seq gives the FIFO order
        CREATE TABLE concept_refs (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          scope TEXT NOT NULL,
          concept_id TEXT NOT NULL,
          layer TEXT NOT NULL CHECK (layer IN (${list(LAYERS)})),
          ref_id TEXT NOT NULL,
          FOREIGN KEY (scope, concept_id) REFERENCES memories (scope, id),
          FOREIGN KEY (scope, ref_id) REFERENCES memories (scope, id)
        );
        CREATE UNIQUE INDEX concept_refs_member ON concept_refs (scope, concept_id, layer, ref_id);
        CREATE INDEX concept_refs_order ON concept_refs (scope, concept_id, layer, seq);
        CREATE INDEX concept_refs_ref ON concept_refs (scope, ref_id);

        ALTER TABLE memories ADD COLUMN concept_name TEXT GENERATED ALWAYS AS (lower(trim(json_extract(data, '$.name')))) VIRTUAL;
        CREATE INDEX memories_scope_concept_name ON memories (scope, concept_name) WHERE concept_name IS NOT NULL;

        CREATE TABLE state (
          scope TEXT NOT NULL,
          key TEXT NOT NULL,
          value TEXT NOT NULL,
          updated_at INTEGER NOT NULL,
          PRIMARY KEY (scope, key)
        ) WITHOUT ROWID;

        CREATE TABLE jobs (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          scope TEXT NOT NULL,
          kind TEXT NOT NULL,
          payload TEXT NOT NULL,
          dedupe_key TEXT,
          status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'failed')),
          attempts INTEGER NOT NULL DEFAULT 0,
          owner TEXT,
          lease_until INTEGER,
          run_after INTEGER NOT NULL,
          last_error TEXT,
          enqueued_at INTEGER NOT NULL
        );
        CREATE INDEX jobs_claim ON jobs (kind, status, seq);
        CREATE INDEX jobs_scope ON jobs (scope, kind, status);
        CREATE UNIQUE INDEX jobs_dedupe ON jobs (scope, kind, dedupe_key) WHERE dedupe_key IS NOT NULL AND status IN ('pending', 'running');
      `);
      for (const type of BUILT_IN_RELATIONS) {
        connection.run(
          'INSERT OR IGNORE INTO relation_types (name, symmetric, built_in, proposed_by, description, registered_at) VALUES (?, ?, 1, NULL, ?, 0)',
          type.name,
          type.symmetric ? 1 : 0,
          type.description,
        );
      }
    },
  },
  {
    version: 6,
    name: 'change feed of the fields the in-memory lexical index holds',
    up(connection) {
      // Inserts need no entry (rowids only grow); updates of access counts and the like do not log.
      connection.exec(`
        CREATE TABLE memory_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, memory_rowid INTEGER NOT NULL);
        CREATE TRIGGER memory_changes_update AFTER UPDATE OF scope, layer, status, content, tags, entities, term_count,
          valid_from, valid_to, recorded_at, invalidated_at ON memories
        WHEN old.scope IS NOT new.scope OR old.layer IS NOT new.layer OR old.status IS NOT new.status
          OR old.content IS NOT new.content OR old.tags IS NOT new.tags OR old.entities IS NOT new.entities
          OR old.term_count IS NOT new.term_count OR old.valid_from IS NOT new.valid_from OR old.valid_to IS NOT new.valid_to
          OR old.recorded_at IS NOT new.recorded_at OR old.invalidated_at IS NOT new.invalidated_at
        BEGIN
          INSERT INTO memory_changes (memory_rowid) VALUES (new.rowid);
        END;
        CREATE TRIGGER memory_changes_delete AFTER DELETE ON memories BEGIN
          INSERT INTO memory_changes (memory_rowid) VALUES (old.rowid);
        END;
      `);
    },
  },
  {
    version: 7,
    name: 'source keys as JSON arrays instead of NUL-joined text',
    up(connection) {
      // instr on the blob form is byte-exact; text functions are undefined on embedded NULs
      const rows = connection.all<{ rowid: number; source_key: string }>(
        "SELECT rowid, source_key FROM memories WHERE instr(CAST(source_key AS BLOB), x'00') > 0",
      );
      for (const row of rows)
        connection.run('UPDATE OR IGNORE memories SET source_key = ? WHERE rowid = ?', upgradeSourceKey(row.source_key), row.rowid);
    },
  },
  {
    version: 8,
    name: 'API keys as rows; registered relation types belong to a tenant',
    up(connection) {
      connection.exec(`
        CREATE TABLE api_keys (
          id TEXT PRIMARY KEY,
          hash TEXT NOT NULL UNIQUE,
          tenant TEXT NOT NULL,
          label TEXT,
          created_at INTEGER NOT NULL,
          revoked_at INTEGER
        ) WITHOUT ROWID;
      `);
      const index = connection.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', LEGACY_INDEX_KEY)?.value;
      const entries = connection.all<{ value: string }>("SELECT value FROM meta WHERE substr(key, 1, 8) = 'api_key:'").map((r) => r.value);
      for (const key of legacyMetaKeys(index, entries)) insertApiKey(connection, key);
      connection.run("DELETE FROM meta WHERE key = ? OR substr(key, 1, 8) = 'api_key:'", LEGACY_INDEX_KEY);

      // '' is the tenant of the built-ins, which every tenant sees
      connection.exec(`
        CREATE TABLE relation_types_by_tenant (
          tenant TEXT NOT NULL,
          name TEXT NOT NULL,
          symmetric INTEGER NOT NULL CHECK (symmetric IN (0, 1)),
          built_in INTEGER NOT NULL CHECK (built_in IN (0, 1)),
          proposed_by TEXT,
          description TEXT,
          registered_at INTEGER NOT NULL,
          PRIMARY KEY (tenant, name)
        ) WITHOUT ROWID;
        INSERT INTO relation_types_by_tenant (tenant, name, symmetric, built_in, proposed_by, description, registered_at)
          SELECT '', name, symmetric, built_in, proposed_by, description, registered_at FROM relation_types WHERE built_in = 1;
      `);
      const tenantOfScope = "CASE WHEN instr(scope, '/') > 0 THEN substr(scope, 1, instr(scope, '/') - 1) ELSE scope END";
      const everyTenant = connection
        .all<{ tenant: string }>(`SELECT DISTINCT ${tenantOfScope} AS tenant FROM memories`)
        .map((r) => r.tenant);
      const legacy = connection.all<{
        name: string;
        symmetric: number;
        proposed_by: string | null;
        description: string | null;
        registered_at: number;
      }>('SELECT name, symmetric, proposed_by, description, registered_at FROM relation_types WHERE built_in = 0');
      for (const type of legacy) {
        const users = connection
          .all<{ tenant: string }>(`SELECT DISTINCT ${tenantOfScope} AS tenant FROM edges WHERE type = ?`, type.name)
          .map((r) => r.tenant);
        for (const tenant of legacyRelationTenants(type.proposed_by, users, everyTenant)) {
          connection.run(
            'INSERT OR IGNORE INTO relation_types_by_tenant (tenant, name, symmetric, built_in, proposed_by, description, registered_at) VALUES (?, ?, ?, 0, ?, ?, ?)',
            tenant,
            type.name,
            type.symmetric,
            type.proposed_by,
            type.description,
            type.registered_at,
          );
        }
      }
      connection.exec('DROP TABLE relation_types; ALTER TABLE relation_types_by_tenant RENAME TO relation_types;');
    },
  },
  {
    version: 9,
    name: 'staged vectors of another embedding model (reembed)',
    up(connection) {
      // a plain table, not vec0: the target dimension is only known when a reembed starts (meta)
      connection.exec('CREATE TABLE embedding_staging (memory_rowid INTEGER PRIMARY KEY, embedding BLOB NOT NULL)');
    },
  },
  {
    version: 10,
    name: 'browse indexes (keyset pages per scope) and the audit log of purges',
    up(connection) {
      // the sort expressions must match sqlite-browse.ts character for character
      connection.exec(`
        CREATE INDEX memories_browse_recorded ON memories (scope, recorded_at, id);
        CREATE INDEX memories_browse_valid ON memories (scope, valid_from, id);
        CREATE INDEX memories_browse_importance ON memories (scope, coalesce(importance, 1.0), id);
        CREATE INDEX memories_browse_accessed ON memories (scope, coalesce(last_accessed_at, -8640000000000000), id);
        CREATE TABLE audit_log (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          at INTEGER NOT NULL,
          actor TEXT NOT NULL,
          action TEXT NOT NULL,
          scope TEXT NOT NULL,
          count INTEGER NOT NULL,
          details TEXT NOT NULL
        );
        CREATE INDEX audit_log_scope_at ON audit_log (scope, at);
      `);
    },
  },
  {
    version: 11,
    name: 'overview indexes: records per day and layer, and the order decay reaches active records in',
    up(connection) {
      // the expressions and the partial-index condition must match sqlite-explore.ts character for character
      connection.exec(`
        CREATE INDEX memories_scope_layer_recorded ON memories (scope, layer, recorded_at);
        CREATE INDEX memories_decay_order ON memories (scope, coalesce(last_accessed_at, recorded_at), importance)
          WHERE status = 'active' AND pinned = 0 AND layer IN ('episodic', 'semantic');
      `);
    },
  },
  {
    version: 13,
    name: 'neighbours in time of episodes written without a thread',
    up(connection) {
      // the WHERE must match readNeighbours' unthreaded reads (sqlite-context-queries.ts)
      connection.exec(`CREATE INDEX memories_unthreaded ON memories (scope, occurred_at, id) WHERE thread IS NULL AND layer = 'episodic'`);
    },
  },
  {
    version: 14,
    name: 'CJK words for full-text search: FTS5 indexes lexical_text (content with its CJK words spaced) when set',
    up(connection) {
      connection.exec(`
        ALTER TABLE memories ADD COLUMN lexical_text TEXT;
        DROP TRIGGER memories_fts_insert;
        DROP TRIGGER memories_fts_delete;
        DROP TRIGGER memories_fts_update;
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
          INSERT INTO memories_fts (rowid, content, tags, entities) VALUES (new.rowid, coalesce(new.lexical_text, new.content), new.tags, new.entities);
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
            VALUES ('delete', old.rowid, coalesce(old.lexical_text, old.content), old.tags, old.entities);
        END;
        CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, entities, lexical_text ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
            VALUES ('delete', old.rowid, coalesce(old.lexical_text, old.content), old.tags, old.entities);
          INSERT INTO memories_fts (rowid, content, tags, entities) VALUES (new.rowid, coalesce(new.lexical_text, new.content), new.tags, new.entities);
        END;
      `);
      // rows written before hold CJK runs as single FTS terms: re-index them with their words (the update trigger swaps the FTS row)
      const rows = connection.all<{ rowid: number; content: string }>('SELECT rowid, content FROM memories');
      for (const row of rows) {
        const spaced = spaceCjkWords(row.content);
        if (spaced !== null)
          connection.run(
            'UPDATE memories SET lexical_text = ?, term_count = ? WHERE rowid = ?',
            spaced,
            termLength(row.content),
            row.rowid,
          );
      }
    },
  },
  {
    version: 21,
    name: 'built-in relation types added since the store was made (decision chains)',
    up(connection) {
      for (const type of BUILT_IN_RELATIONS) {
        connection.run(
          "INSERT OR IGNORE INTO relation_types (tenant, name, symmetric, built_in, proposed_by, description, registered_at) VALUES ('', ?, ?, 1, NULL, ?, 0)",
          type.name,
          type.symmetric ? 1 : 0,
          type.description,
        );
      }
    },
  },
  {
    version: 22,
    name: 'store id for derived files; floors of the pruned change feeds',
    up(connection) {
      // pruned_below: entries of the feed (and scope) with a lower seq may have been deleted
      connection.exec(`
        CREATE TABLE change_feed_floors (
          feed TEXT NOT NULL,
          scope TEXT NOT NULL,
          pruned_below INTEGER NOT NULL,
          PRIMARY KEY (feed, scope)
        ) WITHOUT ROWID;
      `);
      connection.run('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)', META_STORE_ID, randomUUID());
    },
  },
  {
    version: 23,
    name: 'vector chunks of 32 and an index on their partitions (a scope no longer takes 1,024 slots)',
    up(connection, context) {
      const definition = connection.get<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'memory_vectors'")?.sql;
      if (definition === undefined) return;
      // every store gets the index; a store whose copy pays is also moved to the new chunks (and its
      // new table comes with the index), the others keep their chunks
      connection.exec(PARTITION_INDEX_SQL);
      const chunkSize = vectorTableChunkSize(definition);
      if (chunkSize === VECTOR_CHUNK_SIZE) return;
      const count = connection.get<{ n: number }>('SELECT count(*) AS n FROM memory_vectors_rowids')?.n ?? 0;
      const slots = (connection.get<{ n: number }>('SELECT count(*) AS n FROM memory_vectors_chunks')?.n ?? 0) * chunkSize;
      if (!relayoutPays(count, slots)) return;
      // same rowids and vectors, so the change log and the index files built from it stay valid
      const dimension = vectorTableDimension(definition) ?? context.dimension;
      connection.exec(`
        CREATE TEMP TABLE vectors_relayout AS SELECT rowid AS memory_rowid, scope, embedding FROM memory_vectors;
        DROP TABLE memory_vectors;
        ${createVectorTableSql(dimension)}
        INSERT INTO memory_vectors (rowid, scope, embedding)
          SELECT memory_rowid, scope, embedding FROM temp.vectors_relayout ORDER BY scope, memory_rowid;
        DROP TABLE temp.vectors_relayout;
      `);
    },
  },
  {
    version: 24,
    name: 'part vectors (a record that says several things gets a vector for each), pending until made',
    up(connection) {
      connection.exec(PARTS_SCHEMA_SQL);
    },
  },
  {
    version: 25,
    name: 'the times a memory names, stored off the write path; every record is pending once',
    up(connection) {
      // a new column is NULL in every row (pending); the partial index holds only the pending rows
      connection.exec(`
        ALTER TABLE memories ADD COLUMN ${MENTIONS_COLUMN} TEXT;
        CREATE INDEX ${MENTIONS_PENDING_INDEX} ON memories (scope) WHERE ${MENTIONS_COLUMN} IS NULL;
      `);
    },
  },
  {
    version: 26,
    name: 'the date reader finds ranges and more years (mentions version 2): every stored time is pending again',
    up(connection) {
      connection.exec(`UPDATE memories SET ${MENTIONS_COLUMN} = NULL WHERE ${MENTIONS_COLUMN} IS NOT NULL`);
    },
  },
  {
    version: 27,
    name: 'belief intervals: the validity a record was believed to have until it changed, for knownAt reads',
    up(connection) {
      // a superseded claim that had an end of its own was believed to end then until the supersession
      connection.exec(`
        CREATE TABLE memory_beliefs (
          memory_id TEXT NOT NULL,
          scope TEXT NOT NULL,
          valid_from INTEGER NOT NULL,
          valid_to INTEGER,
          known_from INTEGER NOT NULL,
          known_to INTEGER NOT NULL,
          PRIMARY KEY (memory_id, known_to)
        ) WITHOUT ROWID;
        CREATE INDEX memory_beliefs_scope ON memory_beliefs (scope, known_to);
        INSERT INTO memory_beliefs (memory_id, scope, valid_from, valid_to, known_from, known_to)
          SELECT id, scope, valid_from, CAST(json_extract(data, '$.validToBefore') AS INTEGER), recorded_at, invalidated_at FROM memories
          WHERE invalidated_at > recorded_at AND valid_to IS NOT NULL AND json_type(data, '$.validToBefore') IN ('integer', 'real');
      `);
    },
  },
  {
    version: 28,
    name: 'a generation per scope raised by every write that changes its superseded captured claims, so a process can keep its index of corrected claims',
    up(connection) {
      connection.exec(SUPERSEDED_GENERATION_SQL);
    },
  },
  {
    version: 29,
    name: 'full-text search sees text as the query does: content, tags and entities in compatibility form (full-width letters, ligatures)',
    up(connection) {
      // the delete triggers hand FTS5 exactly what was indexed: the lexical form where set, else the field
      connection.exec(`
        ALTER TABLE memories ADD COLUMN lexical_tags TEXT;
        ALTER TABLE memories ADD COLUMN lexical_entities TEXT;
        DROP TRIGGER memories_fts_insert;
        DROP TRIGGER memories_fts_delete;
        DROP TRIGGER memories_fts_update;
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
          INSERT INTO memories_fts (rowid, content, tags, entities)
            VALUES (new.rowid, coalesce(new.lexical_text, new.content), coalesce(new.lexical_tags, new.tags), coalesce(new.lexical_entities, new.entities));
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
            VALUES ('delete', old.rowid, coalesce(old.lexical_text, old.content), coalesce(old.lexical_tags, old.tags), coalesce(old.lexical_entities, old.entities));
        END;
        CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, entities, lexical_text, lexical_tags, lexical_entities ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
            VALUES ('delete', old.rowid, coalesce(old.lexical_text, old.content), coalesce(old.lexical_tags, old.tags), coalesce(old.lexical_entities, old.entities));
          INSERT INTO memories_fts (rowid, content, tags, entities)
            VALUES (new.rowid, coalesce(new.lexical_text, new.content), coalesce(new.lexical_tags, new.tags), coalesce(new.lexical_entities, new.entities));
        END;
      `);
      // rows with a non-ASCII character (more bytes than characters) may index other words now: the
      // update trigger swaps their FTS rows; the lexical index file is rebuilt (its format moved with this)
      const rows = connection.all<{ rowid: number; content: string; tags: string; entities: string; lexical_text: string | null }>(
        `SELECT rowid, content, tags, entities, lexical_text FROM memories
         WHERE length(CAST(content || tags || entities AS BLOB)) > length(content || tags || entities)`,
      );
      for (const row of rows) {
        // content that is its own compatibility form keeps its spaced CJK words: no second segmentation
        const content = compatibilityForm(row.content) === row.content ? row.lexical_text : lexicalText(row.content);
        const forms = [content, lexicalText(row.tags), lexicalText(row.entities)];
        if (forms[0] === row.lexical_text && forms[1] === null && forms[2] === null) continue;
        connection.run('UPDATE memories SET lexical_text = ?, lexical_tags = ?, lexical_entities = ? WHERE rowid = ?', ...forms, row.rowid);
      }
    },
  },
  {
    version: 30,
    name: "triggers that keep the stored mentioned times and the belief intervals right on every process's writes: an edit makes the times pending, a delete takes the intervals",
    up(connection) {
      connection.exec(MENTIONS_PENDING_ON_EDIT_SQL);
      connection.exec(BELIEFS_ON_DELETE_SQL);
    },
  },
  {
    version: 31,
    name: "the date reader finds quarters, halves, 29 February and future-tense days (mentions version 3), and reads a text on its writer's wall clock: every stored time is pending again",
    up(connection) {
      connection.exec(`UPDATE memories SET ${MENTIONS_COLUMN} = NULL WHERE ${MENTIONS_COLUMN} IS NOT NULL`);
    },
  },
];

/**
 * Whether migration 23 copies a store's vectors into the new chunks on its first open. The copy runs at
 * ~7,000-10,000 768-d vectors a second here (a 101,000-vector store took 14.5 s) inside the migration's
 * write transaction, and another process that opens or writes meanwhile waits at most its busy timeout
 * (10 s by default) before it fails with BUSY. So the copy is made where it stays within a few seconds:
 * up to 20,000 vectors, or up to 40,000 where most of the old chunks' slots are empty (many small
 * scopes, where the file shrinks several times over); other stores keep their chunks, with the index.
 */
export function relayoutPays(vectors: number, slots: number): boolean {
  return vectors <= 20_000 || (slots >= 4 * vectors && vectors <= 40_000);
}

/** The newest schema version this code knows. */
export const LATEST_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/**
 * Applies every pending migration, each in its own write transaction. Safe to run concurrently. The
 * applied versions are read first without the write lock, so opening a current database never waits
 * for another process's write; each pending migration is checked again under the lock.
 */
export async function migrate(connection: SqliteConnection, context: MigrationContext): Promise<void> {
  let applied: Set<number>;
  try {
    applied = connection.snapshot(() => appliedVersions(connection));
  } catch (error) {
    throw toEngramError(error, 'read the schema version');
  }
  if (Math.max(0, ...applied) > LATEST_VERSION) throw newerSchema(Math.max(...applied));
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    await connection.beginImmediate();
    try {
      connection.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
      );
      const newest = connection.get<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations')?.v ?? 0;
      if (newest > LATEST_VERSION) throw newerSchema(newest);
      // another process may have applied it since the versions were read
      const done = connection.get('SELECT 1 FROM schema_migrations WHERE version = ?', migration.version) !== undefined;
      if (!done) {
        migration.up(connection, context);
        connection.run(
          'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
          migration.version,
          migration.name,
          Date.now(),
        );
      }
      connection.commit();
    } catch (error) {
      connection.rollbackQuietly();
      throw toEngramError(error, `apply schema migration ${migration.version}`);
    }
  }
}

/** The versions recorded in `schema_migrations` (none before the first migration). */
function appliedVersions(connection: SqliteConnection): Set<number> {
  const hasTable = connection.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") !== undefined;
  if (!hasTable) return new Set();
  return new Set(connection.all<{ version: number }>('SELECT version FROM schema_migrations').map((row) => row.version));
}

/** The database's schema version (its newest migration) and whether any migration is pending; throws when a newer Engram wrote it. */
export function schemaState(connection: SqliteConnection): { version: number; pending: boolean } {
  const applied = appliedVersions(connection);
  const version = Math.max(0, ...applied);
  if (version > LATEST_VERSION) throw newerSchema(version);
  // by version, as `migrate` applies them: a lower one merged later is pending below the newest
  return { version, pending: MIGRATIONS.some((m) => !applied.has(m.version)) };
}

/** For read-only opens: the schema must already be current, since nothing may be written. */
export function assertSchemaCurrent(connection: SqliteConnection): void {
  const { version, pending } = schemaState(connection);
  if (pending) {
    throw olderSchema(
      version,
      'this process opens it read-only (asked to, or its folder cannot be written), so it cannot migrate it; open it once with this Engram where the file and its folder can be written (any command on it migrates it, e.g. "engram stats --db <file>"), then open it here again',
    );
  }
}

/** `STORAGE_UNAVAILABLE` for a database at schema `version`, older than this code's, that cannot be migrated here: `fix` says what to do. */
export function olderSchema(version: number, fix: string): EngramError {
  return new EngramError('STORAGE_UNAVAILABLE', messages.olderSchema(version, LATEST_VERSION, fix), {
    details: { version, expected: LATEST_VERSION },
  });
}

export const META_EMBEDDING_NAME = 'embedding.name';
/** A random id given to the database once, so a derived file never serves another database at the same path. */
export const META_STORE_ID = 'store.id';

/** The database's store id ('' before migration 22). */
export function readStoreId(connection: SqliteConnection): string {
  return connection.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', META_STORE_ID)?.value ?? '';
}
export const META_EMBEDDING_DIMENSION = 'embedding.dimension';

/** The embedder recorded in the database, as stored (either part may be missing in a new file). */
export interface StoredEmbedding {
  name?: string;
  dimension?: string;
}

/** Reads the recorded embedder; nothing when the database has no `meta` table yet. */
export function readEmbeddingIdentity(connection: SqliteConnection): StoredEmbedding {
  if (connection.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'") === undefined) return {};
  const rows = connection.all<{ key: string; value: string }>(
    'SELECT key, value FROM meta WHERE key IN (?, ?)',
    META_EMBEDDING_NAME,
    META_EMBEDDING_DIMENSION,
  );
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  const name = byKey.get(META_EMBEDDING_NAME);
  const dimension = byKey.get(META_EMBEDDING_DIMENSION);
  return { ...(name === undefined ? {} : { name }), ...(dimension === undefined ? {} : { dimension }) };
}

/**
 * Records the embedder on first open; afterwards refuses another name (`EMBEDDING_MODEL_MISMATCH`) or
 * dimension (`EMBEDDING_DIMENSION_MISMATCH`), since mixing vector spaces gives silent garbage.
 */
export async function checkEmbeddingIdentity(
  connection: SqliteConnection,
  embedding: { name: string; dimension: number },
  options: { readonly: boolean },
): Promise<void> {
  let stored = connection.snapshot(() => readEmbeddingIdentity(connection));
  if (stored.name === undefined && !options.readonly) {
    await connection.beginImmediate();
    try {
      stored = readEmbeddingIdentity(connection);
      if (stored.name === undefined) {
        connection.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', META_EMBEDDING_NAME, embedding.name);
        connection.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', META_EMBEDDING_DIMENSION, String(embedding.dimension));
        stored = { name: embedding.name, dimension: String(embedding.dimension) };
      }
      connection.commit();
    } catch (error) {
      connection.rollbackQuietly();
      throw toEngramError(error, 'record the embedding model');
    }
  }
  if (stored.name !== undefined && stored.name !== embedding.name) {
    throw new EngramError('EMBEDDING_MODEL_MISMATCH', messages.modelMismatch(stored.name, embedding.name), {
      details: { stored: stored.name, given: embedding.name },
    });
  }
  const storedDimension = stored.dimension === undefined ? undefined : Number(stored.dimension);
  if (storedDimension !== undefined && storedDimension !== embedding.dimension) {
    throw new EngramError('EMBEDDING_DIMENSION_MISMATCH', messages.dimensionMismatch(storedDimension, embedding.dimension), {
      details: { stored: storedDimension, given: embedding.dimension },
    });
  }
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
