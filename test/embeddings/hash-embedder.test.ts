import { describe, expect, it } from 'vitest';
import { isEngramError } from '../../src/core/errors.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { cosineSimilarity } from '../../src/embeddings/l2-normalize.js';

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

describe('HashEmbedder', () => {
  it('names itself after its dimension and returns vectors of that length', async () => {
    const embedder = new HashEmbedder({ dimension: 128 });
    expect(embedder.name).toBe('hash:128');
    expect(embedder.dimension).toBe(128);
    const [vector] = await embedder.embed(['hello world']);
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector?.length).toBe(128);
    expect(new HashEmbedder().name).toBe('hash:256');
  });

  it('is deterministic across calls and instances', async () => {
    const texts = ['The deploy target moved to production', 'Alice prefers window seats'];
    const first = await new HashEmbedder().embed(texts);
    const second = await new HashEmbedder().embed(texts);
    expect(second).toEqual(first);
    expect(Array.from(first[0] ?? [])).toEqual(Array.from((await new HashEmbedder().embed([texts[0] as string]))[0] ?? []));
  });

  it('returns unit vectors, including for empty and symbol-only texts', async () => {
    const vectors = await new HashEmbedder().embed(['some words here', '', '   ', '!!! ???']);
    for (const vector of vectors) expect(norm(vector)).toBeCloseTo(1, 5);
  });

  it('keeps order and gives empty output for empty input', async () => {
    const embedder = new HashEmbedder();
    expect(await embedder.embed([])).toEqual([]);
    const [a, b] = await embedder.embed(['alpha beta', 'gamma delta']);
    const [b2] = await embedder.embed(['gamma delta']);
    expect(b).toEqual(b2);
    expect(a).not.toEqual(b);
  });

  it('makes texts that share words or word parts more similar than unrelated texts', async () => {
    const [cat, cats, revenue, catSat, catLay] = await new HashEmbedder().embed([
      'cat',
      'cats',
      'revenue',
      'the cat sat on the mat',
      'a cat lay on a mat',
    ]);
    const similar = cosineSimilarity(catSat as Float32Array, catLay as Float32Array);
    const unrelated = cosineSimilarity(catSat as Float32Array, revenue as Float32Array);
    expect(similar).toBeGreaterThan(0.3);
    expect(similar).toBeGreaterThan(unrelated + 0.2);
    expect(cosineSimilarity(cat as Float32Array, cats as Float32Array)).toBeGreaterThan(
      cosineSimilarity(cat as Float32Array, revenue as Float32Array),
    );
  });

  it('ignores case', async () => {
    const [upper, lower] = await new HashEmbedder().embed(['Hello World', 'hello world']);
    expect(upper).toEqual(lower);
  });

  it('rejects a bad dimension with INVALID_INPUT', () => {
    for (const dimension of [0, 7, 1.5, 100_000]) {
      try {
        new HashEmbedder({ dimension });
        expect.unreachable();
      } catch (error) {
        expect(isEngramError(error) && error.code).toBe('INVALID_INPUT');
      }
    }
  });

  it('rejects non-string input with EMBEDDING_FAILED and closes idempotently', async () => {
    const embedder = new HashEmbedder();
    await expect(embedder.embed([42 as unknown as string])).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
    await embedder.close();
    await embedder.close();
  });
});
