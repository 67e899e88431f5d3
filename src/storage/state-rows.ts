/**
 * Per-scope state documents (`state`: scope, key → JSON value) as both stores keep them, and the checks
 * both apply to a key and a value.
 */
import { EngramError, messages } from '../core/errors.js';
import type { StateEntry } from '../core/ports/store.js';

/** A `state` row as both stores select it (drivers may return bigint columns as strings). */
export interface StateRow {
  scope: string;
  key: string;
  value: string;
  updated_at: number | string;
}

/** A row as the port's entry. */
export function toStateEntry(row: StateRow): StateEntry {
  return { scope: row.scope, key: row.key, value: JSON.parse(row.value) as unknown, updatedAt: Number(row.updated_at) };
}

/** Throws unless `key` is a non-empty string of at most 512 characters. */
export function assertStateKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) {
    throw new EngramError('INVALID_INPUT', messages.invalidInput('a state key must be a non-empty string of at most 512 characters'));
  }
}

/** The JSON text of a state value; `undefined` is `INVALID_INPUT` (delete the key instead). */
export function stateJson(value: unknown): string {
  const json = value === undefined ? undefined : JSON.stringify(value);
  if (json === undefined)
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput('a state value must be JSON (not undefined); use deleteState to remove it'),
    );
  return json;
}
