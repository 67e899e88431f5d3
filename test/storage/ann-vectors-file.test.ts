/**
 * The file of exact vectors beside an int8 HNSW index (`ann-vectors.ts`), on real temp files: what a
 * reader scores equals the float cosine to bfloat16's precision, later rows supersede earlier ones,
 * removed and unknown rows score nothing, and damaged files are refused at open.
 */
import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AnnVectorsReader, AnnVectorsWriter, fromFloat16, toFloat16 } from '../../src/storage/sqlite/ann/ann-vectors.js';
import { scaledInt8 } from '../../src/storage/sqlite/ann/ann-library.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function directory(): string {
  const { dir, cleanup } = tempDir('engram-ann-vectors-');
  cleanups.push(cleanup);
  return dir;
}

/** A deterministic pseudo-random unit vector (sentence-embedding-like spread: no component dominates). */
function unitVector(seed: number, dimension: number): Float32Array {
  let state = seed * 2654435761 + 1;
  const next = (): number => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x6d2b79f5) >>> 0;
    return state / 4294967296 - 0.5;
  };
  const vector = Float32Array.from({ length: dimension }, next);
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    aa += (a[i] as number) ** 2;
    bb += (b[i] as number) ** 2;
  }
  return dot / Math.sqrt(aa * bb);
}

function write(path: string, dimension: number, fill: (writer: AnnVectorsWriter) => void): void {
  const writer = new AnnVectorsWriter(`${path}.partial`, dimension);
  try {
    fill(writer);
    writer.finish(path);
  } finally {
    writer.abort();
  }
}

describe('the exact vectors file of an int8 HNSW index', () => {
  it('scores each row to within 1e-4 of its float cosine (float16), from more rows than one write buffer', () => {
    const dimension = 384;
    const path = join(directory(), 'rows.vectors');
    const count = 2500;
    // rowids out of order and sparse, as chunks hand them over
    const rowid = (i: number): number => ((i * 7919) % count) * 3 + 11;
    write(path, dimension, (writer) => {
      for (let i = 0; i < count; i++) writer.add(rowid(i), unitVector(i, dimension));
    });
    const reader = AnnVectorsReader.open(path, dimension);
    try {
      expect(reader.size).toBe(count);
      let worst = 0;
      let total = 0;
      for (let q = 0; q < 20; q++) {
        const query = unitVector(100_000 + q, dimension).map((x) => x * 3); // not unit: the norm is divided out
        for (let i = q; i < count; i += 37) {
          const error = Math.abs(
            (reader.cosine(rowid(i), query, 1 / Math.hypot(...query)) as number) - cosine(query, unitVector(i, dimension)),
          );
          worst = Math.max(worst, error);
          total += error;
        }
      }
      expect(worst).toBeLessThan(1e-4);
      expect(total / (20 * Math.ceil(count / 37))).toBeLessThan(2e-5);
    } finally {
      reader.close();
    }
  });

  it('keeps the last vector of a row added twice, drops removed rows and knows no others', () => {
    const dimension = 64;
    const path = join(directory(), 'rows.vectors');
    write(path, dimension, (writer) => {
      writer.add(1, unitVector(1, dimension));
      writer.add(2, unitVector(2, dimension));
      writer.add(3, unitVector(3, dimension));
      writer.add(2, unitVector(20, dimension)); // re-embedded
      writer.remove(3); // deleted
      writer.remove(4); // never added
      writer.add(5, unitVector(5, dimension));
      writer.remove(5);
      writer.add(5, unitVector(50, dimension)); // deleted, then written again
    });
    const reader = AnnVectorsReader.open(path, dimension);
    try {
      const query = unitVector(99, dimension);
      expect(reader.size).toBe(3);
      expect(reader.cosine(1, query, 1)).toBeCloseTo(cosine(query, unitVector(1, dimension)), 3);
      expect(reader.cosine(2, query, 1)).toBeCloseTo(cosine(query, unitVector(20, dimension)), 3);
      expect(reader.cosine(5, query, 1)).toBeCloseTo(cosine(query, unitVector(50, dimension)), 3);
      for (const missing of [0, 3, 4, 6]) expect(reader.cosine(missing, query, 1)).toBeUndefined();
    } finally {
      reader.close();
    }
  });

  it('writes an empty file that opens empty, and leaves nothing behind when aborted', () => {
    const dir = directory();
    write(join(dir, 'empty.vectors'), 8, () => undefined);
    const reader = AnnVectorsReader.open(join(dir, 'empty.vectors'), 8);
    expect(reader.size).toBe(0);
    expect(reader.cosine(1, new Float32Array(8).fill(1), 1)).toBeUndefined();
    reader.close();
    const writer = new AnnVectorsWriter(join(dir, 'aborted.partial'), 8);
    writer.add(1, new Float32Array(8).fill(1));
    writer.abort();
    expect(existsSync(join(dir, 'aborted.partial'))).toBe(false);
  });

  it('refuses a truncated file, another dimension, a foreign file and a malformed table', () => {
    const dir = directory();
    const path = join(dir, 'rows.vectors');
    write(path, 16, (writer) => {
      for (let i = 0; i < 10; i++) writer.add(i, unitVector(i, 16));
    });
    const good = readFileSync(path);
    expect(() => AnnVectorsReader.open(path, 32)).toThrow(/16-d vectors, not 32/);
    truncateSync(path, good.length - 1);
    expect(() => AnnVectorsReader.open(path, 16)).toThrow(/does not match its header/);
    writeFileSync(path, Buffer.from('not a vectors file at all, not at all'));
    expect(() => AnnVectorsReader.open(path, 16)).toThrow(/not a vectors file/);
    const unsorted = Buffer.from(good);
    // the table's first two rowids swapped
    const table = 32 + 10 * 16 * 2;
    const first = unsorted.subarray(table, table + 8).toString('hex');
    unsorted.write(unsorted.subarray(table + 8, table + 16).toString('hex'), table, 'hex');
    unsorted.write(first, table + 8, 'hex');
    writeFileSync(path, unsorted);
    expect(() => AnnVectorsReader.open(path, 16)).toThrow(/malformed table/);
  });
});

describe('int8 codes for the HNSW index', () => {
  it('scales each row so its largest component is ±127, leaving a zero row zero', () => {
    const rows = Float32Array.from([0.25, -0.5, 0.125, 0, 0, 0, 3, 1.5, -3]);
    expect([...scaledInt8(rows, 3)]).toEqual([64, -127, 32, 0, 0, 0, 127, 64, -127]);
  });
});

describe('float16 codes of the vectors file', () => {
  it('round to the nearest code, ties to even, and read back their value', () => {
    const cases: Array<[number, number]> = [
      [0, 0x0000],
      [-0, 0x8000],
      [1, 0x3c00],
      [-2, 0xc000],
      [0.1, 0x2e66],
      [65504, 0x7bff],
      [65520, 0x7c00], // halfway to the next binade: rounds to even, which is infinity
      [1e6, 0x7c00],
      [-Infinity, 0xfc00],
      [2 ** -24, 0x0001], // the smallest subnormal
      [2 ** -25, 0x0000], // halfway to it: ties to even (zero)
      [3 * 2 ** -25, 0x0002], // halfway between 1 and 2 units: to even (2)
      [2 ** -14, 0x0400], // the smallest normal
      [1 + 2 ** -11, 0x3c00], // halfway between 1 and its successor: to even (1)
      [1 + 3 * 2 ** -11, 0x3c02], // halfway between 0x3c01 and 0x3c02: to even
    ];
    for (const [value, code] of cases) expect([value, toFloat16(value)]).toEqual([value, code]);
    expect(Number.isNaN(fromFloat16(toFloat16(Number.NaN)))).toBe(true);
    for (const code of [0x0001, 0x03ff, 0x0400, 0x3c00, 0x3c01, 0x7bff, 0xbc00, 0x8001]) expect(toFloat16(fromFloat16(code))).toBe(code);
    expect(fromFloat16(0x3555)).toBeCloseTo(1 / 3, 3);
  });
});
