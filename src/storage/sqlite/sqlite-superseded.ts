/**
 * The generation of a scope's superseded claims in SQLite (migration 28): `superseded_generations`
 * holds a number per scope that triggers raise in the writing transaction whenever a superseded
 * semantic record tagged `captured` is inserted (an import), deleted (a purge), or changed in what an
 * index of corrected claims holds (its status, layer, scope, tags, data, provenance or time fields),
 * and whenever such a record becomes superseded or stops being so (a supersede, an unsupersede, a
 * forget or restore). Every process's writes go through the triggers, so a reader compares one small
 * row instead of reading the claims again.
 */
import type { Scope } from '../../core/scope.js';
import { assertScope } from '../../core/scope.js';
import type { SqliteConnection } from './sqlite-connection.js';

/**
 * A row of `alias` that an index of corrected claims holds. Tags are a JSON array, so the quoted tag
 * matches only itself; the tag is `CAPTURED_TAG` written out, since a shipped migration never changes.
 */
const held = (alias: string): string =>
  `(${alias}.layer = 'semantic' AND ${alias}.status = 'superseded' AND instr(${alias}.tags, '"captured"') > 0)`;

const bump = (scope: string): string =>
  `INSERT INTO superseded_generations (scope, generation) VALUES (${scope}, 1)
     ON CONFLICT (scope) DO UPDATE SET generation = generation + 1;`;

/** The columns whose change can change what an index of corrected claims holds. */
const COLUMNS = ['scope', 'layer', 'status', 'tags', 'data', 'provenance', 'valid_from', 'valid_to', 'recorded_at', 'invalidated_at'];

/** Migration 28: the table and its triggers. */
export const SUPERSEDED_GENERATION_SQL = `
  CREATE TABLE superseded_generations (scope TEXT PRIMARY KEY, generation INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TRIGGER superseded_generation_insert AFTER INSERT ON memories WHEN ${held('new')} BEGIN
    ${bump('new.scope')}
  END;
  CREATE TRIGGER superseded_generation_delete AFTER DELETE ON memories WHEN ${held('old')} BEGIN
    ${bump('old.scope')}
  END;
  CREATE TRIGGER superseded_generation_update AFTER UPDATE OF ${COLUMNS.join(', ')} ON memories
  WHEN (${held('old')} OR ${held('new')}) AND (${COLUMNS.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ')})
  BEGIN
    ${bump('old.scope')}
    ${bump('new.scope')}
  END;
`;

/** The scope's generation of superseded claims (0: never written). */
export function readSupersededGeneration(connection: SqliteConnection, scope: Scope): number {
  assertScope(scope);
  return connection.get<{ generation: number }>('SELECT generation FROM superseded_generations WHERE scope = ?', scope)?.generation ?? 0;
}
