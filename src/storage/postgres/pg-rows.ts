/**
 * PostgreSQL's forms of the stored record (`../record-columns.ts`; JSON kept as text, byte for byte what
 * was written; times as bigint epoch ms; booleans native), the SQL form of the visibility rule with
 * numbered parameters, the lexical document and a numbered-parameter builder.
 */
import type { Edge, MemoryRecord, TimeFilter } from '../../core/memory.js';
import type { MemoryPatch } from '../../core/ports/store.js';
import { termCounts, termLength } from '../../core/text/bm25.js';
import {
  decodeEdgeRow,
  decodeMemoryRow,
  EDGE_COLUMN_NAMES,
  encodeEdge,
  encodeMemory,
  MEMORY_COLUMN_NAMES,
  patchColumns,
  POSTGRES_BOOLEAN,
  visibilitySql,
} from '../record-columns.js';
import { keepStoredMentions, MENTIONS_COLUMN } from '../stored-mentions.js';

/** Collects positional parameters: `p.add(value)` returns its placeholder (`$3`). */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Quoted, schema-qualified table names. */
export interface Tables {
  readonly schema: string;
  readonly memories: string;
  readonly edges: string;
  /** The belief intervals of records whose validity changed (`BeliefInterval`). */
  readonly beliefs: string;
  readonly meta: string;
  readonly jobLocks: string;
  readonly migrations: string;
  /** Qualifies any other object name of the schema. */
  q(name: string): string;
}

/** Valid schema names: lower-case identifiers, so they never need more than plain quoting. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function tablesOf(schema: string): Tables {
  const q = (name: string) => `"${schema}"."${name}"`;
  return {
    schema,
    memories: q('memories'),
    edges: q('edges'),
    beliefs: q('memory_beliefs'),
    meta: q('meta'),
    jobLocks: q('job_locks'),
    migrations: q('schema_migrations'),
    q,
  };
}

/** A `memories` row as the drivers return it, keyed by column (`record-columns.ts` says which). */
export type MemoryRow = Readonly<Record<string, unknown>>;

/** The record's columns, in order. */
export const MEMORY_FIELDS = MEMORY_COLUMN_NAMES;

/**
 * Every stored field of a record, prefixed with `alias.`, for SELECTs, then its stored mentioned times
 * (`stored-mentions.ts`), which `rowToMemory` pairs with it.
 */
export function memoryColumns(alias: string): string {
  return [...MEMORY_FIELDS.map((c) => `${alias}.${c}`), `${alias}.${MENTIONS_COLUMN}`].join(', ');
}

/** Values for `MEMORY_FIELDS`, in order (without the term count). */
export function memoryValues(record: MemoryRecord): unknown[] {
  return encodeMemory(record, POSTGRES_BOOLEAN).slice(0, MEMORY_FIELDS.length);
}

/** Decodes a row (bigints may come back as strings); a column that does not parse comes back undefined for `recordProblem` to report, never a throw. */
export function rowToMemory(row: MemoryRow): MemoryRecord {
  const record = decodeMemoryRow(row, POSTGRES_BOOLEAN);
  keepStoredMentions(record, row[MENTIONS_COLUMN]);
  return record;
}

/**
 * The lexical document of a record: distinct stems (the same stemming and stop words as the SQLite
 * store's BM25) of its content, tags and entities. Stored as a tsvector via `array_to_tsvector`, so
 * nothing the user wrote is parsed as tsvector syntax.
 */
export function lexemesOf(content: string, tags: readonly string[], entities: readonly string[]): string[] {
  const stems = new Set<string>();
  for (const text of [content, tags.join(' '), entities.join(' ')]) for (const [s] of termCounts(text)) if (isIndexable(s)) stems.add(s);
  return [...stems];
}

/** PostgreSQL refuses lexemes over 2047 bytes; such "words" are neither indexed nor searched. */
export function isIndexable(stem: string): boolean {
  return stem.length > 0 && Buffer.byteLength(stem, 'utf8') <= MAX_LEXEME_BYTES;
}
const MAX_LEXEME_BYTES = 1000;

/** A tsquery literal matching any of `stems` exactly (each quoted, so no input is tsquery syntax). */
export function tsqueryOf(stems: readonly string[]): string {
  return stems.map(quoteLexeme).join(' | ');
}

export function quoteLexeme(stem: string): string {
  return `'${stem.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

export { termCounts, termLength };

/** `SET` assignments for the fields present in `patch` (undefined fields are left alone). */
export function patchAssignments(patch: MemoryPatch, params: Params): string[] {
  const columns = patchColumns(patch, POSTGRES_BOOLEAN);
  // an edit of the text or of when it was written makes the stored mentioned times pending by trigger
  return columns.map(([column, value]) => `${column} = ${params.add(value)}`);
}

/** An `edges` row as the drivers return it, keyed by column. */
export type EdgeRow = Readonly<Record<string, unknown>>;

export const EDGE_FIELDS = EDGE_COLUMN_NAMES;
export const EDGE_COLUMNS = EDGE_FIELDS.join(', ');

export function edgeValues(edge: Edge): unknown[] {
  return encodeEdge(edge);
}

export function rowToEdge(row: EdgeRow): Edge {
  return decodeEdgeRow(row);
}

/** The SQL form of `isVisible` over the columns of `alias` (`visibilitySql`), with numbered parameters. */
export function visibilityClause(filter: TimeFilter, now: number, alias: string, params: Params, tables: Tables): string {
  return visibilitySql(filter, now, alias, (value) => params.add(value), tables.beliefs);
}

/** Vector text in the form both `vector` and `real[]` parse (after swapping brackets for braces). */
export function vectorLiteral(vector: Float32Array, storage: 'pgvector' | 'array'): string {
  const body = Array.from(vector, (x) => String(x)).join(',');
  return storage === 'pgvector' ? `[${body}]` : `{${body}}`;
}

/** Parses `[1,2]` / `{1,2}` (the text form of both vector storages). */
export function parseVectorText(text: string): Float32Array {
  const body = text.slice(1, -1);
  if (body.length === 0) return new Float32Array(0);
  try {
    // the JSON parser reads the numbers ~2.5x as fast as split + Number (a 1M-vector cache load is
    // ~500M of them); same float32 values, since both round the decimal's double
    return new Float32Array(JSON.parse(`[${body}]`) as number[]);
  } catch {
    // NaN or Infinity, which JSON does not spell
    return Float32Array.from(body.split(','), Number);
  }
}
