/**
 * Per-scope state documents on SQLite (scope, key → JSON value).
 */
import type { StateEntry, StateListOptions } from '../../core/ports/store.js';
import { assertScope, type Scope } from '../../core/scope.js';
import { assertStateKey, stateJson, toStateEntry, type StateRow } from '../state-rows.js';
import type { SqliteConnection } from './sqlite-connection.js';

export function readState(connection: SqliteConnection, scope: Scope, key: string): StateEntry | null {
  assertScope(scope);
  assertStateKey(key);
  const row = connection.get<StateRow>('SELECT scope, key, value, updated_at FROM state WHERE scope = ? AND key = ?', scope, key);
  return row === undefined ? null : toStateEntry(row);
}

export function listState(
  connection: SqliteConnection,
  scope: Scope,
  keyPrefix: string,
  limit: number,
  options: StateListOptions = {},
): StateEntry[] {
  assertScope(scope);
  const n = Math.floor(limit);
  if (!(n > 0)) return [];
  const descending = options.order === 'desc';
  const after = options.after !== undefined ? ` AND key ${descending ? '<' : '>'} ?` : '';
  // substr comparison: a literal prefix match, no LIKE wildcards
  return connection
    .all<StateRow>(
      `SELECT scope, key, value, updated_at FROM state WHERE scope = ? AND substr(key, 1, ?) = ?${after} ORDER BY key ${descending ? 'DESC' : 'ASC'} LIMIT ?`,
      scope,
      keyPrefix.length,
      keyPrefix,
      ...(options.after !== undefined ? [options.after] : []),
      n,
    )
    .map(toStateEntry);
}

export function writeState(connection: SqliteConnection, scope: Scope, key: string, value: unknown, at: number): void {
  assertScope(scope);
  assertStateKey(key);
  const json = stateJson(value);
  connection.run(
    'INSERT INTO state (scope, key, value, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    scope,
    key,
    json,
    at,
  );
}

export function deleteState(connection: SqliteConnection, scope: Scope, key: string): boolean {
  assertScope(scope);
  return connection.run('DELETE FROM state WHERE scope = ? AND key = ?', scope, key) > 0;
}
