/**
 * The one description of how a memory record and an edge are stored, shared by the SQLite and the
 * PostgreSQL store: each field's column and its codec (flat columns for what is filtered or indexed,
 * JSON text for the rest, times as integer epoch ms). Each backend derives its column lists, insert
 * values, row decoding and patch assignments from these tables, supplying only how it spells a boolean.
 * Also the one SQL form of the visibility rule (`visibilityBounds` in core), with the backend's
 * placeholders.
 */
import { parseStoredJson } from '../core/readable-records.js';
import { visibilityBounds, type Edge, type MemoryRecord, type TimeFilter } from '../core/memory.js';
import type { MemoryPatch } from '../core/ports/store.js';
import { termLength } from '../core/text/bm25.js';

/**
 * How a value is stored: `text` as is; `number` as a number (drivers may hand back a bigint as a string);
 * `json` as JSON text; `bool` in the backend's boolean form. `nullable` codecs keep null as SQL NULL.
 */
export type Codec = 'text' | 'number' | 'json' | 'bool';

export interface ColumnSpec<F extends string> {
  readonly field: F;
  readonly column: string;
  readonly codec: Codec;
  readonly nullable: boolean;
  /** May `updateMemory` change it (the whitelist that keeps patch keys out of SQL)? */
  readonly patchable: boolean;
}

const col = <F extends string>(
  field: F,
  column: string,
  codec: Codec,
  options: { nullable?: boolean; patchable?: boolean } = {},
): ColumnSpec<F> => ({
  field,
  column,
  codec,
  nullable: options.nullable ?? false,
  patchable: options.patchable ?? false,
});

type RecordField = keyof MemoryRecord;
const P = { patchable: true } as const;
const NP = { nullable: true, patchable: true } as const;

/** Every stored field of a memory record, in the stores' column order. */
export const MEMORY_COLUMNS: readonly ColumnSpec<RecordField>[] = [
  col('id', 'id', 'text'),
  col('scope', 'scope', 'text'),
  col('layer', 'layer', 'text'),
  col('content', 'content', 'text', P),
  col('summary', 'summary', 'text', NP),
  col('tags', 'tags', 'json', P),
  col('entities', 'entities', 'json', P),
  col('importance', 'importance', 'number', NP),
  col('salience', 'salience', 'number', P),
  col('surprise', 'surprise', 'number', P),
  col('emotion', 'emotion', 'json', NP),
  col('pinned', 'pinned', 'bool', P),
  col('mentionCount', 'mention_count', 'number', P),
  col('accessCount', 'access_count', 'number'),
  col('lastAccessedAt', 'last_accessed_at', 'number', { nullable: true }),
  col('confidence', 'confidence', 'number', P),
  col('status', 'status', 'text', P),
  col('provenance', 'provenance', 'json', P),
  col('validFrom', 'valid_from', 'number', P),
  col('validTo', 'valid_to', 'number', NP),
  col('occurredAt', 'occurred_at', 'number', NP),
  col('recordedAt', 'recorded_at', 'number'),
  col('invalidatedAt', 'invalidated_at', 'number', NP),
  col('sourceKey', 'source_key', 'text', { nullable: true }),
  col('updatedAt', 'updated_at', 'number', P),
  col('data', 'data', 'json', P),
];

/** Every stored field of an edge, in column order. */
export const EDGE_COLUMN_SPECS: readonly ColumnSpec<keyof Edge>[] = [
  col('id', 'id', 'text'),
  col('scope', 'scope', 'text'),
  col('fromId', 'from_id', 'text'),
  col('type', 'type', 'text'),
  col('toId', 'to_id', 'text'),
  col('weight', 'weight', 'number'),
  col('validFrom', 'valid_from', 'number'),
  col('validTo', 'valid_to', 'number', { nullable: true }),
  col('recordedAt', 'recorded_at', 'number'),
  col('invalidatedAt', 'invalidated_at', 'number', { nullable: true }),
  col('metadata', 'metadata', 'json'),
];

/** The memory columns, in order. */
export const MEMORY_COLUMN_NAMES: readonly string[] = MEMORY_COLUMNS.map((c) => c.column);
/** The edge columns, in order. */
export const EDGE_COLUMN_NAMES: readonly string[] = EDGE_COLUMN_SPECS.map((c) => c.column);

/** The column derived from the content for scope-local BM25 (written beside the record's columns). */
export const TERM_COUNT_COLUMN = 'term_count';

/** How a backend spells a boolean column. */
export interface BooleanForm {
  encode(value: boolean): unknown;
  decode(value: unknown): boolean;
}

export const SQLITE_BOOLEAN: BooleanForm = { encode: (v) => (v ? 1 : 0), decode: (v) => v === 1 };
export const POSTGRES_BOOLEAN: BooleanForm = { encode: (v) => v, decode: (v) => v === true };

function encodeValue(codec: Codec, value: unknown, bool: BooleanForm): unknown {
  if (value === null || value === undefined) return null;
  switch (codec) {
    case 'json':
      return JSON.stringify(value);
    case 'bool':
      return typeof value === 'boolean' ? bool.encode(value) : value;
    default:
      return value;
  }
}

// The codecs of `decodeValue`, and their nullable forms for `decodeMemory`'s literal.
const nullable = (value: unknown): unknown => (value === undefined ? null : value);
const number = (value: unknown): number => (typeof value === 'number' ? value : Number(value));
const nullableNumber = (value: unknown): number | null => (value === null || value === undefined ? null : number(value));
// a column that does not parse comes back undefined for `recordProblem` to report, never a throw
const json = <T>(value: unknown): T => parseStoredJson<T>(value as string | null);
const nullableJson = <T>(value: unknown): T | null => (value === null || value === undefined ? null : json<T>(value));

function decodeValue(spec: ColumnSpec<string>, value: unknown, bool: BooleanForm): unknown {
  if (spec.nullable && (value === null || value === undefined)) return null;
  switch (spec.codec) {
    case 'json':
      return json(value);
    case 'bool':
      return bool.decode(value);
    case 'number':
      return number(value);
    default:
      return value;
  }
}

/** Values of a record's columns (`MEMORY_COLUMNS` order), then its term count. */
export function encodeMemory(record: MemoryRecord, bool: BooleanForm): unknown[] {
  const values = MEMORY_COLUMNS.map((spec) => encodeValue(spec.codec, record[spec.field], bool));
  values.push(termLength(record.content));
  return values;
}

/**
 * Decodes the values of `MEMORY_COLUMNS` read in order, starting at `offset`: each value by its
 * column's codec (`decodeValue`), written out as one object literal. Adding the fields one by one
 * from the column table made each record a dictionary-mode object and took 6.5 µs a row against 2.4
 * (a recall over 100,000 memories decodes ~400 rows). `test/storage/record-columns.test.ts` checks it
 * against the table, field by field, for every codec and null.
 */
export function decodeMemory(v: readonly unknown[], bool: BooleanForm, offset = 0): MemoryRecord {
  const o = offset;
  return {
    id: v[o] as string,
    scope: v[o + 1] as string,
    layer: v[o + 2] as MemoryRecord['layer'],
    content: v[o + 3] as string,
    summary: nullable(v[o + 4]) as string | null,
    tags: json(v[o + 5]),
    entities: json(v[o + 6]),
    importance: nullableNumber(v[o + 7]),
    salience: number(v[o + 8]),
    surprise: number(v[o + 9]),
    emotion: nullableJson(v[o + 10]),
    pinned: bool.decode(v[o + 11]),
    mentionCount: number(v[o + 12]),
    accessCount: number(v[o + 13]),
    lastAccessedAt: nullableNumber(v[o + 14]),
    confidence: number(v[o + 15]),
    status: v[o + 16] as MemoryRecord['status'],
    provenance: json(v[o + 17]),
    validFrom: number(v[o + 18]),
    validTo: nullableNumber(v[o + 19]),
    occurredAt: nullableNumber(v[o + 20]),
    recordedAt: number(v[o + 21]),
    invalidatedAt: nullableNumber(v[o + 22]),
    sourceKey: nullable(v[o + 23]) as string | null,
    updatedAt: number(v[o + 24]),
    data: json(v[o + 25]),
  };
}

/** Decodes a memory row read as an object keyed by column. */
export function decodeMemoryRow(row: Readonly<Record<string, unknown>>, bool: BooleanForm): MemoryRecord {
  return decodeMemory(
    MEMORY_COLUMN_NAMES.map((c) => row[c]),
    bool,
  );
}

/** Values of an edge's columns, in order. */
export function encodeEdge(edge: Edge): unknown[] {
  return EDGE_COLUMN_SPECS.map((spec) => encodeValue(spec.codec, edge[spec.field], POSTGRES_BOOLEAN));
}

/** Decodes an edge row read as an object keyed by column. */
export function decodeEdgeRow(row: Readonly<Record<string, unknown>>): Edge {
  const edge: Record<string, unknown> = {};
  for (const spec of EDGE_COLUMN_SPECS) {
    edge[spec.field] =
      spec.codec === 'json' ? JSON.parse(row[spec.column] as string) : decodeValue(spec, row[spec.column], POSTGRES_BOOLEAN);
  }
  return edge as unknown as Edge;
}

const PATCHABLE = MEMORY_COLUMNS.filter((c) => c.patchable);

/** Column and encoded value of every field present in `patch` (undefined fields are left alone), then the term count when content changes. */
export function patchColumns(patch: MemoryPatch, bool: BooleanForm): [column: string, value: unknown][] {
  const out: [string, unknown][] = [];
  const given = patch as Readonly<Record<string, unknown>>;
  for (const spec of PATCHABLE) {
    const value = given[spec.field];
    if (value === undefined) continue;
    out.push([spec.column, encodeValue(spec.codec, value, bool)]);
  }
  if (typeof patch.content === 'string') out.push([TERM_COUNT_COLUMN, termLength(patch.content)]);
  return out;
}

/**
 * The SQL form of `isVisible(record, filter, now, history)` over the columns of `alias`, exactly
 * equivalent (a property test checks it on every backend); `bind` returns the backend's placeholder for
 * a value, `beliefs` names the table of belief intervals (`memory_id`, `valid_from`, `valid_to`,
 * `known_from`, `known_to`). Statuses are inlined so the `(scope, status)` index serves current reads;
 * only a read that names its `knownAt` consults the belief intervals, so other reads cost what they did.
 */
export function visibilitySql(filter: TimeFilter, now: number, alias: string, bind: (value: number) => string, beliefs: string): string {
  const v = visibilityBounds(filter, now);
  const statuses = v.statuses.map((s) => `'${s}'`).join(', ');
  // each part binds its values when it is placed, so positional placeholders stay in text order
  const base = `${alias}.status IN (${statuses}) AND ${alias}.recorded_at <= ${bind(v.knownAt)}`;
  const validWhile = (row: string, knownOnlyFromInvalidation: boolean): string => {
    const from = `${row}.valid_from <= ${bind(v.asOf)}`;
    if (v.includeSuperseded) return from;
    const ended = `${row}.valid_to IS NOT NULL AND ${row}.valid_to <= ${bind(v.asOf)}`;
    // validTo counts only once the store knew it (invalidatedAt), so knownAt reads see the claim open-ended
    const known = knownOnlyFromInvalidation ? ` AND (${row}.invalidated_at IS NULL OR ${row}.invalidated_at <= ${bind(v.knownAt)})` : '';
    return `${from} AND NOT (${ended}${known})`;
  };
  if (!v.historic) return `${base} AND ${validWhile(alias, true)}`;
  const b = `${alias}_belief`;
  const ofRecord = `SELECT 1 FROM ${beliefs} ${b} WHERE ${b}.memory_id = ${alias}.id`;
  // the validity believed at knownAt: the row's own unless it changed later, else the interval then holding
  const own = `NOT EXISTS (${ofRecord} AND ${b}.known_to > ${bind(v.knownAt)}) AND ${validWhile(alias, true)}`;
  const held = `EXISTS (${ofRecord} AND ${b}.known_to > ${bind(v.knownAt)} AND ${b}.known_from <= ${bind(v.knownAt)} AND ${validWhile(b, false)})`;
  return `${base} AND ((${own}) OR ${held})`;
}
