/**
 * The write half of the store port, only handed out by `SqliteStore.transaction` while its
 * `BEGIN IMMEDIATE` is open. Every call runs synchronously on the writer connection.
 */
import { EngramError, messages } from '../../core/errors.js';
import type { Edge, NewMemory, StoredBelief } from '../../core/memory.js';
import { keepEndedBeliefs, restoreBeliefs } from './sqlite-beliefs.js';
import type { AuditEntry, DeletedCounts, MemoryPatch, NewJob, PartVectors, StoreTransaction } from '../../core/ports/store.js';
import { writePartVectors } from './sqlite-parts.js';
import { appendAudit, deleteMemories, tombstoneMemories } from './sqlite-browse.js';
import { storedIds } from './sqlite-dump.js';
import { unseen } from '../dump-rows.js';
import type { Layer } from '../../core/memory.js';
import type { RelationType } from '../../core/relations.js';
import { registerRelationType, updateRelationType } from './sqlite-relations.js';
import { addConceptRefs, moveConceptRefs, removeConceptRefs } from './sqlite-concepts.js';
import { deleteState, writeState } from './sqlite-state.js';
import { enqueueJobs } from './sqlite-jobs.js';
import { assertScope, type Scope } from '../../core/scope.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { sqliteCode, toEngramError } from './sqlite-errors.js';
import { assertDimension } from '../../core/vectors.js';
import { SqliteReader, type ReaderContext } from './sqlite-reader.js';
import { edgeInsertParams, INSERT_EDGE_SQL, INSERT_MEMORY_SQL, memoryInsertParams, patchAssignments } from './sqlite-rows.js';
import { vectorBlob } from './ann/sqlite-vector-search.js';

/** Written vectors a transaction keeps in memory (8 MB at 512 dimensions); a bulk restore reads the rest back. */
const WRITTEN_VECTORS_KEPT = 4096;

/** Rows per multi-row INSERT (28 parameters a memory row; SQLite allows 32,766 a statement). */
const INSERT_ROWS = 32;

/** `prefix` followed by `count` copies of `tuple`, comma-separated. */
function repeatedValues(prefix: string, tuple: string, count: number): string {
  return `${prefix} ${Array.from({ length: count }, () => tuple).join(', ')}`;
}

/** INSERT_MEMORY_SQL for `count` rows, returning each row's rowid and id. */
function insertMemoriesSql(count: number): string {
  const [head, tuple] = INSERT_MEMORY_SQL.split(' VALUES ') as [string, string];
  return `${repeatedValues(`${head} VALUES`, tuple, count)} RETURNING rowid, id`;
}

export class SqliteTransaction extends SqliteReader implements StoreTransaction {
  readonly #context: ReaderContext;
  /** Vectors written in this transaction: rowid → scope. */
  readonly #pending = new Map<number, string>();
  /** The vectors this transaction wrote, as it wrote them, so its searches need not read them back. */
  readonly #written = new Map<number, Float32Array>();

  /** `context.connection` is the writer, inside `BEGIN IMMEDIATE`. */
  constructor(context: ReaderContext) {
    super(context);
    this.#context = context;
  }

  protected override pendingVectors(): ReadonlyMap<number, string> {
    return this.#pending;
  }

  protected override pendingVector(rowid: number): Float32Array | undefined {
    return this.#written.get(rowid);
  }

  async insertMemories(memories: readonly NewMemory[]): Promise<void> {
    this.#write('insert memories', (connection) => {
      for (let start = 0; start < memories.length; start += INSERT_ROWS)
        this.#insertRows(connection, memories.slice(start, start + INSERT_ROWS));
    });
  }

  async restoreMemories(memories: readonly NewMemory[]): Promise<string[]> {
    return this.#write('restore memories', (connection) => {
      const stored = storedIds(
        connection,
        'memories',
        memories.map((m) => m.record.id),
      );
      const inserted: string[] = [];
      for (const memory of memories) {
        if (stored.has(memory.record.id)) continue;
        this.#insertMemory(connection, memory);
        stored.add(memory.record.id);
        inserted.push(memory.record.id);
      }
      return inserted;
    });
  }

  async restoreEdges(edges: readonly Edge[]): Promise<string[]> {
    return this.#write('restore edges', (connection) => {
      const stored = storedIds(
        connection,
        'edges',
        edges.map((e) => e.id),
      );
      const fresh = unseen(edges, stored);
      this.#insertEdges(connection, fresh);
      return fresh.map((e) => e.id);
    });
  }

  async restoreBeliefs(beliefs: readonly StoredBelief[]): Promise<number> {
    return this.#write('restore belief intervals', (connection) => restoreBeliefs(connection, beliefs));
  }

  async restoreAudit(entries: readonly AuditEntry[]): Promise<string[]> {
    return this.#write('restore audit entries', (connection) => {
      const fresh = unseen(
        entries,
        storedIds(
          connection,
          'audit_log',
          entries.map((e) => e.id),
        ),
      );
      for (const entry of fresh) {
        assertScope(entry.scope);
        appendAudit(connection, entry);
      }
      return fresh.map((e) => e.id);
    });
  }

  /**
   * Inserts up to `INSERT_ROWS` memories with one statement per table: a trigger makes each INSERT
   * statement journal the pages it touches, so one statement for many rows journals each page once.
   */
  #insertRows(connection: SqliteConnection, memories: readonly NewMemory[]): void {
    if (memories.length === 1) return this.#insertMemory(connection, memories[0] as NewMemory);
    for (const { record, embedding } of memories) {
      assertScope(record.scope);
      assertDimension(embedding, this.#context.dimension, 'embedding');
    }
    const inserted = connection.all<{ rowid: number; id: string }>(
      insertMemoriesSql(memories.length),
      ...memories.flatMap(({ record }) => memoryInsertParams(record)),
    );
    const rowidOf = new Map(inserted.map((row) => [row.id, row.rowid]));
    const rows = memories.map(({ record, embedding }) => ({ rowid: rowidOf.get(record.id) as number, scope: record.scope, embedding }));
    connection.run(
      repeatedValues('INSERT INTO memory_vectors (rowid, scope, embedding) VALUES', '(?, ?, ?)', rows.length),
      ...rows.flatMap((row) => [BigInt(row.rowid), row.scope, vectorBlob(row.embedding)]),
    );
    connection.run(
      repeatedValues('INSERT INTO vector_changes (scope, memory_rowid) VALUES', '(?, ?)', rows.length),
      ...rows.flatMap((row) => [row.scope, row.rowid]),
    );
    for (const row of rows) {
      this.#pending.set(row.rowid, row.scope);
      this.#keepWritten(row.rowid, row.embedding);
    }
  }

  #insertMemory(connection: SqliteConnection, { record, embedding }: NewMemory): void {
    assertScope(record.scope);
    assertDimension(embedding, this.#context.dimension, 'embedding');
    const rowid = connection.insert(INSERT_MEMORY_SQL, ...memoryInsertParams(record));
    connection.run(
      'INSERT INTO memory_vectors (rowid, scope, embedding) VALUES (?, ?, ?)',
      BigInt(rowid),
      record.scope,
      vectorBlob(embedding),
    );
    this.#vectorChanged(connection, rowid, record.scope);
    this.#keepWritten(rowid, embedding);
  }

  async updateMemory(id: string, scope: Scope, patch: MemoryPatch): Promise<boolean> {
    return this.#write('update a memory', (connection) => {
      assertScope(scope);
      const { sql, params } = patchAssignments(patch);
      if (sql.length === 0) return connection.get('SELECT 1 FROM memories WHERE id = ? AND scope = ?', id, scope) !== undefined;
      keepEndedBeliefs(connection, id, scope, patch);
      return connection.run(`UPDATE memories SET ${sql} WHERE id = ? AND scope = ?`, ...params, id, scope) > 0;
    });
  }

  async updateEmbedding(id: string, scope: Scope, embedding: Float32Array): Promise<void> {
    this.#write('update an embedding', (connection) => {
      assertScope(scope);
      assertDimension(embedding, this.#context.dimension, 'embedding');
      const row = connection.get<{ rowid: number }>('SELECT rowid FROM memories WHERE id = ? AND scope = ?', id, scope);
      if (row === undefined) throw new EngramError('NOT_FOUND', messages.notFound(id), { details: { id, scope } });
      const rowid = BigInt(row.rowid);
      const changed = connection.run('UPDATE memory_vectors SET embedding = ? WHERE rowid = ?', vectorBlob(embedding), rowid);
      if (changed === 0)
        connection.run('INSERT INTO memory_vectors (rowid, scope, embedding) VALUES (?, ?, ?)', rowid, scope, vectorBlob(embedding));
      // a vector staged for a reembed was made from the old text: it is made again
      connection.run('DELETE FROM embedding_staging WHERE memory_rowid = ?', rowid);
      this.#vectorChanged(connection, row.rowid, scope);
      this.#keepWritten(row.rowid, embedding);
    });
  }

  async setPartVectors(entries: readonly PartVectors[]): Promise<number> {
    if (entries.length === 0) return 0;
    return this.#write('store part vectors', (connection) => writePartVectors(connection, entries, this.#context.dimension));
  }

  async insertEdges(edges: readonly Edge[]): Promise<void> {
    this.#write('insert edges', (connection) => this.#insertEdges(connection, edges));
  }

  #insertEdges(connection: SqliteConnection, edges: readonly Edge[]): void {
    for (const edge of edges) {
      assertScope(edge.scope);
      try {
        connection.run(INSERT_EDGE_SQL, ...edgeInsertParams(edge));
      } catch (error) {
        if (sqliteCode(error) !== 'SQLITE_CONSTRAINT_FOREIGNKEY') throw error;
        throw new EngramError(
          'INVALID_INPUT',
          messages.invalidInput('an edge must connect two existing memories of its own scope; write both ends in that scope first'),
          { details: { edgeId: edge.id, scope: edge.scope }, cause: error },
        );
      }
    }
  }

  async invalidateEdges(ids: readonly string[], scope: Scope, at: number): Promise<number> {
    return this.#write('invalidate edges', (connection) => {
      assertScope(scope);
      if (ids.length === 0) return 0;
      return connection.run(
        'UPDATE edges SET invalidated_at = ? WHERE scope = ? AND invalidated_at IS NULL AND id IN (SELECT value FROM json_each(?))',
        at,
        scope,
        JSON.stringify(ids),
      );
    });
  }

  async updateEdge(id: string, scope: Scope, patch: { weight?: number; metadata?: Record<string, unknown> }): Promise<boolean> {
    return this.#write('update an edge', (connection) => {
      assertScope(scope);
      if (patch.weight !== undefined && !Number.isFinite(patch.weight)) {
        throw new EngramError('INVALID_INPUT', messages.invalidInput('an edge weight must be a finite number'));
      }
      return (
        connection.run(
          `UPDATE edges SET weight = coalesce(?, weight), metadata = coalesce(?, metadata) WHERE id = ? AND scope = ?`,
          patch.weight ?? null,
          patch.metadata === undefined ? null : JSON.stringify(patch.metadata),
          id,
          scope,
        ) > 0
      );
    });
  }

  async registerRelationType(type: RelationType): Promise<RelationType> {
    return this.#write('register a relation type', (connection) => registerRelationType(connection, type));
  }

  async updateRelationType(
    tenant: string,
    name: string,
    patch: { description?: string | null; proposedBy?: string | null },
  ): Promise<boolean> {
    return this.#write('update a relation type', (connection) => updateRelationType(connection, tenant, name, patch));
  }

  async addConceptRefs(input: {
    scope: Scope;
    conceptId: string;
    layer: Layer;
    refIds: readonly string[];
    cap?: number;
  }): Promise<{ added: string[]; evicted: string[] }> {
    return this.#write('add concept refs', (connection) => addConceptRefs(connection, input));
  }

  async moveConceptRefs(fromRefId: string, toRefId: string, scope: Scope): Promise<number> {
    return this.#write('move concept refs', (connection) => moveConceptRefs(connection, fromRefId, toRefId, scope));
  }

  async removeConceptRefs(refIds: readonly string[], scope: Scope): Promise<number> {
    return this.#write('remove concept refs', (connection) => removeConceptRefs(connection, refIds, scope));
  }

  async setState(scope: Scope, key: string, value: unknown, at: number): Promise<void> {
    this.#write('write state', (connection) => writeState(connection, scope, key, value, at));
  }

  async deleteState(scope: Scope, key: string): Promise<boolean> {
    return this.#write('delete state', (connection) => deleteState(connection, scope, key));
  }

  async enqueueJobs(jobs: readonly NewJob[], at: number): Promise<number> {
    return this.#write('enqueue jobs', (connection) => enqueueJobs(connection, jobs, at));
  }

  async deleteMemories(ids: readonly string[], scope: Scope): Promise<DeletedCounts> {
    return this.#write('purge memories', (connection) => {
      const { rowids, ...counts } = deleteMemories(connection, ids, scope);
      // searches in this transaction skip the committed index entries of these rows (they find no vector)
      for (const rowid of rowids) {
        this.#pending.set(rowid, scope);
        this.#written.delete(rowid);
      }
      return counts;
    });
  }

  async tombstoneMemories(tombstones: readonly { id: string; patch: MemoryPatch }[], scope: Scope): Promise<DeletedCounts> {
    return this.#write('expire memories', (connection) => {
      const { rowids, ...counts } = tombstoneMemories(connection, tombstones, scope);
      for (const rowid of rowids) {
        this.#pending.set(rowid, scope);
        this.#written.delete(rowid);
      }
      return counts;
    });
  }

  async appendAudit(entry: AuditEntry): Promise<void> {
    this.#write('append an audit entry', (connection) => appendAudit(connection, entry));
  }

  #keepWritten(rowid: number, embedding: Float32Array): void {
    if (this.#written.size < WRITTEN_VECTORS_KEPT) this.#written.set(rowid, Float32Array.from(embedding));
  }

  #vectorChanged(connection: SqliteConnection, rowid: number, scope: Scope): void {
    connection.run('INSERT INTO vector_changes (scope, memory_rowid) VALUES (?, ?)', scope, rowid);
    this.#pending.set(rowid, scope);
    this.#written.delete(rowid);
  }

  #write<T>(action: string, fn: (connection: SqliteConnection) => T): T {
    this.#context.assertUsable();
    const { connection } = this.#context;
    if (!connection.inTransaction) {
      throw new EngramError(
        'INTERNAL',
        messages.storageUnavailable('the transaction was aborted by an earlier failure and can no longer write'),
        {
          details: { action },
        },
      );
    }
    // a savepoint makes each call all-or-nothing, so a caller may catch e.g. CONFLICT and go on
    connection.exec('SAVEPOINT engram_write');
    try {
      const result = fn(connection);
      connection.exec('RELEASE engram_write');
      return result;
    } catch (error) {
      if (connection.inTransaction) connection.exec('ROLLBACK TO engram_write; RELEASE engram_write');
      throw toEngramError(error, action);
    }
  }
}
