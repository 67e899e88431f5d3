/**
 * The generation of a scope's superseded claims on PostgreSQL (migration 29): `superseded_generations`
 * holds a number per scope that row triggers raise in the writing transaction whenever a superseded
 * semantic record tagged `captured` is inserted (an import), deleted (a purge), or changed in what an
 * index of corrected claims holds (its status, layer, scope, tags, data, provenance or time fields),
 * and whenever such a record becomes superseded or stops being so (a supersede, an unsupersede, a
 * forget or restore); a TRUNCATE raises every scope's. Every process's writes go through the triggers,
 * so a reader compares one small row instead of reading the claims again.
 */
import type { PgQueryable } from './pg-driver.js';
import type { Tables } from './pg-rows.js';
import { assertScope, type Scope } from '../../core/scope.js';

/** The columns whose change can change what an index of corrected claims holds. */
const COLUMNS = ['scope', 'layer', 'status', 'tags', 'data', 'provenance', 'valid_from', 'valid_to', 'recorded_at', 'invalidated_at'];

/**
 * A row of `alias` that an index of corrected claims holds. Tags are a JSON array, so the quoted tag
 * matches only itself; the tag is `CAPTURED_TAG` written out, since a shipped migration never changes.
 */
const held = (alias: string): string =>
  `(${alias}.layer = 'semantic' AND ${alias}.status = 'superseded' AND strpos(${alias}.tags, '"captured"') > 0)`;

/** Migration 29: the table, its function and its triggers. */
export function supersededGenerationSql(t: Tables): string {
  const generation = t.q('superseded_generations');
  const bump = (scope: string) => `
      INSERT INTO ${generation} (scope, generation) VALUES (${scope}, 1)
      ON CONFLICT (scope) DO UPDATE SET generation = ${generation}.generation + 1;`;
  const fn = t.q('superseded_generation_bump');
  return `
    CREATE TABLE ${generation} (scope text COLLATE "C" PRIMARY KEY, generation bigint NOT NULL);

    CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN${bump('OLD.scope')}
      END IF;
      IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.scope IS DISTINCT FROM OLD.scope) THEN${bump('NEW.scope')}
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER superseded_generation_insert AFTER INSERT ON ${t.memories}
      FOR EACH ROW WHEN ${held('NEW')} EXECUTE FUNCTION ${fn}();
    CREATE TRIGGER superseded_generation_delete AFTER DELETE ON ${t.memories}
      FOR EACH ROW WHEN ${held('OLD')} EXECUTE FUNCTION ${fn}();
    CREATE TRIGGER superseded_generation_update AFTER UPDATE OF ${COLUMNS.join(', ')} ON ${t.memories}
      FOR EACH ROW WHEN ((${held('OLD')} OR ${held('NEW')}) AND (${COLUMNS.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')}))
      EXECUTE FUNCTION ${fn}();

    CREATE FUNCTION ${t.q('superseded_generation_on_truncate')}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE ${generation} SET generation = generation + 1;
      RETURN NULL;
    END $$;
    CREATE TRIGGER superseded_generation_on_truncate AFTER TRUNCATE ON ${t.memories}
      FOR EACH STATEMENT EXECUTE FUNCTION ${t.q('superseded_generation_on_truncate')}();
`;
}

/** The scope's generation of superseded claims (0: never written). */
export async function readSupersededGeneration(db: PgQueryable, t: Tables, scope: Scope): Promise<number> {
  assertScope(scope);
  const row = await db.query<{ generation: string }>(
    `SELECT generation::text AS generation FROM ${t.q('superseded_generations')} WHERE scope = $1`,
    [scope],
  );
  return Number(row.rows[0]?.generation ?? 0);
}
