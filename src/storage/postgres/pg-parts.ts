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
