/**
 * SQL of the API-key table: one row per key, written by single statements so that concurrent
 * processes never lose a key (no read-modify-write of a shared document).
 */
import type { StoredApiKey } from '../../core/ports/store.js';
import type { SqliteConnection } from './sqlite-connection.js';

interface KeyRow {
  id: string;
  hash: string;
  tenant: string;
  label: string | null;
  created_at: number;
  revoked_at: number | null;
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

export function insertApiKey(connection: SqliteConnection, key: StoredApiKey): void {
  connection.run(
    `INSERT INTO api_keys (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`,
    key.id,
    key.hash,
    key.tenant,
    key.label,
    key.createdAt,
    key.revokedAt,
  );
}

export function listApiKeys(connection: SqliteConnection): StoredApiKey[] {
  return connection.all<KeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`).map(rowToKey);
}

export function findApiKey(connection: SqliteConnection, hash: string): StoredApiKey | null {
  const row = connection.get<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE hash = ?`, hash);
  return row === undefined ? null : rowToKey(row);
}

export function revokeApiKey(connection: SqliteConnection, id: string, at: number): StoredApiKey | null {
  connection.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', at, id);
  const row = connection.get<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`, id);
  return row === undefined ? null : rowToKey(row);
}

export function countApiKeys(connection: SqliteConnection): { total: number; active: number } {
  const row = connection.get<{ total: number; active: number | null }>(
    'SELECT count(*) AS total, sum(revoked_at IS NULL) AS active FROM api_keys',
  );
  return { total: Number(row?.total ?? 0), active: Number(row?.active ?? 0) };
}
