import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosineSimilarity } from '../../src/embeddings/l2-normalize.js';
import { UseEmbedder, prepareUseText } from '../../src/embeddings/use/index.js';
import { LEXICAL_TRAP_TRIPLES, PARAPHRASE_TRIPLES, type ParaphraseTriple } from './paraphrase-triples.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const builtWorker = existsSync(`${root}dist/embeddings/use/use-worker.js`);
const needsBuild = builtWorker ? '' : ' (skipped: needs the compiled worker, run `npm run build` first)';

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

function maxDifference(a: readonly Float32Array[], b: readonly Float32Array[]): number {
  let max = 0;
  a.forEach((vector, i) => vector.forEach((value, j) => (max = Math.max(max, Math.abs(value - ((b[i] as Float32Array)[j] as number))))));
  return max;
}

async function paraphraseScore(embedder: UseEmbedder, triples: readonly ParaphraseTriple[]): Promise<number> {
  const vectors = await embedder.embed(triples.flatMap((t) => [t.query, t.right, t.distractor]));
  return triples.filter((_, i) => {
    const [query, right, distractor] = vectors.slice(i * 3, i * 3 + 3) as [Float32Array, Float32Array, Float32Array];
    return cosineSimilarity(query, right) > cosineSimilarity(query, distractor);
  }).length;
}

const texts = Array.from(
  { length: 40 },
  (_, i) => `Memory ${i}: the agent noted that item ${i} was moved to shelf ${i % 7} in the kitchen.`,
);

describe('UseEmbedder (USE-lite, real model)', () => {
  const embedder = new UseEmbedder();
  let inProcess: Float32Array[] = [];

  beforeAll(async () => {
    inProcess = await embedder.embed(texts);
  });
  afterAll(() => embedder.close());

  it('is named use-lite:512 and returns 512-d unit Float32Arrays', async () => {
    expect(embedder.name).toBe('use-lite:512');
    expect(embedder.dimension).toBe(512);
    for (const vector of inProcess) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector.length).toBe(512);
      expect(norm(vector)).toBeCloseTo(1, 4);
    }
  });

  it('puts cat much closer to kitten than to revenue', async () => {
    const [cat, kitten, revenue] = (await embedder.embed(['cat', 'kitten', 'revenue'])) as [Float32Array, Float32Array, Float32Array];
    expect(cosineSimilarity(cat, kitten)).toBeGreaterThan(cosineSimilarity(cat, revenue) + 0.3);
  });

  it('puts "kitten on a rug" closer to "the cat sat on the mat" than to revenue news', async () => {
    const [cat, kitten, revenue] = (await embedder.embed(['the cat sat on the mat', 'kitten on a rug', 'quarterly revenue grew 5%'])) as [
      Float32Array,
      Float32Array,
      Float32Array,
    ];
    expect(cosineSimilarity(kitten, cat)).toBeGreaterThan(cosineSimilarity(kitten, revenue) + 0.3);
  });

  it('preserves order across batches: a batch gives the same vectors as one-by-one calls', async () => {
    for (const index of [0, 17, 31, 32, 39]) {
      const [alone] = (await embedder.embed([texts[index] as string])) as [Float32Array];
      expect(maxDifference([alone], [inProcess[index] as Float32Array])).toBeLessThan(1e-4);
    }
  });

  it('handles empty input, empty texts and very long texts', async () => {
    expect(await embedder.embed([])).toEqual([]);
    const vectors = await embedder.embed(['hello', '', '   ', 'word '.repeat(3000)]);
    expect(vectors).toHaveLength(4);
    for (const vector of vectors) expect(norm(vector)).toBeCloseTo(1, 4);
    expect(prepareUseText('word '.repeat(3000)).length).toBeLessThanOrEqual(2000);
    expect(prepareUseText('short')).toBe('short');
  });

  it('passes the paraphrase check and the lexical-trap check', async () => {
    expect(await paraphraseScore(embedder, PARAPHRASE_TRIPLES)).toBeGreaterThanOrEqual(19);
    expect(await paraphraseScore(embedder, LEXICAL_TRAP_TRIPLES)).toBeGreaterThanOrEqual(18);
  });

  it(`gives the same vectors on a worker pool as in-process${needsBuild}`, { skip: !builtWorker, timeout: 60_000 }, async () => {
    const pooled = new UseEmbedder({ workers: 2 });
    expect(pooled.workers).toBe(2);
    try {
      const vectors = await pooled.embed(texts);
      expect(vectors).toHaveLength(texts.length);
      expect(maxDifference(vectors, inProcess)).toBeLessThan(1e-4);
      // Small inputs run in-process on the calling thread and agree too.
      const [single] = (await pooled.embed([texts[5] as string])) as [Float32Array];
      expect(maxDifference([single], [inProcess[5] as Float32Array])).toBeLessThan(1e-4);
    } finally {
      await pooled.close();
    }
  });

  it('closes idempotently and refuses to embed afterwards', async () => {
    const closing = new UseEmbedder({ workers: builtWorker ? 1 : 0 });
    await closing.embed(['warm']);
    await closing.close();
    await closing.close();
    await expect(closing.embed(['after close'])).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
  });

  it('rejects with EMBEDDING_FAILED, not a crash, when its workers cannot start', async () => {
    const broken = new UseEmbedder({ workers: 1, workerUrl: new URL('file:///nonexistent/engram/use-worker.js') });
    await expect(broken.embed(texts)).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
    await expect(broken.embed(texts)).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
    await broken.close();
  });

  it('rejects bad options with INVALID_INPUT', () => {
    expect(() => new UseEmbedder({ workers: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => new UseEmbedder({ batchSize: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it(
    `writes nothing to stdout while loading and embedding, in-process or on workers${needsBuild}`,
    { skip: !builtWorker, timeout: 60_000 },
    () => {
      const script = `
      const { UseEmbedder } = await import(${JSON.stringify(`${root}dist/embeddings/use/index.js`)});
      for (const workers of [0, 1]) {
        const embedder = UseEmbedder.create({ workers });
        await embedder.embed(Array.from({ length: 12 }, (_, i) => 'text number ' + i));
        await embedder.close();
      }
      process.stderr.write('finished');`;
      const child = spawnSync(process.execPath, ['--input-type=module'], { input: script, encoding: 'utf8', timeout: 50_000 });
      expect(child.stderr).toContain('finished');
      expect(child.stdout).toBe('');
      expect(child.status).toBe(0);
    },
  );
});
