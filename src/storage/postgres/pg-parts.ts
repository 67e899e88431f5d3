/**
 * Part vectors in the PostgreSQL store: `memory_parts` holds one blob a record (`../part-vectors.ts`),
 * `parts_pending` the records still to be answered. Triggers on `memories` (migration 23) make every
 * inserted record pending and drop the parts of a record whose content changes; both tables reference
 * the record with ON DELETE CASCADE, so no write path has to remember them.
 */
import type { PartsCandidate, PartVectors } from '../../core/ports/store.js';
import { assertReadScopes, assertScope, type Scope } from '../../core/scope.js';
import { encodePartVectors } from '../part-vectors.js';
import { toCandidate, type CandidateRow } from '../staging-rows.js';
import type { PgQueryable } from './pg-driver.js';
import type { Tables } from './pg-rows.js';

/**
 * Migration 23: the tables, and the triggers that keep the pending list. The trigger functions live in
 * the schema, so schemas sharing a database keep their own; inserts are made pending once a statement
 * (a batch inserts up to 500 rows), edits once a changed row.
 */
export function partsSchemaSql(t: Tables): string {
  const parts = t.q('memory_parts');
  const pending = t.q('parts_pending');
  return `
    CREATE TABLE ${parts} (
      memory_id text COLLATE "C" PRIMARY KEY REFERENCES ${t.memories} (id) ON DELETE CASCADE,
      parts bytea NOT NULL
    );
    CREATE TABLE ${pending} (
      memory_id text COLLATE "C" PRIMARY KEY REFERENCES ${t.memories} (id) ON DELETE CASCADE,
      scope text NOT NULL,
      seq bigint NOT NULL
    );
    CREATE INDEX parts_pending_scope_seq ON ${pending} (scope, seq);
    CREATE INDEX parts_pending_seq ON ${pending} (seq);
    INSERT INTO ${pending} (memory_id, scope, seq) SELECT id, scope, seq FROM ${t.memories};

    CREATE FUNCTION ${t.q('parts_pending_on_insert')}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ${pending} (memory_id, scope, seq) SELECT id, scope, seq FROM inserted ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;
    CREATE TRIGGER parts_pending_on_insert AFTER INSERT ON ${t.memories} REFERENCING NEW TABLE AS inserted
      FOR EACH STATEMENT EXECUTE FUNCTION ${t.q('parts_pending_on_insert')}();

    CREATE FUNCTION ${t.q('parts_pending_on_edit')}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM ${parts} WHERE memory_id = NEW.id;
      INSERT INTO ${pending} (memory_id, scope, seq) VALUES (NEW.id, NEW.scope, NEW.seq) ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;
    CREATE TRIGGER parts_pending_on_edit AFTER UPDATE OF content ON ${t.memories}
      FOR EACH ROW WHEN (OLD.content IS DISTINCT FROM NEW.content) EXECUTE FUNCTION ${t.q('parts_pending_on_edit')}();
`;
}

/**
 * Migration 24: a generation number per scope that every change to its part vectors raises, so that a
 * process can keep the part blobs it read (`PartBlobCache`) and check in one small read that they are
 * still current. Raised by statement triggers on `memory_parts` (stored, replaced, cleared, dropped by
 * a content edit or a model switch: each joined to its record for the scope) and on `memories` for
 * deleted records, whose parts go by cascade after the record (no longer there to join), and for a
 * record moved to another scope (both scopes); a TRUNCATE raises every scope's.
 */
export function partsGenerationSql(t: Tables): string {
  const generation = t.q('parts_generation');
  const bump = (select: string) => `
      INSERT INTO ${generation} (scope, generation) ${select}
      ON CONFLICT (scope) DO UPDATE SET generation = ${generation}.generation + 1;`;
  return `
    CREATE TABLE ${generation} (scope text COLLATE "C" PRIMARY KEY, generation bigint NOT NULL);

    CREATE FUNCTION ${t.q('parts_generation_on_parts')}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN${bump(`SELECT DISTINCT m.scope, 1 FROM changed c JOIN ${t.memories} m ON m.id = c.memory_id`)}
      RETURN NULL;
    END $$;
    CREATE TRIGGER parts_generation_on_insert AFTER INSERT ON ${t.q('memory_parts')} REFERENCING NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION ${t.q('parts_generation_on_parts')}();
    CREATE TRIGGER parts_generation_on_update AFTER UPDATE ON ${t.q('memory_parts')} REFERENCING NEW TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION ${t.q('parts_generation_on_parts')}();
    CREATE TRIGGER parts_generation_on_delete AFTER DELETE ON ${t.q('memory_parts')} REFERENCING OLD TABLE AS changed
      FOR EACH STATEMENT EXECUTE FUNCTION ${t.q('parts_generation_on_parts')}();

    CREATE FUNCTION ${t.q('parts_generation_on_truncate')}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE ${generation} SET generation = generation + 1;
      RETURN NULL;
    END $$;
    CREATE TRIGGER parts_generation_on_truncate AFTER TRUNCATE ON ${t.q('memory_parts')}
      FOR EACH STATEMENT EXECUTE FUNCTION ${t.q('parts_generation_on_truncate')}();

    CREATE FUNCTION ${t.q('parts_generation_on_memory_delete')}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN${bump('SELECT DISTINCT scope, 1 FROM deleted')}
      RETURN NULL;
    END $$;
    CREATE TRIGGER parts_generation_on_memory_delete AFTER DELETE ON ${t.memories} REFERENCING OLD TABLE AS deleted
      FOR EACH STATEMENT EXECUTE FUNCTION ${t.q('parts_generation_on_memory_delete')}();

    CREATE FUNCTION ${t.q('parts_generation_on_scope_change')}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN${bump('SELECT DISTINCT s, 1::bigint FROM (VALUES (OLD.scope), (NEW.scope)) AS v(s)')}
      RETURN NULL;
    END $$;
    CREATE TRIGGER parts_generation_on_scope_change AFTER UPDATE OF scope ON ${t.memories}
      FOR EACH ROW WHEN (OLD.scope IS DISTINCT FROM NEW.scope) EXECUTE FUNCTION ${t.q('parts_generation_on_scope_change')}();
`;
}

/** Entries per statement (four array parameters, whatever their number). */
const ANSWER_ROWS = 500;

/**
 * Stores the parts of each entry whose record still has that id, scope and content (empty parts: none
 * kept) and takes those records off the pending list; returns how many were answered. Every entry is
 * checked before anything is written, so a vector of another dimension stores nothing of the call.
 */
export async function writePartVectors(db: PgQueryable, t: Tables, entries: readonly PartVectors[], dimension: number): Promise<number> {
  // the last answer for an id wins (one statement cannot upsert a row twice)
  const byId = new Map<string, { scope: Scope; content: string; blob: string }>();
  for (const entry of entries) {
    assertScope(entry.scope);
    const blob = encodePartVectors(entry.parts, dimension);
    byId.delete(entry.id);
    byId.set(entry.id, { scope: entry.scope, content: entry.content, blob: hex(blob) });
  }
  const rows = [...byId];
  let answered = 0;
  for (let from = 0; from < rows.length; from += ANSWER_ROWS) {
    const slice = rows.slice(from, from + ANSWER_ROWS);
    const result = await db.query<{ n: number }>(
      `WITH answered AS (
         SELECT u.id, u.parts FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(id, scope, content, parts)
         JOIN ${t.memories} m ON m.id = u.id AND m.scope = u.scope AND m.content = u.content),
       stored AS (
         INSERT INTO ${t.q('memory_parts')} (memory_id, parts) SELECT id, decode(parts, 'hex') FROM answered WHERE parts <> ''
         ON CONFLICT (memory_id) DO UPDATE SET parts = EXCLUDED.parts),
       cleared AS (
         DELETE FROM ${t.q('memory_parts')} p USING answered a WHERE p.memory_id = a.id AND a.parts = ''),
       unpended AS (
         DELETE FROM ${t.q('parts_pending')} p USING answered a WHERE p.memory_id = a.id)
       SELECT count(*)::int AS n FROM answered`,
      [slice.map(([id]) => id), slice.map(([, e]) => e.scope), slice.map(([, e]) => e.content), slice.map(([, e]) => e.blob)],
    );
    answered += Number(result.rows[0]?.n ?? 0);
  }
  return answered;
}

/** The stored part blobs of those of `ids` in `scopes`, by id. */
export async function readPartBlobs(
  db: PgQueryable,
  t: Tables,
  query: { scopes: readonly Scope[]; ids: readonly string[] },
): Promise<Map<string, Uint8Array>> {
  const byId = new Map<string, Uint8Array>();
  if (query.ids.length === 0) return byId;
  const rows = await db.query<{ id: string; parts: Uint8Array }>(
    `SELECT p.memory_id AS id, p.parts FROM ${t.q('memory_parts')} p JOIN ${t.memories} m ON m.id = p.memory_id
     WHERE p.memory_id = ANY($1::text[]) AND m.scope = ANY($2::text[])`,
    [[...new Set(query.ids)], [...query.scopes]],
  );
  for (const row of rows.rows) byId.set(row.id, row.parts);
  return byId;
}

/** Part blobs a process keeps at most, in bytes (past it, it lets all go and starts again). */
const PART_CACHE_BYTES = 64 * 2 ** 20;
/** Held for a record read without parts. */
const NO_PARTS = new Uint8Array(0);

/** What a process holds of one scope's part blobs, read while the scope was at `generation`. */
interface ScopeParts {
  readonly generation: string;
  readonly blobs: Map<string, Uint8Array>;
  bytes: number;
}

/**
 * The part blobs this process has read, by scope, each scope's valid while its generation
 * (`parts_generation`, migration 24) is unchanged. A recall's part scores are asked for the same
 * candidates again and again; reading their blobs was nearly all of the re-score's cost here (~5 ms a
 * recall of 300 candidates on a local server, against one small read of the generations now).
 *
 * A read takes the generations first and the blobs after, in two snapshots: what it keeps may be newer
 * than the generation it is filed under, never older, and any change after raises the generation, so
 * the next read lets the scope go. A record is found only in the scopes asked for, so nothing kept for
 * one read reaches a read of other scopes. Only for reads outside a transaction (a transaction sees its
 * own uncommitted writes); a purge in this process lets everything go at once.
 */
export class PartBlobCache {
  readonly #scopes = new Map<string, ScopeParts>();
  readonly #budget: number;
  #bytes = 0;

  constructor(budget = PART_CACHE_BYTES) {
    this.#budget = budget;
  }

  /** The stored part blobs of those of `ids` in `scopes`, by id (as `readPartBlobs`). */
  async read(db: PgQueryable, t: Tables, query: { scopes: readonly Scope[]; ids: readonly string[] }): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    const ids = [...new Set(query.ids)];
    const scopes = [...new Set(query.scopes)];
    if (ids.length === 0) return out;
    const current = await db.query<{ scope: string; generation: string }>(
      `SELECT scope, generation::text AS generation FROM ${t.q('parts_generation')} WHERE scope = ANY($1::text[])`,
      [scopes],
    );
    const generations = new Map(current.rows.map((row) => [row.scope, row.generation]));
    // this read's entry of each scope: a concurrent read that saw a newer generation replaces it, and
    // then what this one read is not kept
    const held = new Map<string, ScopeParts>();
    for (const scope of scopes) {
      const generation = generations.get(scope) ?? '0';
      let entry = this.#scopes.get(scope);
      if (entry?.generation !== generation) {
        if (entry !== undefined) this.#bytes -= entry.bytes;
        entry = { generation, blobs: new Map(), bytes: 0 };
        this.#scopes.set(scope, entry);
      }
      held.set(scope, entry);
    }
    const entries = [...held.values()];
    const missing: string[] = [];
    for (const id of ids) {
      const blob = heldBlob(entries, id);
      if (blob === undefined) missing.push(id);
      else if (blob.length > 0) out.set(id, blob);
    }
    if (missing.length === 0) return out;
    const rows = await db.query<{ id: string; scope: string; parts: Uint8Array | null }>(
      `SELECT m.id, m.scope, p.parts FROM ${t.memories} m LEFT JOIN ${t.q('memory_parts')} p ON p.memory_id = m.id
       WHERE m.id = ANY($1::text[]) AND m.scope = ANY($2::text[])`,
      [missing, scopes],
    );
    for (const row of rows.rows) {
      const blob = row.parts ?? NO_PARTS;
      if (blob.length > 0) out.set(row.id, blob);
      const entry = held.get(row.scope);
      if (entry === undefined || this.#scopes.get(row.scope) !== entry) continue;
      entry.blobs.set(row.id, blob);
      entry.bytes += blob.byteLength + 64;
      this.#bytes += blob.byteLength + 64;
    }
    if (this.#bytes > this.#budget) this.clear();
    return out;
  }

  clear(): void {
    this.#scopes.clear();
    this.#bytes = 0;
  }
}

/** The blob of `id` held in any of `entries` (`NO_PARTS`: held as having none), else undefined. */
function heldBlob(entries: readonly ScopeParts[], id: string): Uint8Array | undefined {
  for (const entry of entries) {
    const blob = entry.blobs.get(id);
    if (blob !== undefined) return blob;
  }
  return undefined;
}

/** Up to `limit` pending records, in write order, of `scopes` (`'all'`: every scope). */
export async function readPendingParts(
  db: PgQueryable,
  t: Tables,
  query: { scopes: readonly Scope[] | 'all'; limit: number },
): Promise<PartsCandidate[]> {
  const scopes = query.scopes === 'all' ? null : [...assertReadScopes(query.scopes)];
  const limit = Math.floor(query.limit);
  if (!(limit > 0)) return [];
  const where = scopes === null ? '' : 'WHERE p.scope = ANY($2::text[])';
  const rows = await db.query<CandidateRow & { scope: Scope }>(
    `SELECT m.id, m.scope, m.layer, m.content, m.data FROM ${t.q('parts_pending')} p JOIN ${t.memories} m ON m.id = p.memory_id
     ${where} ORDER BY p.seq LIMIT $1`,
    scopes === null ? [limit] : [limit, scopes],
  );
  // a damaged data document becomes `{}`, as for the records a reembed reads
  return rows.rows.map((row) => ({ ...toCandidate(row), scope: row.scope }));
}

export async function countPendingParts(db: PgQueryable, t: Tables, scopes: readonly Scope[]): Promise<number> {
  const allowed = [...assertReadScopes(scopes)];
  const row = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t.q('parts_pending')} WHERE scope = ANY($1::text[])`, [
    allowed,
  ]);
  return Number(row.rows[0]?.n ?? 0);
}

/** After a switch of embedding model: every record's parts are of the old model, so all are made again. */
export async function resetPartVectors(session: PgQueryable, t: Tables): Promise<void> {
  await session.exec(`
    DELETE FROM ${t.q('memory_parts')};
    INSERT INTO ${t.q('parts_pending')} (memory_id, scope, seq) SELECT id, scope, seq FROM ${t.memories} ON CONFLICT DO NOTHING;
  `);
}

function hex(blob: Uint8Array): string {
  return Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength).toString('hex');
}
