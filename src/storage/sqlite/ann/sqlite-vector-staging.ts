/**
 * Staged vectors of another embedding model (`reembed`) in the SQLite store: a plain table keyed by the
 * memory's rowid, the target model in `meta`. The switch replaces the vec0 table (its dimension is part
 * of its definition) by one of the target dimension filled from the staging, in one write transaction.
 */
import { createVectorTableSql } from '../vector-table.js';
import { EngramError, messages } from '../../../core/errors.js';
import type { EmbeddingIdentity, JobLockHolder, StagingCandidate, StagingPage, VectorStaging } from '../../../core/ports/vector-staging.js';
import {
  assertStagingDimension,
  COMPLETE_BATCH,
  META_STAGING_DIMENSION,
  META_STAGING_NAME,
  noStaging,
  otherStaging,
  sameIdentity,
  stagedIdentity,
  toCandidate,
  type CandidateRow,
} from '../../staging-rows.js';
import type { SqliteConnection } from '../sqlite-connection.js';
import { META_EMBEDDING_DIMENSION, META_EMBEDDING_NAME } from '../sqlite-migrations.js';
import { vectorBlob } from './sqlite-vector-search.js';
import { PARTS_RESET_SQL } from '../sqlite-parts.js';

const UNSTAGED_SQL = `SELECT m.rowid AS rowid, m.id AS id, m.layer AS layer, m.content AS content, m.data AS data FROM memories m
  WHERE m.rowid > ? AND NOT EXISTS (SELECT 1 FROM embedding_staging s WHERE s.memory_rowid = m.rowid) ORDER BY m.rowid LIMIT ?`;

/** What the staging needs from its store: snapshots, short writes and one long write transaction. */
export interface SqliteStagingHost {
  /** The model the store was opened with: staging refuses to go on once another run switched it. */
  readonly embedderName: string;
  /** Runs `fn` in one read snapshot of committed data. */
  read<T>(action: string, fn: (connection: SqliteConnection) => T): Promise<T>;
  /** A short synchronous write transaction. */
  write<T>(action: string, fn: (connection: SqliteConnection) => T): Promise<T>;
  /** A write transaction that may await (the switch embeds its stragglers inside it). */
  exclusive<T>(action: string, fn: (connection: SqliteConnection) => Promise<T>): Promise<T>;
  /** Builds the approximate index of the listed scopes (those above its threshold). */
  prepareVectorIndex(scopes: readonly string[]): Promise<string[]>;
}

/**
 * Throws `LOCKED` when the store's recorded model is no longer `name` (a reembed switched it after this
 * connection's store was opened), so vectors of two models are never compared.
 */
export function assertEmbedderCurrent(connection: SqliteConnection, name: string): void {
  const stored = connection.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', META_EMBEDDING_NAME)?.value;
  if (stored !== undefined && stored !== name) {
    throw new EngramError('LOCKED', messages.embedderSwitched(stored, name), { details: { stored, opened: name } });
  }
}

export class SqliteVectorStaging implements VectorStaging {
  readonly #host: SqliteStagingHost;

  constructor(host: SqliteStagingHost) {
    this.#host = host;
  }

  async staged(): Promise<EmbeddingIdentity | null> {
    return this.#host.read('read the staging model', readStaged);
  }

  async beginStaging(target: EmbeddingIdentity): Promise<{ kept: number; discarded: EmbeddingIdentity | null }> {
    return this.#host.write('begin staging', (connection) => {
      assertEmbedderCurrent(connection, this.#host.embedderName);
      const current = readStaged(connection);
      if (current !== null && sameIdentity(current, target)) {
        return { kept: connection.get<{ n: number }>('SELECT count(*) AS n FROM embedding_staging')?.n ?? 0, discarded: null };
      }
      connection.run('DELETE FROM embedding_staging');
      setMeta(connection, META_STAGING_NAME, target.name);
      setMeta(connection, META_STAGING_DIMENSION, String(target.dimension));
      return { kept: 0, discarded: current };
    });
  }

  async unstagedRecords(query: { cursor: string | null; limit: number }): Promise<StagingPage> {
    return this.#host.read('read records to re-embed', (connection) => {
      // the mark first: a vector written after it makes its record's staged vector stale
      const mark = connection.get<{ seq: number | null }>('SELECT max(seq) AS seq FROM vector_changes')?.seq ?? 0;
      const after = query.cursor === null ? 0 : Number(query.cursor);
      const rows = connection.all<CandidateRow & { rowid: number }>(UNSTAGED_SQL, after, Math.max(1, Math.floor(query.limit)));
      const last = rows[rows.length - 1];
      return { records: rows.map(toCandidate), mark: String(mark), cursor: String(last?.rowid ?? after) };
    });
  }

  async stageVectors(vectors: readonly { id: string; embedding: Float32Array }[], mark: string): Promise<number> {
    if (vectors.length === 0) return 0;
    return this.#host.write('stage vectors', (connection) => {
      assertEmbedderCurrent(connection, this.#host.embedderName);
      const staging = requireStaging(connection);
      const changed = new Set(
        connection
          .all<{ memory_rowid: number }>('SELECT DISTINCT memory_rowid FROM vector_changes WHERE seq > ?', Number(mark))
          .map((r) => r.memory_rowid),
      );
      let stored = 0;
      for (const { id, embedding } of vectors) {
        assertStagingDimension(embedding, staging);
        const row = connection.get<{ rowid: number }>('SELECT rowid FROM memories WHERE id = ?', id);
        if (row === undefined || changed.has(row.rowid)) continue;
        connection.run(
          'INSERT OR REPLACE INTO embedding_staging (memory_rowid, embedding) VALUES (?, ?)',
          row.rowid,
          vectorBlob(embedding),
        );
        stored++;
      }
      return stored;
    });
  }

  async stagingProgress(): Promise<{ records: number; staged: number }> {
    return this.#host.read('count staged vectors', (connection) => {
      const row = connection.get<{ records: number; staged: number }>(
        `SELECT (SELECT count(*) FROM memories) AS records,
           (SELECT count(*) FROM embedding_staging s WHERE EXISTS (SELECT 1 FROM memories m WHERE m.rowid = s.memory_rowid)) AS staged`,
      );
      return { records: row?.records ?? 0, staged: row?.staged ?? 0 };
    });
  }

  async switchToStaged(
    target: EmbeddingIdentity,
    complete: (records: readonly StagingCandidate[]) => Promise<Float32Array[]>,
  ): Promise<{ records: number; chunks: number; completed: number }> {
    return this.#host.exclusive('switch to the staged vectors', async (connection) => {
      assertEmbedderCurrent(connection, this.#host.embedderName);
      const staging = requireStaging(connection);
      if (!sameIdentity(staging, target)) throw otherStaging(staging, target);
      // no writer can interleave now: embed what was written since the last pass, then swap
      let completed = 0;
      for (;;) {
        const rows = connection.all<CandidateRow & { rowid: number }>(UNSTAGED_SQL, 0, COMPLETE_BATCH);
        if (rows.length === 0) break;
        const embeddings = await complete(rows.map(toCandidate));
        rows.forEach((row, i) => {
          const embedding = assertStagingDimension(embeddings[i], staging);
          connection.run(
            'INSERT OR REPLACE INTO embedding_staging (memory_rowid, embedding) VALUES (?, ?)',
            row.rowid,
            vectorBlob(embedding),
          );
        });
        completed += rows.length;
      }
      connection.exec(`
        DROP TABLE memory_vectors;
        ${createVectorTableSql(target.dimension)}
        INSERT INTO memory_vectors (rowid, scope, embedding)
          SELECT m.rowid, m.scope, s.embedding FROM memories m JOIN embedding_staging s ON s.memory_rowid = m.rowid ORDER BY m.scope, m.rowid;
        -- the log is of the old vectors; indexes built from it belong to the old model
        DELETE FROM vector_changes;
        DELETE FROM embedding_staging;
        ${PARTS_RESET_SQL}
      `);
      setMeta(connection, META_EMBEDDING_NAME, target.name);
      setMeta(connection, META_EMBEDDING_DIMENSION, String(target.dimension));
      connection.run('DELETE FROM meta WHERE key IN (?, ?)', META_STAGING_NAME, META_STAGING_DIMENSION);
      const counts = connection.get<{ total: number; chunks: number | null }>(
        "SELECT count(*) AS total, sum(CASE WHEN json_valid(data) THEN json_extract(data, '$.parentId') IS NOT NULL ELSE 0 END) AS chunks FROM memories",
      );
      const chunks = counts?.chunks ?? 0;
      return { records: (counts?.total ?? 0) - chunks, chunks, completed };
    });
  }

  async discardStaging(): Promise<boolean> {
    return this.#host.write('discard the staged vectors', (connection) => {
      const had = readStaged(connection) !== null;
      connection.run('DELETE FROM embedding_staging');
      connection.run('DELETE FROM meta WHERE key IN (?, ?)', META_STAGING_NAME, META_STAGING_DIMENSION);
      return had;
    });
  }

  async rebuildVectorIndex(): Promise<string[]> {
    const scopes = await this.#host.read('list scopes', (connection) =>
      connection.all<{ scope: string }>('SELECT DISTINCT scope FROM memories').map((r) => r.scope),
    );
    return this.#host.prepareVectorIndex(scopes);
  }

  async liveJobLocks(prefix: string): Promise<JobLockHolder[]> {
    return this.#host.read('read job locks', (connection) =>
      connection
        .all<{ name: string; owner: string; expires_at: number }>(
          'SELECT name, owner, expires_at FROM job_locks WHERE substr(name, 1, ?) = ? AND expires_at > ? ORDER BY name',
          prefix.length,
          prefix,
          Date.now(),
        )
        .map((r) => ({ name: r.name, owner: r.owner, expiresAt: r.expires_at })),
    );
  }

  async takeOverJobLock(name: string, fromOwner: string, toOwner: string, ttlMs: number): Promise<boolean> {
    return this.#host.write('take over a job lock', (connection) => {
      const now = Date.now();
      return (
        connection.run(
          'UPDATE job_locks SET owner = ?, acquired_at = ?, expires_at = ? WHERE name = ? AND owner = ?',
          toOwner,
          now,
          now + ttlMs,
          name,
          fromOwner,
        ) > 0
      );
    });
  }
}

function readStaged(connection: SqliteConnection): EmbeddingIdentity | null {
  const rows = connection.all<{ key: string; value: string }>(
    'SELECT key, value FROM meta WHERE key IN (?, ?)',
    META_STAGING_NAME,
    META_STAGING_DIMENSION,
  );
  return stagedIdentity(new Map(rows.map((r) => [r.key, r.value])));
}

function requireStaging(connection: SqliteConnection): EmbeddingIdentity {
  const staging = readStaged(connection);
  if (staging === null) throw noStaging();
  return staging;
}

function setMeta(connection: SqliteConnection, key: string, value: string): void {
  connection.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value);
}
