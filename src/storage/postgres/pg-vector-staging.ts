/**
 * Staged vectors of another embedding model (`reembed`) in the PostgreSQL store: `embedding_staging`
 * keyed by memory id (an unsized `vector`, or `real[]`), the target model in `meta`. The switch
 * retypes `memories.embedding` to the target dimension, fills it from the staging and rebuilds the
 * HNSW index, in one transaction holding the schema's writer lock.
 */
import { EngramError, messages } from '../../core/errors.js';
import type { EmbeddingIdentity, JobLockHolder, StagingCandidate, StagingPage, VectorStaging } from '../../core/ports/vector-staging.js';
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
} from '../staging-rows.js';
import type { PgQueryable } from './pg-driver.js';
import type { VectorStorage } from './pg-migrations.js';
import { resetPartVectors } from './pg-parts.js';
import { vectorLiteral, type Tables } from './pg-rows.js';

const META_EMBEDDING_NAME = 'embedding.name';
const META_EMBEDDING_DIMENSION = 'embedding.dimension';
const NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/** What the staging needs from its store. */
export interface PgStagingHost {
  readonly tables: Tables;
  /** The model the store was opened with: staging refuses to go on once another run switched it. */
  readonly embedderName: string;
  readonly vectors: VectorStorage;
  /** Runs `fn` on the pool (committed data). */
  read<T>(action: string, fn: (db: PgQueryable) => Promise<T>): Promise<T>;
  /** Runs `fn` in one transaction holding the schema's writer lock. */
  locked<T>(action: string, fn: (session: PgQueryable) => Promise<T>): Promise<T>;
}

/**
 * Throws `LOCKED` when the schema's recorded model is no longer `name` (a reembed switched it after
 * this store was opened), so vectors of two models are never compared.
 */
export async function assertEmbedderCurrent(db: PgQueryable, tables: Tables, name: string): Promise<void> {
  const stored = (await db.query<{ value: string }>(`SELECT value FROM ${tables.meta} WHERE key = $1`, [META_EMBEDDING_NAME])).rows[0]
    ?.value;
  if (stored !== undefined && stored !== name) {
    throw new EngramError('LOCKED', messages.embedderSwitched(stored, name), { details: { stored, opened: name } });
  }
}

export class PgVectorStaging implements VectorStaging {
  readonly #host: PgStagingHost;

  constructor(host: PgStagingHost) {
    this.#host = host;
  }

  get #staging(): string {
    return this.#host.tables.q('embedding_staging');
  }

  async staged(): Promise<EmbeddingIdentity | null> {
    return this.#host.read('read the staging model', (db) => this.#readStaged(db));
  }

  async beginStaging(target: EmbeddingIdentity): Promise<{ kept: number; discarded: EmbeddingIdentity | null }> {
    return this.#host.locked('begin staging', async (session) => {
      await assertEmbedderCurrent(session, this.#host.tables, this.#host.embedderName);
      const current = await this.#readStaged(session);
      if (current !== null && sameIdentity(current, target)) {
        const kept = Number((await session.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.#staging}`)).rows[0]?.n ?? 0);
        return { kept, discarded: null };
      }
      await session.query(`DELETE FROM ${this.#staging}`);
      await this.#setMeta(session, META_STAGING_NAME, target.name);
      await this.#setMeta(session, META_STAGING_DIMENSION, String(target.dimension));
      return { kept: 0, discarded: current };
    });
  }

  async unstagedRecords(query: { cursor: string | null; limit: number }): Promise<StagingPage> {
    return this.#host.read('read records to re-embed', async (db) => {
      const t = this.#host.tables;
      // the mark first: a vector written after it makes its record's staged vector stale
      const mark = Number((await db.query<{ seq: string | null }>(`SELECT max(seq) AS seq FROM ${t.q('vector_log')}`)).rows[0]?.seq ?? 0);
      const after = query.cursor === null ? 0 : Number(query.cursor);
      const rows = (await db.query<CandidateRow & { seq: string }>(this.#unstagedSql(), [after, Math.max(1, Math.floor(query.limit))]))
        .rows;
      const last = rows[rows.length - 1];
      return { records: rows.map(toCandidate), mark: String(mark), cursor: String(last?.seq ?? after) };
    });
  }

  async stageVectors(vectors: readonly { id: string; embedding: Float32Array }[], mark: string): Promise<number> {
    if (vectors.length === 0) return 0;
    return this.#host.locked('stage vectors', async (session) => {
      await assertEmbedderCurrent(session, this.#host.tables, this.#host.embedderName);
      const staging = await this.#readStaged(session);
      if (staging === null) throw noStaging();
      for (const { embedding } of vectors) assertStagingDimension(embedding, staging);
      const changed = (
        await session.query<{ id: string }>(`SELECT DISTINCT memory_id AS id FROM ${this.#host.tables.q('vector_log')} WHERE seq > $1`, [
          Number(mark),
        ])
      ).rows.map((r) => r.id);
      return this.#insertStaged(session, vectors, changed);
    });
  }

  async stagingProgress(): Promise<{ records: number; staged: number }> {
    return this.#host.read('count staged vectors', async (db) => {
      const t = this.#host.tables;
      const row = (
        await db.query<{ records: string; staged: string }>(
          `SELECT (SELECT count(*) FROM ${t.memories}) AS records,
             (SELECT count(*) FROM ${this.#staging} s WHERE EXISTS (SELECT 1 FROM ${t.memories} m WHERE m.id = s.memory_id)) AS staged`,
        )
      ).rows[0];
      return { records: Number(row?.records ?? 0), staged: Number(row?.staged ?? 0) };
    });
  }

  async switchToStaged(
    target: EmbeddingIdentity,
    complete: (records: readonly StagingCandidate[]) => Promise<Float32Array[]>,
  ): Promise<{ records: number; chunks: number; completed: number }> {
    return this.#host.locked('switch to the staged vectors', async (session) => {
      await assertEmbedderCurrent(session, this.#host.tables, this.#host.embedderName);
      const t = this.#host.tables;
      const staging = await this.#readStaged(session);
      if (staging === null) throw noStaging();
      if (!sameIdentity(staging, target)) throw otherStaging(staging, target);
      // no writer can interleave now: embed what was written since the last pass, then swap
      let completed = 0;
      for (;;) {
        const rows = (await session.query<CandidateRow>(this.#unstagedSql(), [0, COMPLETE_BATCH])).rows;
        if (rows.length === 0) break;
        const embeddings = await complete(rows.map(toCandidate));
        const vectors = rows.map((row, i) => ({ id: row.id, embedding: assertStagingDimension(embeddings[i], staging) }));
        await this.#insertStaged(session, vectors, []);
        completed += rows.length;
      }
      const d = target.dimension;
      if (this.#host.vectors === 'pgvector') {
        await session.exec(`
          DROP INDEX IF EXISTS "${t.schema}".memories_embedding_hnsw;
          ALTER TABLE ${t.memories} ALTER COLUMN embedding DROP NOT NULL;
          ALTER TABLE ${t.memories} ALTER COLUMN embedding TYPE vector(${d}) USING NULL;
          UPDATE ${t.memories} m SET embedding = s.embedding::vector(${d}) FROM ${this.#staging} s WHERE s.memory_id = m.id;
          CREATE INDEX memories_embedding_hnsw ON ${t.memories} USING hnsw (embedding vector_cosine_ops);
        `);
      } else {
        await session.query(`UPDATE ${t.memories} m SET embedding = s.embedding FROM ${this.#staging} s WHERE s.memory_id = m.id`);
      }
      // the log is of the old vectors; caches built from it belong to the old model
      await session.exec(`DELETE FROM ${t.q('vector_log')}; DELETE FROM ${this.#staging};`);
      // and so are the part vectors: every record gets them again from the new model
      await resetPartVectors(session, t);
      await this.#setMeta(session, META_EMBEDDING_NAME, target.name);
      await this.#setMeta(session, META_EMBEDDING_DIMENSION, String(d));
      await session.query(`DELETE FROM ${t.meta} WHERE key IN ($1, $2)`, [META_STAGING_NAME, META_STAGING_DIMENSION]);
      // data is valid JSON here: the generated claim and concept columns cast it
      const counts = (
        await session.query<{ total: string; chunks: string }>(
          `SELECT count(*) AS total, count(*) FILTER (WHERE (data::jsonb) ? 'parentId') AS chunks FROM ${t.memories}`,
        )
      ).rows[0];
      const chunks = Number(counts?.chunks ?? 0);
      return { records: Number(counts?.total ?? 0) - chunks, chunks, completed };
    });
  }

  async discardStaging(): Promise<boolean> {
    return this.#host.locked('discard the staged vectors', async (session) => {
      const had = (await this.#readStaged(session)) !== null;
      await session.query(`DELETE FROM ${this.#staging}`);
      await session.query(`DELETE FROM ${this.#host.tables.meta} WHERE key IN ($1, $2)`, [META_STAGING_NAME, META_STAGING_DIMENSION]);
      return had;
    });
  }

  /** The HNSW index is rebuilt inside the switch; an exact store has none. */
  async rebuildVectorIndex(): Promise<string[]> {
    return [];
  }

  async liveJobLocks(prefix: string): Promise<JobLockHolder[]> {
    return this.#host.read('read job locks', async (db) => {
      const rows = await db.query<{ name: string; owner: string; expires_at: string }>(
        `SELECT name, owner, expires_at FROM ${this.#host.tables.jobLocks} WHERE starts_with(name, $1) AND expires_at > ${NOW_MS} ORDER BY name`,
        [prefix],
      );
      return rows.rows.map((r) => ({ name: r.name, owner: r.owner, expiresAt: Number(r.expires_at) }));
    });
  }

  async takeOverJobLock(name: string, fromOwner: string, toOwner: string, ttlMs: number): Promise<boolean> {
    return this.#host.read('take over a job lock', async (db) => {
      const result = await db.query(
        `UPDATE ${this.#host.tables.jobLocks} SET owner = $3, acquired_at = ${NOW_MS}, expires_at = ${NOW_MS} + $4::bigint WHERE name = $1 AND owner = $2`,
        [name, fromOwner, toOwner, Math.ceil(ttlMs)],
      );
      return result.rowCount > 0;
    });
  }

  #unstagedSql(): string {
    const t = this.#host.tables;
    return `SELECT m.seq, m.id, m.layer, m.content, m.data FROM ${t.memories} m
      WHERE m.seq > $1 AND NOT EXISTS (SELECT 1 FROM ${this.#staging} s WHERE s.memory_id = m.id) ORDER BY m.seq LIMIT $2`;
  }

  async #insertStaged(
    session: PgQueryable,
    vectors: readonly { id: string; embedding: Float32Array }[],
    skip: readonly string[],
  ): Promise<number> {
    const storage = this.#host.vectors;
    const cast = storage === 'pgvector' ? 'vector' : 'real[]';
    const result = await session.query(
      `INSERT INTO ${this.#staging} (memory_id, embedding)
       SELECT u.id, u.e::${cast} FROM unnest($1::text[], $2::text[]) AS u(id, e)
       WHERE EXISTS (SELECT 1 FROM ${this.#host.tables.memories} m WHERE m.id = u.id) AND NOT (u.id = ANY($3::text[]))
       ON CONFLICT (memory_id) DO UPDATE SET embedding = EXCLUDED.embedding`,
      [vectors.map((v) => v.id), vectors.map((v) => vectorLiteral(v.embedding, storage)), [...skip]],
    );
    return result.rowCount;
  }

  async #readStaged(db: PgQueryable): Promise<EmbeddingIdentity | null> {
    const rows = (
      await db.query<{ key: string; value: string }>(`SELECT key, value FROM ${this.#host.tables.meta} WHERE key IN ($1, $2)`, [
        META_STAGING_NAME,
        META_STAGING_DIMENSION,
      ])
    ).rows;
    return stagedIdentity(new Map(rows.map((r) => [r.key, r.value])));
  }

  async #setMeta(db: PgQueryable, key: string, value: string): Promise<void> {
    await db.query(
      `INSERT INTO ${this.#host.tables.meta} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [key, value],
    );
  }
}
