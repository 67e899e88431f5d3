import { describe, expect, it } from 'vitest';
import { compileIfValid } from '../../src/core/wasm-encoding.js';
import { int8ModuleBytes, int8SimdAvailable, Int8Scanner, QUERY_LEVELS } from '../../src/core/simd-int8.js';
import {
  bestPartCosine,
  bestPartCosines,
  bestPartCosinesInJs,
  decodePartBlobs,
  decodePartVectors,
  encodePartVectors,
} from '../../src/storage/part-vectors.js';

/** A unit vector of `dimension` components from a small deterministic generator. */
function unit(dimension: number, seed: number): Float32Array {
  const v = new Float32Array(dimension);
  let x = seed;
  for (let i = 0; i < dimension; i += 1) {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    v[i] = x / 2 ** 31 - 0.5;
  }
  const norm = Math.hypot(...v);
  return v.map((c) => c / norm);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i += 1) s += (a[i] as number) * (b[i] as number);
  return s;
}

describe('part vector blobs', () => {
  // 7 and 13 leave a tail after the four-wide loop; 768 is the default model's dimension
  for (const dimension of [1, 7, 13, 768]) {
    it(`round-trips and scores ${dimension}-d parts within the int8 error`, () => {
      const parts = [unit(dimension, 1), unit(dimension, 2), unit(dimension, 3)];
      const blob = encodePartVectors(parts, dimension);
      expect(blob.length).toBe(3 * (4 + dimension));
      const decoded = decodePartVectors(blob, dimension);
      expect(decoded).toHaveLength(3);
      decoded.forEach((part, i) => expect(cosine(part, parts[i] as Float32Array)).toBeGreaterThan(dimension === 1 ? 0.999 : 0.99));
      const query = unit(dimension, 9);
      const exact = Math.max(...parts.map((p) => cosine(p, query)));
      const fromDecoded = Math.max(...decoded.map((p) => cosine(p, query)));
      expect(bestPartCosine(blob, query)).toBeCloseTo(fromDecoded, 5);
      expect(Math.abs((bestPartCosine(blob, query) as number) - exact)).toBeLessThan(0.01);
    });
  }

  it('answers nothing for an empty blob or one whose length does not fit the dimension', () => {
    const blob = encodePartVectors([unit(8, 1)], 8);
    expect(bestPartCosine(new Uint8Array(0), unit(8, 2))).toBeUndefined();
    expect(bestPartCosine(blob, unit(9, 2))).toBeUndefined();
    expect(decodePartVectors(blob, 9)).toEqual([]);
    expect(() => encodePartVectors([unit(7, 1)], 8)).toThrow(/dimension/i);
  });

  it('reads a blob at any byte offset of a larger buffer (as a driver hands them back)', () => {
    const dimension = 13;
    const blob = encodePartVectors([unit(dimension, 4), unit(dimension, 5)], dimension);
    const shifted = new Uint8Array(blob.length + 3);
    shifted.set(blob, 3);
    const view = shifted.subarray(3);
    const query = unit(dimension, 6);
    expect(bestPartCosine(view, query)).toBeCloseTo(bestPartCosine(blob, query) as number, 6);
    const scores = bestPartCosines(
      new Map([
        ['a', view],
        ['b', new Uint8Array(0)],
      ]),
      query,
    );
    expect([...scores.keys()]).toEqual(['a']);
    expect([
      ...decodePartBlobs(
        new Map([
          ['a', view],
          ['b', new Uint8Array(0)],
        ]),
        dimension,
      ).keys(),
    ]).toEqual(['a']);
  });
});

describe('the int8 SIMD kernel', () => {
  it('is valid WebAssembly that Node 20 runs', () => {
    expect(compileIfValid(int8ModuleBytes())).not.toBeNull();
    expect(int8SimdAvailable()).toBe(true);
  });

  it('serves only dimensions that are a multiple of 16', () => {
    expect(Int8Scanner.create(768)).toBeDefined();
    expect(Int8Scanner.create(16)).toBeDefined();
    expect(Int8Scanner.create(13)).toBeUndefined();
    expect(Int8Scanner.create(0)).toBeUndefined();
  });

  it('computes exact integer dot products of an int16 query with strided int8 rows', () => {
    const dimension = 32;
    const scanner = Int8Scanner.create(dimension) as Int8Scanner;
    const query = Float32Array.from({ length: dimension }, (_, i) => (i % 2 === 0 ? 1 : -0.5));
    const factor = scanner.setQuery(query);
    expect(factor).toBeCloseTo(1 / QUERY_LEVELS, 9);
    // two rows of stride 4 + 32: a 4-byte header then components; extremes of int8 included
    const stride = 4 + dimension;
    const bytes = new Uint8Array(2 * stride);
    const rows = new Int8Array(bytes.buffer);
    for (let i = 0; i < dimension; i += 1) {
      rows[4 + i] = i === 0 ? -128 : i === 1 ? 127 : i - 16;
      rows[stride + 4 + i] = 1;
    }
    scanner.load([bytes]);
    const dots = scanner.dots(2, stride, 4);
    const expected = [0, 1].map((r) => {
      let sum = 0;
      for (let i = 0; i < dimension; i += 1) sum += (rows[r * stride + 4 + i] as number) * Math.round((query[i] as number) / factor);
      return sum;
    });
    expect([...dots]).toEqual(expected);
  });

  for (const dimension of [16, 384, 768, 1536]) {
    it(`agrees with the JS loop to 1e-3 on ${dimension}-d parts, many records of different part counts`, () => {
      const blobs = new Map<string, Uint8Array>();
      for (let r = 0; r < 40; r += 1) {
        const parts = Array.from({ length: 1 + (r % 8) }, (_, p) => unit(dimension, r * 31 + p + 1));
        blobs.set(`m${r}`, encodePartVectors(parts, dimension));
      }
      blobs.set('empty', new Uint8Array(0));
      blobs.set('torn', new Uint8Array(dimension + 3));
      const query = unit(dimension, 777);
      const simd = bestPartCosines(blobs, query);
      const js = bestPartCosinesInJs(blobs, query);
      expect([...simd.keys()]).toEqual([...js.keys()]);
      expect(simd.size).toBe(40);
      for (const [id, value] of js) expect(Math.abs((simd.get(id) as number) - value)).toBeLessThan(1e-3);
      // a second, larger call grows the memory and still agrees
      const more = new Map([...blobs, ...[...blobs].map(([id, blob]) => [`${id}-again`, blob] as [string, Uint8Array])]);
      const again = bestPartCosines(more, query);
      expect(again.size).toBe(80);
      for (const id of js.keys()) expect(again.get(`${id}-again`)).toBeCloseTo(simd.get(id) as number, 9);
    });
  }
});
