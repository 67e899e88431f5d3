/**
 * `decodeMemory` writes each record out as one literal; these check it against the column table
 * (`MEMORY_COLUMNS`): every field from its own column, by that column's codec, null where the column
 * allows it, on both backends' boolean forms, at an offset.
 */
import { describe, expect, it } from 'vitest';
import {
  MEMORY_COLUMNS,
  POSTGRES_BOOLEAN,
  SQLITE_BOOLEAN,
  decodeMemory,
  decodeMemoryRow,
  encodeMemory,
  type BooleanForm,
  type ColumnSpec,
} from '../../src/storage/record-columns.js';
import { makeRecord } from '../contract/store-fixtures.js';

type Spec = ColumnSpec<string>;

/** A stored value of column `i` that no other column holds, and what it decodes to. */
function distinct(spec: Spec, i: number, bool: BooleanForm): { stored: unknown; decoded: unknown } {
  switch (spec.codec) {
    case 'json':
      return { stored: JSON.stringify({ column: spec.column, i }), decoded: { column: spec.column, i } };
    case 'bool':
      return { stored: bool.encode(i % 2 === 0), decoded: i % 2 === 0 };
    case 'number':
      // drivers may hand a bigint back as text
      return i % 2 === 0 ? { stored: 1000 + i, decoded: 1000 + i } : { stored: String(1000 + i), decoded: 1000 + i };
    default:
      return { stored: `${spec.column}-${i}`, decoded: `${spec.column}-${i}` };
  }
}

function decodeAll(stored: unknown[], bool: BooleanForm, offset: number): Record<string, unknown> {
  return decodeMemory([...Array.from({ length: offset }, () => 'ignored'), ...stored], bool, offset) as unknown as Record<string, unknown>;
}

describe('decodeMemory', () => {
  for (const [name, bool] of [
    ['SQLite', SQLITE_BOOLEAN],
    ['PostgreSQL', POSTGRES_BOOLEAN],
  ] as const) {
    it(`reads every field from its own column by its codec (${name} booleans, offsets 0 and 1)`, () => {
      const values = MEMORY_COLUMNS.map((spec, i) => distinct(spec, i, bool));
      for (const offset of [0, 1]) {
        const record = decodeAll(
          values.map((v) => v.stored),
          bool,
          offset,
        );
        expect(Object.keys(record)).toEqual(MEMORY_COLUMNS.map((spec) => spec.field));
        MEMORY_COLUMNS.forEach((spec, i) => expect(record[spec.field], spec.field).toEqual(values[i]?.decoded));
      }
    });
  }

  it('gives null for a nullable column that is NULL or absent, and undefined for JSON that does not parse', () => {
    for (const missing of [null, undefined]) {
      const stored = MEMORY_COLUMNS.map((spec, i) => (spec.nullable ? missing : distinct(spec, i, SQLITE_BOOLEAN).stored));
      const record = decodeAll(stored, SQLITE_BOOLEAN, 0);
      for (const spec of MEMORY_COLUMNS.filter((s) => s.nullable)) expect(record[spec.field], spec.field).toBeNull();
    }
    const broken = MEMORY_COLUMNS.map((spec, i) => (spec.codec === 'json' ? '{not json' : distinct(spec, i, SQLITE_BOOLEAN).stored));
    const record = decodeAll(broken, SQLITE_BOOLEAN, 0);
    for (const spec of MEMORY_COLUMNS.filter((s) => s.codec === 'json')) expect(record[spec.field], spec.field).toBeUndefined();
  });

  it('round-trips a record through encodeMemory, and agrees with decodeMemoryRow', () => {
    const record = makeRecord({ content: 'the kettle is blue', tags: ['home'], entities: ['Ann'], importance: 0.4, summary: 'kettle' });
    for (const bool of [SQLITE_BOOLEAN, POSTGRES_BOOLEAN]) {
      const values = encodeMemory(record, bool).slice(0, MEMORY_COLUMNS.length);
      expect(decodeMemory(values, bool)).toEqual(record);
      const row = Object.fromEntries(MEMORY_COLUMNS.map((spec, i) => [spec.column, values[i]]));
      expect(decodeMemoryRow(row, bool)).toEqual(record);
    }
  });
});
