/**
 * Mapping between domain objects and rows: flat columns for what is filtered or indexed, JSON text
 * for the rest, times as integer epoch ms, booleans as 0/1. Also the SQL form of `isVisible`.
 */
import { parseStoredJson } from '../../core/readable-records.js';
import { termLength } from '../../core/text/bm25.js';
import type { Edge, Layer, MemoryRecord, MemoryStatus, TimeFilter } from '../../core/memory.js';
import type { MemoryPatch } from '../../core/ports/store.js';

/** A `memories` row as the driver returns it. */
export interface MemoryRow {
  rowid: number;
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
  pinned: number;
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

const INSERT_COLUMNS = [
  'id', 'scope', 'layer', 'content', 'summary', 'tags', 'entities', 'importance', 'salience', 'surprise', 'emotion',
  'pinned', 'mention_count', 'access_count', 'last_accessed_at', 'confidence', 'status', 'provenance', 'valid_from',
  'valid_to', 'occurred_at', 'recorded_at', 'invalidated_at', 'source_key', 'updated_at', 'data', 'term_count',
] as const;

/** A row selected with `memoryColumns` as an array (rowid first, then the stored columns in order). */
export function arrayToMemoryRow(v: readonly unknown[]): MemoryRow {
  return {
    rowid: v[0] as number,
    id: v[1] as string,
    scope: v[2] as string,
    layer: v[3] as string,
    content: v[4] as string,
    summary: v[5] as string | null,
    tags: v[6] as string,
    entities: v[7] as string,
    importance: v[8] as number | null,
    salience: v[9] as number,
    surprise: v[10] as number,
    emotion: v[11] as string | null,
    pinned: v[12] as number,
    mention_count: v[13] as number,
    access_count: v[14] as number,
    last_accessed_at: v[15] as number | null,
    confidence: v[16] as number,
    status: v[17] as string,
    provenance: v[18] as string,
    valid_from: v[19] as number,
    valid_to: v[20] as number | null,
    occurred_at: v[21] as number | null,
    recorded_at: v[22] as number,
    invalidated_at: v[23] as number | null,
    source_key: v[24] as string | null,
    updated_at: v[25] as number,
    data: v[26] as string,
  };
}

// arrayToMemoryRow reads columns by position (an object literal keeps rows fast): check it against INSERT_COLUMNS.
{
  const probe = arrayToMemoryRow(Array.from({ length: INSERT_COLUMNS.length + 1 }, (_, i) => i)) as unknown as Record<string, number>;
  if (Object.entries(probe).some(([column, index]) => column !== 'rowid' && INSERT_COLUMNS[index - 1] !== column)) {
    throw new Error('sqlite-rows: arrayToMemoryRow does not follow INSERT_COLUMNS');
  }
}

/** Every stored column of a record, prefixed with `alias.`, for SELECTs. */
export function memoryColumns(alias: string): string {
  return [`${alias}.rowid`, ...INSERT_COLUMNS.map((c) => `${alias}.${c}`)].join(', ');
}

export const INSERT_MEMORY_SQL = `INSERT INTO memories (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`;

/** Parameters for `INSERT_MEMORY_SQL`, in column order. */
export function memoryInsertParams(record: MemoryRecord): unknown[] {
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
    record.pinned ? 1 : 0,
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
    termLength(record.content),
  ];
}

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
    importance: row.importance,
    salience: row.salience,
    surprise: row.surprise,
    emotion: parseStoredJson<MemoryRecord['emotion']>(row.emotion),
    pinned: row.pinned === 1,
    mentionCount: row.mention_count,
    accessCount: row.access_count,
    lastAccessedAt: row.last_accessed_at,
    confidence: row.confidence,
    status: row.status as MemoryStatus,
    provenance: parseStoredJson<MemoryRecord['provenance']>(row.provenance),
    validFrom: row.valid_from,
    validTo: row.valid_to,
    occurredAt: row.occurred_at,
    recordedAt: row.recorded_at,
    invalidatedAt: row.invalidated_at,
    sourceKey: row.source_key,
    updatedAt: row.updated_at,
    data: parseStoredJson<MemoryRecord['data']>(row.data),
  };
}

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
  pinned: ['pinned', (v) => (v === true ? 1 : v === false ? 0 : v)],
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

/** `SET` assignments and parameters for the fields present in `patch` (undefined fields are left alone). */
export function patchAssignments(patch: MemoryPatch): { sql: string; params: unknown[] } {
  const assignments: string[] = [];
  const params: unknown[] = [];
  for (const key of Object.keys(PATCH_COLUMNS) as PatchKey[]) {
    const value = patch[key];
    if (value === undefined) continue;
    const [column, encode] = PATCH_COLUMNS[key];
    assignments.push(`${column} = ?`);
    params.push(encode(value));
  }
  if (typeof patch.content === 'string') {
    assignments.push('term_count = ?');
    params.push(termLength(patch.content));
  }
  return { sql: assignments.join(', '), params };
}

/** An `edges` row as the driver returns it. */
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

export const EDGE_COLUMNS = 'id, scope, from_id, type, to_id, weight, valid_from, valid_to, recorded_at, invalidated_at, metadata';

export const INSERT_EDGE_SQL = `INSERT INTO edges (${EDGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export function edgeInsertParams(edge: Edge): unknown[] {
  return [
    edge.id,
    edge.scope,
    edge.fromId,
    edge.type,
    edge.toId,
    edge.weight,
    edge.validFrom,
    edge.validTo,
    edge.recordedAt,
    edge.invalidatedAt,
    JSON.stringify(edge.metadata),
  ];
}

export function rowToEdge(row: EdgeRow): Edge {
  return {
    id: row.id,
    scope: row.scope,
    fromId: row.from_id,
    type: row.type,
    toId: row.to_id,
    weight: row.weight,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    recordedAt: row.recorded_at,
    invalidatedAt: row.invalidated_at,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  };
}

/**
 * The SQL form of `isVisible(record, filter, now)` over the columns of `alias`; exactly equivalent
 * (a property test checks it). Statuses are inlined so the `(scope, status)` index serves current reads.
 */
export function visibilityClause(filter: TimeFilter, now: number, alias: string): { sql: string; params: number[] } {
  const knownAt = filter.knownAt ?? now;
  const asOf = filter.asOf ?? filter.knownAt ?? now;
  const statuses = filter.includeSuperseded ? "'active', 'superseded', 'decayed'" : "'active', 'superseded'";
  let sql = `${alias}.status IN (${statuses}) AND ${alias}.recorded_at <= ? AND ${alias}.valid_from <= ?`;
  const params = [knownAt, asOf];
  if (!filter.includeSuperseded) {
    // validTo counts only once the store knew it (invalidatedAt), so knownAt reads see the claim open-ended
    sql += ` AND NOT (${alias}.valid_to IS NOT NULL AND ${alias}.valid_to <= ? AND (${alias}.invalidated_at IS NULL OR ${alias}.invalidated_at <= ?))`;
    params.push(asOf, knownAt);
  }
  return { sql, params };
}

/** Binds a list as one parameter: `column IN (SELECT value FROM json_each(?))` keeps the SQL text stable. */
export function inList(column: string): string {
  return `${column} IN (SELECT value FROM json_each(?))`;
}

function identity<T>(value: T): T {
  return value;
}

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
