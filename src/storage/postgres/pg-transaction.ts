/**
 * The write half of the store port, only handed out by `PostgresStore.transaction` while its
 * transaction is open (and its writer lock held). Each call runs in a savepoint, so a caller may catch
 * e.g. CONFLICT and go on with the transaction.
 */
import { storedStringList } from '../../core/readable-records.js';
import { EngramError, messages } from '../../core/errors.js';
import type { Edge, NewMemory, StoredBelief } from '../../core/memory.js';
import { keepEndedBeliefs, restoreBeliefs } from './pg-beliefs.js';
import type { AuditEntry, DeletedCounts, MemoryPatch, NewJob, PartVectors, StoreTransaction } from '../../core/ports/store.js';
import { appendAudit, deleteMemories, tombstoneMemories } from './pg-browse.js';
import { storedIds } from './pg-dump.js';
import { unseen } from '../dump-rows.js';
import type { Layer } from '../../core/memory.js';
import type { RelationType } from '../../core/relations.js';
import { registerRelationType, updateRelationType } from './pg-relations.js';
import { addConceptRefs, moveConceptRefs, removeConceptRefs } from './pg-concepts.js';
import { deleteState, writeState } from './pg-state.js';
import { enqueueJobs } from './pg-jobs.js';
import { writePartVectors } from './pg-parts.js';
import { assertScope, type Scope } from '../../core/scope.js';
import { inSavepoint, type PgQueryable } from './pg-driver.js';
import { pgCode, toEngramError } from './pg-errors.js';
import { assertDimension } from '../../core/vectors.js';
import { PgReader, type PgReaderContext } from './pg-reader.js';
import {
  EDGE_FIELDS,
  edgeValues,
  lexemesOf,
  MEMORY_FIELDS,
  memoryValues,
  Params,
  patchAssignments,
  termLength,
  vectorLiteral,
} from './pg-rows.js';

/**
 * Rows of one multi-row memory INSERT: 29 parameters a row (14,500 a statement) stay far below
 * PostgreSQL's 65,535, and a statement's text (a 768-d vector is ~8 KB as text) stays a few MB.
 */
const INSERT_ROWS = 500;

export class PgTransaction extends PgReader implements StoreTransaction {
  readonly #context: PgReaderContext;
  #insertedRows = 0;

  /** Memory rows this transaction inserted (the store keeps the planner's statistics up with them). */
  get insertedRows(): number {
    return this.#insertedRows;
  }

  constructor(context: PgReaderContext) {
    super(context);
    this.#context = context;
  }

  async insertMemories(memories: readonly NewMemory[]): Promise<void> {
    await this.write('insert memories', async (db) => {
      await this.#insertMemories(db, memories);
    });
  }

  async restoreMemories(memories: readonly NewMemory[]): Promise<string[]> {
    return this.write('restore memories', async (db) => {
      const stored = await storedIds(
        db,
        this.tables.memories,
        memories.map((m) => m.record.id),
      );
      const fresh: NewMemory[] = [];
      for (const memory of memories) {
        if (stored.has(memory.record.id)) continue;
        stored.add(memory.record.id);
        fresh.push(memory);
      }
      await this.#insertMemories(db, fresh);
      return fresh.map((m) => m.record.id);
    });
  }

  async restoreEdges(edges: readonly Edge[]): Promise<string[]> {
    return this.write('restore edges', async (db) => {
      const stored = await storedIds(
        db,
        this.tables.edges,
        edges.map((e) => e.id),
      );
      const fresh = unseen(edges, stored);
      await this.#insertEdges(db, fresh);
      return fresh.map((e) => e.id);
    });
  }

  async restoreBeliefs(beliefs: readonly StoredBelief[]): Promise<number> {
    return this.write('restore belief intervals', (db) => restoreBeliefs(db, this.tables, beliefs));
  }

  async restoreAudit(entries: readonly AuditEntry[]): Promise<string[]> {
    return this.write('restore audit entries', async (db) => {
      const fresh = unseen(
        entries,
        await storedIds(
          db,
          this.tables.q('audit_log'),
          entries.map((e) => e.id),
        ),
      );
      for (const entry of fresh) {
        assertScope(entry.scope);
        await appendAudit(db, this.tables, entry);
      }
      return fresh.map((e) => e.id);
    });
  }

  /**
   * Inserts memories with multi-row statements of up to {@link INSERT_ROWS} rows (one round trip and
   * one plan each instead of one per record), each logging its vectors for the vector caches.
   */
  async #insertMemories(db: PgQueryable, memories: readonly NewMemory[]): Promise<void> {
    const { dimension, vectors } = this.#context;
    const cast = vectors === 'pgvector' ? 'vector' : 'real[]';
    for (const { record, embedding } of memories) {
      assertScope(record.scope);
      assertDimension(embedding, dimension, 'embedding');
    }
    for (let from = 0; from < memories.length; from += INSERT_ROWS) {
      const p = new Params();
      const rows = memories.slice(from, from + INSERT_ROWS).map(({ record, embedding }) => {
        const values = memoryValues(record).map((v) => p.add(v));
        const lexemes = p.add(lexemesOf(record.content, record.tags, record.entities));
        return `(${values.join(', ')}, ${p.add(termLength(record.content))}, array_to_tsvector(${lexemes}::text[]), ${p.add(vectorLiteral(embedding, vectors))}::${cast})`;
      });
      const sql = `WITH inserted AS (
          INSERT INTO ${this.tables.memories} (${MEMORY_FIELDS.join(', ')}, term_count, lexemes, embedding)
          VALUES ${rows.join(',\n')}
          RETURNING scope, id)
        INSERT INTO ${this.tables.q('vector_log')} (scope, memory_id) SELECT scope, id FROM inserted`;
      await db.query(sql, p.values);
    }
    this.#insertedRows += memories.length;
  }

  async updateMemory(id: string, scope: Scope, patch: MemoryPatch): Promise<boolean> {
    return this.write('update a memory', async (db) => {
      assertScope(scope);
      const p = new Params();
      const assignments = patchAssignments(patch, p);
      if (assignments.length === 0) {
        return (await db.query(`SELECT 1 FROM ${this.tables.memories} WHERE id = $1 AND scope = $2`, [id, scope])).rows.length > 0;
      }
      await keepEndedBeliefs(db, this.tables, id, scope, patch);
      const updated = await db.query<{ content: string; tags: string; entities: string }>(
        `UPDATE ${this.tables.memories} SET ${assignments.join(', ')} WHERE id = ${p.add(id)} AND scope = ${p.add(scope)} RETURNING content, tags, entities`,
        p.values,
      );
      const row = updated.rows[0];
      if (row === undefined) return false;
      if (patch.content !== undefined || patch.tags !== undefined || patch.entities !== undefined) {
        const lexemes = lexemesOf(row.content, storedStringList(row.tags), storedStringList(row.entities));
        await db.query(`UPDATE ${this.tables.memories} SET lexemes = array_to_tsvector($1::text[]) WHERE id = $2 AND scope = $3`, [
          lexemes,
          id,
          scope,
        ]);
      }
      return true;
    });
  }

  async updateEmbedding(id: string, scope: Scope, embedding: Float32Array): Promise<void> {
    await this.write('update an embedding', async (db) => {
      assertScope(scope);
      assertDimension(embedding, this.#context.dimension, 'embedding');
      const cast = this.#context.vectors === 'pgvector' ? 'vector' : 'real[]';
      const result = await db.query(`UPDATE ${this.tables.memories} SET embedding = $1::${cast} WHERE id = $2 AND scope = $3`, [
        vectorLiteral(embedding, this.#context.vectors),
        id,
        scope,
      ]);
      if (result.rowCount === 0) throw new EngramError('NOT_FOUND', messages.notFound(id), { details: { id, scope } });
      // a vector staged for a reembed was made from the old text: it is made again
      await db.query(
        `WITH unstaged AS (DELETE FROM ${this.tables.q('embedding_staging')} WHERE memory_id = $2)
         INSERT INTO ${this.tables.q('vector_log')} (scope, memory_id) VALUES ($1, $2)`,
        [scope, id],
      );
    });
  }

  async setPartVectors(entries: readonly PartVectors[]): Promise<number> {
    return this.write('store part vectors', (db) => writePartVectors(db, this.tables, entries, this.#context.dimension));
  }

  async insertEdges(edges: readonly Edge[]): Promise<void> {
    await this.write('insert edges', (db) => this.#insertEdges(db, edges));
  }

  async #insertEdges(db: PgQueryable, edges: readonly Edge[]): Promise<void> {
    for (const edge of edges) {
      assertScope(edge.scope);
      const p = new Params();
      try {
        await db.query(
          `INSERT INTO ${this.tables.edges} (${EDGE_FIELDS.join(', ')}) VALUES (${edgeValues(edge)
            .map((v) => p.add(v))
            .join(', ')})`,
          p.values,
        );
      } catch (error) {
        if (pgCode(error) !== '23503') throw error;
        throw new EngramError(
          'INVALID_INPUT',
          messages.invalidInput('an edge must connect two existing memories of its own scope; write both ends in that scope first'),
          { details: { edgeId: edge.id, scope: edge.scope }, cause: error },
        );
      }
    }
  }

  async invalidateEdges(ids: readonly string[], scope: Scope, at: number): Promise<number> {
    return this.write('invalidate edges', async (db) => {
      assertScope(scope);
      if (ids.length === 0) return 0;
      const result = await db.query(
        `UPDATE ${this.tables.edges} SET invalidated_at = $1 WHERE scope = $2 AND invalidated_at IS NULL AND id = ANY($3::text[])`,
        [at, scope, [...ids]],
      );
      return result.rowCount;
    });
  }

  async updateEdge(id: string, scope: Scope, patch: { weight?: number; metadata?: Record<string, unknown> }): Promise<boolean> {
    return this.write('update an edge', async (db) => {
      assertScope(scope);
      if (patch.weight !== undefined && !Number.isFinite(patch.weight)) {
        throw new EngramError('INVALID_INPUT', messages.invalidInput('an edge weight must be a finite number'));
      }
      const result = await db.query(
        `UPDATE ${this.tables.edges} SET weight = coalesce($1::float8, weight), metadata = coalesce($2::text, metadata) WHERE id = $3 AND scope = $4`,
        [patch.weight ?? null, patch.metadata === undefined ? null : JSON.stringify(patch.metadata), id, scope],
      );
      return result.rowCount > 0;
    });
  }

  async registerRelationType(type: RelationType): Promise<RelationType> {
    return this.write('register a relation type', (db) => registerRelationType(db, this.tables, type));
  }

  async updateRelationType(
    tenant: string,
    name: string,
    patch: { description?: string | null; proposedBy?: string | null },
  ): Promise<boolean> {
    return this.write('update a relation type', (db) => updateRelationType(db, this.tables, tenant, name, patch));
  }

  async addConceptRefs(input: {
    scope: Scope;
    conceptId: string;
    layer: Layer;
    refIds: readonly string[];
    cap?: number;
  }): Promise<{ added: string[]; evicted: string[] }> {
    return this.write('add concept refs', (db) => addConceptRefs(db, this.tables, input));
  }

  async moveConceptRefs(fromRefId: string, toRefId: string, scope: Scope): Promise<number> {
    return this.write('move concept refs', (db) => moveConceptRefs(db, this.tables, fromRefId, toRefId, scope));
  }

  async removeConceptRefs(refIds: readonly string[], scope: Scope): Promise<number> {
    return this.write('remove concept refs', (db) => removeConceptRefs(db, this.tables, refIds, scope));
  }

  async setState(scope: Scope, key: string, value: unknown, at: number): Promise<void> {
    await this.write('write state', (db) => writeState(db, this.tables, scope, key, value, at));
  }

  async deleteState(scope: Scope, key: string): Promise<boolean> {
    return this.write('delete state', (db) => deleteState(db, this.tables, scope, key));
  }

  async enqueueJobs(jobs: readonly NewJob[], at: number): Promise<number> {
    return this.write('enqueue jobs', (db) => enqueueJobs(db, this.tables, jobs, at));
  }

  async deleteMemories(ids: readonly string[], scope: Scope): Promise<DeletedCounts> {
    return this.write('purge memories', (db) => deleteMemories(db, this.tables, ids, scope));
  }

  async tombstoneMemories(tombstones: readonly { id: string; patch: MemoryPatch }[], scope: Scope): Promise<DeletedCounts> {
    return this.write('expire memories', (db) => tombstoneMemories(db, this.tables, tombstones, scope));
  }

  async appendAudit(entry: AuditEntry): Promise<void> {
    await this.write('append an audit entry', (db) => appendAudit(db, this.tables, entry));
  }

  /** Runs one write call in a savepoint: all of it or none of it, and the transaction stays usable. */
  protected async write<T>(action: string, fn: (db: PgQueryable) => Promise<T>): Promise<T> {
    this.#context.assertUsable();
    const { db } = this.#context;
    try {
      return await inSavepoint(db, 'engram_write', () => fn(db));
    } catch (error) {
      throw toEngramError(error, action);
    }
  }
}
