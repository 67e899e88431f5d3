/**
 * Per-scope state documents on PostgreSQL (scope, key → JSON value).
 */
import type { StateEntry, StateListOptions } from '../../core/ports/store.js';
import { assertScope, type Scope } from '../../core/scope.js';
import { assertStateKey, stateJson, toStateEntry, type StateRow } from '../state-rows.js';
import type { PgQueryable } from './pg-driver.js';
import type { Tables } from './pg-rows.js';

export async function readState(db: PgQueryable, t: Tables, scope: Scope, key: string): Promise<StateEntry | null> {
  assertScope(scope);
  assertStateKey(key);
  const row = (
    await db.query<StateRow>(`SELECT scope, key, value, updated_at FROM ${t.q('state')} WHERE scope = $1 AND key = $2`, [scope, key])
  ).rows[0];
  return row === undefined ? null : toStateEntry(row);
}

export async function listState(
  db: PgQueryable,
  t: Tables,
  scope: Scope,
  keyPrefix: string,
  limit: number,
  options: StateListOptions = {},
): Promise<StateEntry[]> {
  assertScope(scope);
  const n = Math.floor(limit);
  if (!(n > 0)) return [];
  const descending = options.order === 'desc';
  const params: unknown[] = [scope, keyPrefix.length, keyPrefix, n];
  const after = options.after !== undefined ? ` AND key ${descending ? '<' : '>'} $${params.push(options.after)}` : '';
  // left(): a literal prefix match, no LIKE wildcards
  const rows = await db.query<StateRow>(
    `SELECT scope, key, value, updated_at FROM ${t.q('state')} WHERE scope = $1 AND left(key, $2) = $3${after} ORDER BY key ${descending ? 'DESC' : 'ASC'} LIMIT $4`,
    params,
  );
  return rows.rows.map(toStateEntry);
}

export async function writeState(db: PgQueryable, t: Tables, scope: Scope, key: string, value: unknown, at: number): Promise<void> {
  assertScope(scope);
  assertStateKey(key);
  const json = stateJson(value);
  await db.query(
    `INSERT INTO ${t.q('state')} (scope, key, value, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (scope, key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [scope, key, json, at],
  );
}

export async function deleteState(db: PgQueryable, t: Tables, scope: Scope, key: string): Promise<boolean> {
  assertScope(scope);
  return (await db.query(`DELETE FROM ${t.q('state')} WHERE scope = $1 AND key = $2`, [scope, key])).rowCount > 0;
}
