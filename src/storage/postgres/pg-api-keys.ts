/**
 * SQL of the API-key table on PostgreSQL: one row per key, each write a single statement, so that
 * concurrent servers and CLI processes never lose a key.
 */
import type { StoredApiKey } from '../../core/ports/store.js';
import type { PgQueryable } from './pg-driver.js';
import type { Tables } from './pg-rows.js';

interface KeyRow {
  id: string;
  hash: string;
  tenant: string;
  label: string | null;
  created_at: number | string;
  revoked_at: number | string | null;
}

const COLUMNS = 'id, hash, tenant, label, created_at, revoked_at';

function rowToKey(row: KeyRow): StoredApiKey {
  return {
    id: row.id,
    hash: row.hash,
    tenant: row.tenant,
    label: row.label,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

export async function insertApiKey(db: PgQueryable, t: Tables, key: StoredApiKey): Promise<void> {
  await db.query(`INSERT INTO ${t.q('api_keys')} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
    key.id,
    key.hash,
    key.tenant,
    key.label,
    key.createdAt,
    key.revokedAt,
  ]);
}

export async function listApiKeys(db: PgQueryable, t: Tables): Promise<StoredApiKey[]> {
  return (await db.query<KeyRow>(`SELECT ${COLUMNS} FROM ${t.q('api_keys')} ORDER BY created_at, id`)).rows.map(rowToKey);
}

export async function findApiKey(db: PgQueryable, t: Tables, hash: string): Promise<StoredApiKey | null> {
  const row = (await db.query<KeyRow>(`SELECT ${COLUMNS} FROM ${t.q('api_keys')} WHERE hash = $1`, [hash])).rows[0];
  return row === undefined ? null : rowToKey(row);
}

export async function revokeApiKey(db: PgQueryable, t: Tables, id: string, at: number): Promise<StoredApiKey | null> {
  // one statement: the update (if still unrevoked) and the row as it then stands
  const row = (
    await db.query<KeyRow>(
      `WITH changed AS (UPDATE ${t.q('api_keys')} SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING ${COLUMNS})
       SELECT ${COLUMNS} FROM changed UNION ALL SELECT ${COLUMNS} FROM ${t.q('api_keys')} WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM changed)`,
      [id, at],
    )
  ).rows[0];
  return row === undefined ? null : rowToKey(row);
}

export async function countApiKeys(db: PgQueryable, t: Tables): Promise<{ total: number; active: number }> {
  const row = (
    await db.query<{ total: number | string; active: number | string }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE revoked_at IS NULL)::int AS active FROM ${t.q('api_keys')}`,
    )
  ).rows[0];
  return { total: Number(row?.total ?? 0), active: Number(row?.active ?? 0) };
}
