/**
 * SQLite's forms of the stored record (`../record-columns.ts`): column lists, insert parameters, row
 * decoding and patches, booleans as 0/1; also the SQL form of the visibility rule with `?` parameters.
 */
import type { Edge, MemoryRecord, TimeFilter } from '../../core/memory.js';
import type { MemoryPatch } from '../../core/ports/store.js';
import { lexicalText } from '../../core/text/index.js';
import {
  decodeEdgeRow,
  decodeMemory,
  decodeMemoryRow,
  EDGE_COLUMN_NAMES,
  encodeEdge,
  encodeMemory,
  MEMORY_COLUMN_NAMES,
  patchColumns,
  SQLITE_BOOLEAN,
  TERM_COUNT_COLUMN,
  visibilitySql,
} from '../record-columns.js';
import { keepStoredMentions, MENTIONS_COLUMN } from '../stored-mentions.js';

/** A `memories` row as the driver returns it, keyed by column (`record-columns.ts` says which). */
export type MemoryRow = Readonly<Record<string, unknown>>;

/**
 * What FTS5 indexes instead of `content`, `tags` and `entities` (as stored) where `lexicalText` differs
 * from them (compatibility characters folded, CJK words spaced); NULL where the field is indexed as it is.
 */
const LEXICAL_COLUMNS = [
  ['content', 'lexical_text'],
  ['tags', 'lexical_tags'],
  ['entities', 'lexical_entities'],
] as const;

const INSERT_COLUMNS = [...MEMORY_COLUMN_NAMES, TERM_COUNT_COLUMN, ...LEXICAL_COLUMNS.map(([, lexical]) => lexical)];
const LEXICAL_SOURCE_INDEXES = LEXICAL_COLUMNS.map(([column]) => MEMORY_COLUMN_NAMES.indexOf(column));

/** Decodes a row selected with `memoryColumns` as an array (rowid first, then the record's columns in order). */
export function arrayToMemory(values: readonly unknown[]): MemoryRecord {
  const record = decodeMemory(values, SQLITE_BOOLEAN, 1);
  keepStoredMentions(record, values[MEMORY_COLUMN_NAMES.length + 1]);
  return record;
}

/** A row selected with `memoryColumns` as an array, keyed by column (for `rowToMemory`). */
export function arrayToMemoryRow(values: readonly unknown[]): MemoryRow {
  return Object.fromEntries([
    ['rowid', values[0]],
    ...MEMORY_COLUMN_NAMES.map((c, i) => [c, values[i + 1]]),
    [MENTIONS_COLUMN, values[MEMORY_COLUMN_NAMES.length + 1]],
  ]) as MemoryRow;
}

/**
 * Every stored column of a record, prefixed with `alias.`, for SELECTs: rowid first, then the record's
 * columns, then its stored mentioned times (`stored-mentions.ts`), which the decoders pair with it.
 */
export function memoryColumns(alias: string): string {
  return [`${alias}.rowid`, ...MEMORY_COLUMN_NAMES.map((c) => `${alias}.${c}`), `${alias}.${MENTIONS_COLUMN}`].join(', ');
}

export const INSERT_MEMORY_SQL = `INSERT INTO memories (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`;

/** Parameters for `INSERT_MEMORY_SQL`, in column order. */
export function memoryInsertParams(record: MemoryRecord): unknown[] {
  const values = encodeMemory(record, SQLITE_BOOLEAN);
  return [...values, ...LEXICAL_SOURCE_INDEXES.map((i) => lexicalText(values[i] as string))];
}

/** Decodes a row; a column that does not parse comes back undefined for `recordProblem` to report, never a throw. */
export function rowToMemory(row: MemoryRow): MemoryRecord {
  const record = decodeMemoryRow(row, SQLITE_BOOLEAN);
  keepStoredMentions(record, row[MENTIONS_COLUMN]);
  return record;
}

/** `SET` assignments and parameters for the fields present in `patch` (undefined fields are left alone). */
export function patchAssignments(patch: MemoryPatch): { sql: string; params: unknown[] } {
  const columns = patchColumns(patch, SQLITE_BOOLEAN);
  for (const [column, value] of [...columns]) {
    const lexical = LEXICAL_COLUMNS.find(([source]) => source === column)?.[1];
    if (lexical !== undefined) columns.push([lexical, lexicalText(value as string)]);
  }
  // an edit of the text or of when it was written makes the stored mentioned times pending by trigger
  return { sql: columns.map(([column]) => `${column} = ?`).join(', '), params: columns.map(([, value]) => value) };
}

/** An `edges` row as the driver returns it, keyed by column. */
export type EdgeRow = Readonly<Record<string, unknown>>;

export const EDGE_COLUMNS = EDGE_COLUMN_NAMES.join(', ');

export const INSERT_EDGE_SQL = `INSERT INTO edges (${EDGE_COLUMNS}) VALUES (${EDGE_COLUMN_NAMES.map(() => '?').join(', ')})`;

export function edgeInsertParams(edge: Edge): unknown[] {
  return encodeEdge(edge);
}

export function rowToEdge(row: EdgeRow): Edge {
  return decodeEdgeRow(row);
}

/** The belief intervals of records whose validity changed (`BeliefInterval`). */
export const BELIEFS_TABLE = 'memory_beliefs';

/** The SQL form of `isVisible` over the columns of `alias` (`visibilitySql`), with `?` parameters. */
export function visibilityClause(filter: TimeFilter, now: number, alias: string): { sql: string; params: number[] } {
  const params: number[] = [];
  const sql = visibilitySql(
    filter,
    now,
    alias,
    (value) => {
      params.push(value);
      return '?';
    },
    BELIEFS_TABLE,
  );
  return { sql, params };
}

/** Binds a list as one parameter: `column IN (SELECT value FROM json_each(?))` keeps the SQL text stable. */
export function inList(column: string): string {
  return `${column} IN (SELECT value FROM json_each(?))`;
}
