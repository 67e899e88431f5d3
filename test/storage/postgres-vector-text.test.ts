/**
 * The text form of stored vectors on PostgreSQL (`real[]` and pgvector): what the store writes reads back
 * to the same float32 values, whatever the parser's path.
 */
import { describe, expect, it } from 'vitest';
import { parseVectorText, vectorLiteral } from '../../src/storage/postgres/pg-rows.js';

describe('vector text on PostgreSQL', () => {
  it('reads back every float32 it wrote, in both storages', () => {
    let seed = 7;
    const next = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    for (const scale of [1, 1e-3, 1e-12, 1e30]) {
      const vector = Float32Array.from({ length: 384 }, () => next() * scale);
      vector[0] = 0;
      for (const storage of ['array', 'pgvector'] as const) expect(parseVectorText(vectorLiteral(vector, storage))).toEqual(vector);
    }
  });

  it('reads the spellings PostgreSQL uses for the values JSON lacks, and empty vectors', () => {
    expect([...parseVectorText('{NaN,Infinity,-Infinity,0.5}')]).toEqual([NaN, Infinity, -Infinity, 0.5]);
    expect([...parseVectorText('{1e-05,-2.5E+03,3}')]).toEqual([...Float32Array.from([1e-5, -2500, 3])]);
    expect(parseVectorText('{}')).toEqual(new Float32Array(0));
    expect(parseVectorText('[]')).toEqual(new Float32Array(0));
  });
});
