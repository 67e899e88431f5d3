/**
 * Mapping between domain objects and PostgreSQL rows: flat columns for what is filtered or indexed,
 * JSON text for the rest (kept as text, byte for byte what was written), times as bigint epoch ms.
 * Also the SQL form of `isVisible` and a numbered-parameter builder.
 */
import { parseStoredJson } from '../../core/readable-records.js';
import type { Edge, Layer, MemoryRecord, MemoryStatus, TimeFilter } from '../../core/memory.js';
import type { MemoryPatch } from '../../core/ports/store.js';
import { termCounts, termLength } from '../../core/text/bm25.js';

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
  return { schema, memories: q('memories'), edges: q('edges'), meta: q('meta'), jobLocks: q('job_locks'), migrations: q('schema_migrations'), q };
}

/** A `memories` row as the drivers return it (bigint parsed to number). */
export interface MemoryRow {
  id: string;
  scope: string;
  layer: string;
  content: string;
  summary: string | null;
  tags: string;
  entities: string;
  importance: number | null;
  salience: number;
  surprise: number;
  emotion: string | null;
  pinned: boolean;
  mention_count: number;
  access_count: number;
  last_accessed_at: number | null;
  confidence: number;
  status: string;
  provenance: string;
  valid_from: number;
  valid_to: number | null;
  occurred_at: number | null;
  recorded_at: number;
  invalidated_at: number | null;
  source_key: string | null;
  updated_at: number;
  data: string;
}

export const MEMORY_FIELDS = [
  'id', 'scope', 'layer', 'content', 'summary', 'tags', 'entities', 'importance', 'salience', 'surprise', 'emotion',
  'pinned', 'mention_count', 'access_count', 'last_accessed_at', 'confidence', 'status', 'provenance', 'valid_from',
  'valid_to', 'occurred_at', 'recorded_at', 'invalidated_at', 'source_key', 'updated_at', 'data',
] as const;

/** Every stored field of a record, prefixed with `alias.`, for SELECTs. */
export function memoryColumns(alias: string): string {
  return MEMORY_FIELDS.map((c) => `${alias}.${c}`).join(', ');
}

/** Values for `MEMORY_FIELDS`, in order. */
export function memoryValues(record: MemoryRecord): unknown[] {
  return [
    record.id,
    record.scope,
    record.layer,
    record.content,
    record.summary,
    JSON.stringify(record.tags),
    JSON.stringify(record.entities),
    record.importance,
    record.salience,
    record.surprise,
    jsonOrNull(record.emotion),
    record.pinned,
    record.mentionCount,
    record.accessCount,
    record.lastAccessedAt,
    record.confidence,
    record.status,
    JSON.stringify(record.provenance),
    record.validFrom,
    record.validTo,
    record.occurredAt,
    record.recordedAt,
    record.invalidatedAt,
    record.sourceKey,
    record.updatedAt,
    JSON.stringify(record.data),
  ];
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));

/** Decodes a row; a column that does not parse comes back undefined for `recordProblem` to report, never a throw. */
export function rowToMemory(row: MemoryRow): MemoryRecord {
  return {
    id: row.id,
    scope: row.scope,
    layer: row.layer as Layer,
    content: row.content,
    summary: row.summary,
    tags: parseStoredJson<string[]>(row.tags),
    entities: parseStoredJson<string[]>(row.entities),
    importance: numOrNull(row.importance),
    salience: num(row.salience),
    surprise: num(row.surprise),
    emotion: parseStoredJson<MemoryRecord['emotion']>(row.emotion),
    pinned: row.pinned === true,
    mentionCount: num(row.mention_count),
    accessCount: num(row.access_count),
    lastAccessedAt: numOrNull(row.last_accessed_at),
    confidence: num(row.confidence),
    status: row.status as MemoryStatus,
    provenance: parseStoredJson<MemoryRecord['provenance']>(row.provenance),
    validFrom: num(row.valid_from),
    validTo: numOrNull(row.valid_to),
    occurredAt: numOrNull(row.occurred_at),
    recordedAt: num(row.recorded_at),
    invalidatedAt: numOrNull(row.invalidated_at),
    sourceKey: row.source_key,
    updatedAt: num(row.updated_at),
    data: parseStoredJson<MemoryRecord['data']>(row.data),
  };
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

type PatchKey = keyof MemoryPatch;

/** Column and encoding of every patchable field; the whitelist that keeps patch keys out of SQL. */
const PATCH_COLUMNS: Readonly<Record<PatchKey, readonly [column: string, encode: (value: unknown) => unknown]>> = {
  content: ['content', identity],
  summary: ['summary', identity],
  tags: ['tags', jsonOrNull],
  entities: ['entities', jsonOrNull],
  importance: ['importance', identity],
  salience: ['salience', identity],
  surprise: ['surprise', identity],
  emotion: ['emotion', jsonOrNull],
  pinned: ['pinned', identity],
  mentionCount: ['mention_count', identity],
  confidence: ['confidence', identity],
  status: ['status', identity],
  provenance: ['provenance', jsonOrNull],
  validFrom: ['valid_from', identity],
  validTo: ['valid_to', identity],
  occurredAt: ['occurred_at', identity],
  invalidatedAt: ['invalidated_at', identity],
  data: ['data', jsonOrNull],
  updatedAt: ['updated_at', identity],
};

/** `SET` assignments for the fields present in `patch` (undefined fields are left alone). */
export function patchAssignments(patch: MemoryPatch, params: Params): string[] {
  const assignments: string[] = [];
  for (const key of Object.keys(PATCH_COLUMNS) as PatchKey[]) {
    const value = patch[key];
    if (value === undefined) continue;
    const [column, encode] = PATCH_COLUMNS[key];
    assignments.push(`${column} = ${params.add(encode(value))}`);
  }
  if (typeof patch.content === 'string') assignments.push(`term_count = ${params.add(termLength(patch.content))}`);
  return assignments;
}

/** An `edges` row as the drivers return it. */
export interface EdgeRow {
  id: string;
  scope: string;
  from_id: string;
  type: string;
  to_id: string;
  weight: number;
  valid_from: number;
  valid_to: number | null;
  recorded_at: number;
  invalidated_at: number | null;
  metadata: string;
}

export const EDGE_FIELDS = ['id', 'scope', 'from_id', 'type', 'to_id', 'weight', 'valid_from', 'valid_to', 'recorded_at', 'invalidated_at', 'metadata'] as const;
export const EDGE_COLUMNS = EDGE_FIELDS.join(', ');

export function edgeValues(edge: Edge): unknown[] {
  return [edge.id, edge.scope, edge.fromId, edge.type, edge.toId, edge.weight, edge.validFrom, edge.validTo, edge.recordedAt, edge.invalidatedAt, JSON.stringify(edge.metadata)];
}

export function rowToEdge(row: EdgeRow): Edge {
  return {
    id: row.id,
    scope: row.scope,
    fromId: row.from_id,
    type: row.type,
    toId: row.to_id,
    weight: num(row.weight),
    validFrom: num(row.valid_from),
    validTo: numOrNull(row.valid_to),
    recordedAt: num(row.recorded_at),
    invalidatedAt: numOrNull(row.invalidated_at),
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  };
}

/** The SQL form of `isVisible(record, filter, now)`, the same predicate as the SQLite store's. */
export function visibilityClause(filter: TimeFilter, now: number, alias: string, params: Params): string {
  const knownAt = params.add(filter.knownAt ?? now);
  const asOf = params.add(filter.asOf ?? filter.knownAt ?? now);
  const statuses = filter.includeSuperseded ? "'active', 'superseded', 'decayed'" : "'active', 'superseded'";
  let sql = `${alias}.status IN (${statuses}) AND ${alias}.recorded_at <= ${knownAt} AND ${alias}.valid_from <= ${asOf}`;
  if (!filter.includeSuperseded) {
    // validTo counts only once the store knew it (invalidatedAt), so knownAt reads see the claim open-ended
    sql += ` AND NOT (${alias}.valid_to IS NOT NULL AND ${alias}.valid_to <= ${asOf} AND (${alias}.invalidated_at IS NULL OR ${alias}.invalidated_at <= ${knownAt}))`;
  }
  return sql;
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
  return Float32Array.from(body.split(','), Number);
}

function identity<T>(value: T): T {
  return value;
}

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
