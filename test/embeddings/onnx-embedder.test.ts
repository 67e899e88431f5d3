/**
 * The ONNX embedder with the real models from the model cache (`engram models pull`, or
 * scripts/ci-models.sh). Without the files the tests skip, naming why; with CI=true a missing
 * default model fails the run instead.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { cosineSimilarity } from '../../src/embeddings/l2-normalize.js';
import { BlendEmbedder, hasModelFiles, OnnxEmbedder, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { tempDir } from '../helpers/temp.js';
import { PARAPHRASE_TRIPLES } from './paraphrase-triples.js';

const cacheDir = resolveModelCacheDir(process.env, homedir());
const DIST_ONNX = fileURLToPath(new URL('../../dist/embeddings/onnx/index.js', import.meta.url));
const distBuilt = existsSync(DIST_ONNX);
const CI = process.env.CI === 'true';
const root = fileURLToPath(new URL('../../', import.meta.url));
const builtWorker = existsSync(join(root, 'dist', 'embeddings', 'onnx', 'onnx-worker.js'));

function skipReason(model: string): string {
  return hasModelFiles(cacheDir, model) ? '' : ` (skipped: ${model} is not in ${cacheDir}; run "engram models pull ${model}")`;
}

function maxDifference(a: readonly Float32Array[], b: readonly Float32Array[]): number {
  let max = 0;
  a.forEach((vector, i) => vector.forEach((value, j) => (max = Math.max(max, Math.abs(value - ((b[i] as Float32Array)[j] as number))))));
  return max;
}

it('has the default model in the cache when CI=true', () => {
  if (CI)
    expect(hasModelFiles(cacheDir, 'bge-small-en-v1.5'), `bge-small-en-v1.5 must be in ${cacheDir} on CI (scripts/ci-models.sh)`).toBe(
      true,
    );
});

for (const model of ['bge-small-en-v1.5', 'all-minilm-l6-v2'] as const) {
  const missing = skipReason(model);
  describe.skipIf(missing !== '')(`OnnxEmbedder ${model} (real model)${missing}`, () => {
    const embedder = missing === '' ? OnnxEmbedder.create({ model, cacheDir }) : (undefined as unknown as OnnxEmbedder);
    afterAll(() => embedder?.close());

    it('gives unit vectors of the model dimension, a paraphrase closer than an unrelated sentence', async () => {
      const [cat, kitten, market] = await embedder.embed([
        'A cat sat on the mat.',
        'A kitten was sitting on the rug.',
        'The stock market fell sharply today.',
      ]);
      expect(embedder.dimension).toBe(384);
      expect(embedder.name).toMatch(new RegExp(`^onnx:${model.replace(/\./g, '\\.')}:384:[0-9a-f]{8}$`));
      for (const vector of [cat, kitten, market]) expect(Math.hypot(...(vector as Float32Array))).toBeCloseTo(1, 5);
      expect(cosineSimilarity(cat!, kitten!)).toBeGreaterThan(cosineSimilarity(cat!, market!) + 0.2);
    });

    it('ranks the paraphrase above the distractor in at least 18 of the 20 paraphrase triples', async () => {
      const vectors = await embedder.embed(PARAPHRASE_TRIPLES.flatMap((t) => [t.query, t.right, t.distractor]));
      const right = PARAPHRASE_TRIPLES.filter(
        (_, i) => cosineSimilarity(vectors[i * 3]!, vectors[i * 3 + 1]!) > cosineSimilarity(vectors[i * 3]!, vectors[i * 3 + 2]!),
      ).length;
      expect(right).toBeGreaterThanOrEqual(18);
    });

    it('keeps input order when batching; int8 dynamic quantisation moves a vector slightly with its batch', async () => {
      const texts = ['short', 'a somewhat longer sentence about the kitchen shelves', 'mid-length text here', ''];
      const batched = await embedder.embed(texts);
      const single = await Promise.all(texts.map(async (text) => (await embedder.embed([text]))[0] as Float32Array));
      // Activation scales are computed over the whole batch, so companions shift a vector a little
      // (measured: bge ≥ 0.993, MiniLM ≥ 0.969 on these texts, the empty one lowest).
      const floor = model === 'bge-small-en-v1.5' ? 0.99 : 0.95;
      batched.forEach((vector, i) => expect(cosineSimilarity(vector, single[i]!)).toBeGreaterThan(floor));
      const unbatched = OnnxEmbedder.create({ model, cacheDir, batchSize: 1 });
      try {
        expect(maxDifference(await unbatched.embed(texts), single)).toBeLessThan(1e-6);
      } finally {
        await unbatched.close();
      }
    });

    it('puts long texts in smaller batches under maxBatchTokens, keeping every vector in its place', async () => {
      const texts = Array.from({ length: 9 }, (_, i) =>
        i % 3 === 0 ? `Note ${i}: ${'the build runner ran out of memory while packing the image. '.repeat(8)}` : `note ${i} is short`,
      );
      const budgeted = OnnxEmbedder.create({ model, cacheDir, maxBatchTokens: 64 });
      try {
        const vectors = await budgeted.embed(texts);
        const single = await Promise.all(texts.map(async (text) => (await embedder.embed([text]))[0] as Float32Array));
        vectors.forEach((vector, i) => expect(cosineSimilarity(vector, single[i]!), texts[i]).toBeGreaterThan(0.95));
      } finally {
        await budgeted.close();
      }
      expect(() => OnnxEmbedder.create({ model, cacheDir, maxBatchTokens: -1 })).toThrow(/maxBatchTokens must be a whole number/);
    });

    it('cuts a text at the model maximum length: words past it change nothing', async () => {
      const long = Array.from({ length: 700 }, (_, i) => `word${i % 50}`).join(' ');
      const [a, b] = await embedder.embed([long, `${long} and then a completely different ending about volcanoes`]);
      expect(maxDifference([a!], [b!])).toBeLessThan(1e-5);
    });
  });
}

describe.skipIf(skipReason('e5-small-v2') !== '')(`OnnxEmbedder e5-small-v2 prefixes${skipReason('e5-small-v2')}`, () => {
  it('embeds queries with "query: " and stored texts with "passage: "', async () => {
    const embedder = OnnxEmbedder.create({ model: 'e5-small-v2', cacheDir });
    try {
      const [asQuery] = await embedder.embed(['where does alice sit'], { purpose: 'query' });
      const [asPassage] = await embedder.embed(['where does alice sit']);
      const [explicitQuery] = await embedder.embed(['query: where does alice sit'], { purpose: 'passage' });
      expect(maxDifference([asQuery!], [asPassage!])).toBeGreaterThan(1e-3);
      // The passage path adds "passage: ", so "query: …" as a passage is "passage: query: …", not the query vector.
      expect(maxDifference([asQuery!], [explicitQuery!])).toBeGreaterThan(1e-3);
    } finally {
      await embedder.close();
    }
  });
});

describe.skipIf(skipReason('e5-small-v2') !== '')(`OnnxEmbedder threads on the calling thread${skipReason('e5-small-v2')}`, () => {
  it('gives the same vectors with one onnxruntime thread or two, and refuses a count below one', async () => {
    const texts = ['where does alice sit', 'x', `${'the deploy failed because the cache was stale; '.repeat(6)}the end`];
    const one = OnnxEmbedder.create({ model: 'e5-small-v2', cacheDir, inProcessThreads: 1 });
    const two = OnnxEmbedder.create({ model: 'e5-small-v2', cacheDir, inProcessThreads: 2 });
    try {
      for (const purpose of ['query', 'passage'] as const) {
        expect(maxDifference(await two.embed(texts, { purpose }), await one.embed(texts, { purpose }))).toBe(0);
        for (const text of texts) expect(maxDifference(await two.embed([text], { purpose }), await one.embed([text], { purpose }))).toBe(0);
      }
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
    for (const inProcessThreads of [0, 1.5, -1])
      expect(() => OnnxEmbedder.create({ model: 'e5-small-v2', cacheDir, inProcessThreads })).toThrow(
        /inProcessThreads must be a whole number ≥ 1/,
      );
  });
});

describe.skipIf(skipReason('bge-small-en-v1.5') !== '')(`OnnxEmbedder bge query instruction${skipReason('bge-small-en-v1.5')}`, () => {
  it('changes query vectors only, and only when asked for', async () => {
    const plain = OnnxEmbedder.create({ model: 'bge-small-en-v1.5', cacheDir });
    const instructed = OnnxEmbedder.create({ model: 'bge-small-en-v1.5', cacheDir, queryInstruction: true });
    try {
      const text = ['where does alice sit'];
      expect(maxDifference(await plain.embed(text, { purpose: 'query' }), await plain.embed(text))).toBe(0);
      expect(maxDifference(await instructed.embed(text, { purpose: 'query' }), await plain.embed(text))).toBeGreaterThan(1e-3);
      expect(maxDifference(await instructed.embed(text), await plain.embed(text))).toBe(0);
    } finally {
      await Promise.all([plain.close(), instructed.close()]);
    }
  });
});

const workersSkip =
  skipReason('bge-small-en-v1.5') || (builtWorker ? '' : ' (skipped: needs the compiled worker, run `npm run build` first)');
describe.skipIf(workersSkip !== '')(`OnnxEmbedder with worker threads${workersSkip}`, () => {
  it('gives the in-process vectors, in order', async () => {
    const texts = Array.from({ length: 8 }, (_, i) => `Memory ${i}: item ${i} was moved to shelf ${i % 7}${' again'.repeat(i % 5)}.`);
    // One text per call on both sides, so batch companions cannot shift the int8 activations.
    const inProcess = OnnxEmbedder.create({ model: 'bge-small-en-v1.5', cacheDir, batchSize: 1 });
    const pooled = OnnxEmbedder.create({ model: 'bge-small-en-v1.5', cacheDir, workers: 2, inProcessMaxTexts: 0, batchSize: 1 });
    const stderrListeners = process.stderr.listenerCount('error');
    try {
      expect(pooled.workers).toBe(2);
      expect(maxDifference(await pooled.embed(texts), await inProcess.embed(texts))).toBeLessThan(1e-6);
      // Workers forward their console output without adding listeners to process.stderr (a blend's
      // members with a few workers each went past Node's limit of ten and printed a leak warning).
      expect(process.stderr.listenerCount('error')).toBe(stderrListeners);
    } finally {
      await Promise.all([inProcess.close(), pooled.close()]);
    }
  });

  it.skipIf(!distBuilt)(
    `closing a pool while a worker still loads its model or runs a batch does not abort the process${distBuilt ? '' : ' (skipped: needs npm run build)'}`,
    { timeout: 120_000 },
    () => {
      // A child process (an abort would take the test runner with it): pools of 2 workers get one text,
      // so the second worker is still loading when close() runs, at delays across the load time. Before
      // close() waited for busy workers, delays of 200-300 ms aborted with "terminate called after
      // throwing an instance of 'Napi::Error'" (exit 134).
      const script = `
        const { OnnxEmbedder } = await import(${JSON.stringify(pathToFileURL(DIST_ONNX).href)});
        for (let delay = 0; delay <= 600; delay += 50) {
          const pool = OnnxEmbedder.create({ model: 'bge-small-en-v1.5', cacheDir: ${JSON.stringify(cacheDir)}, workers: 2, inProcessMaxTexts: 0 });
          const job = pool.embed(['one short text']).then(() => 'done', (error) => error.code);
          await new Promise((resolve) => setTimeout(resolve, delay));
          await pool.close();
          const outcome = await job;
          if (outcome !== 'done' && outcome !== 'EMBEDDING_FAILED') throw new Error('unexpected outcome ' + outcome);
        }
        console.log('closed 13 pools');`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 110_000 });
      expect(child.stderr).not.toContain('terminate called');
      expect(child.status, child.stderr).toBe(0);
      expect(child.stdout.trim()).toBe('closed 13 pools');
    },
  );

  it.skipIf(!distBuilt)(
    `a pool whose model cannot load fails every job with the load hint, starts fresh workers for the next job, and lets the process exit${distBuilt ? '' : ' (skipped: needs npm run build)'}`,
    { timeout: 120_000 },
    () => {
      // A model directory whose model.onnx is not a model (verification skipped, so the workers try to
      // load it): the first worker to fail fails the pool (#failAll) while the other may still be
      // loading; that one is retired only once it answers. Five rounds, each starting fresh workers, in
      // a child process that never calls close() and must still exit on its own, promptly.
      const dir = tempDir();
      try {
        const modelDir = join(dir.dir, 'models', 'bge-small-en-v1.5');
        mkdirSync(modelDir, { recursive: true });
        copyFileSync(join(cacheDir, 'models', 'bge-small-en-v1.5', 'tokenizer.json'), join(modelDir, 'tokenizer.json'));
        writeFileSync(join(modelDir, 'model.onnx'), Buffer.alloc(4096, 7));
        const script = `
          const { OnnxEmbedder } = await import(${JSON.stringify(pathToFileURL(DIST_ONNX).href)});
          const pool = OnnxEmbedder.create({ model: 'bge-small-en-v1.5', cacheDir: ${JSON.stringify(dir.dir)}, workers: 2, inProcessMaxTexts: 0, skipVerify: true });
          const outcomes = [];
          for (let round = 0; round < 5; round++) {
            outcomes.push(await pool.embed(['one short text', 'another text']).then(() => 'embedded', (error) => error.code + ': ' + error.message));
          }
          console.log(JSON.stringify(outcomes));
          // no close(): the failed pool's workers must not keep the process alive`;
        const started = Date.now();
        const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 110_000 });
        expect(child.stderr).not.toContain('terminate called');
        expect(child.status, child.stderr).toBe(0);
        const outcomes = JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as string[];
        expect(outcomes).toHaveLength(5);
        for (const outcome of outcomes) expect(outcome).toMatch(/^EMBEDDING_FAILED: .*could not load/i);
        // well under the 15 s a busy worker is given to answer
        expect(Date.now() - started).toBeLessThan(14_000);
      } finally {
        dir.cleanup();
      }
    },
  );

  it('warms every worker; a query on an idle worker gets the in-process vector', async () => {
    const query = 'which shelf did item 3 move to?';
    const inProcess = OnnxEmbedder.create({ model: 'bge-small-en-v1.5', cacheDir });
    const pooled = OnnxEmbedder.create({ model: 'bge-small-en-v1.5', cacheDir, workers: 1 });
    try {
      await pooled.warmUp();
      await pooled.warmUp();
      const [onWorker, again] = await Promise.all([
        pooled.embed([query], { purpose: 'query' }),
        pooled.embed([query], { purpose: 'query' }),
      ]);
      const expected = await inProcess.embed([query], { purpose: 'query' });
      expect(maxDifference(onWorker, expected)).toBeLessThan(1e-6);
      expect(maxDifference(again, expected)).toBeLessThan(1e-6);
    } finally {
      await Promise.all([inProcess.close(), pooled.close()]);
    }
    await expect(pooled.warmUp()).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
  });
});

describe.skipIf(skipReason('bge-small-en-v1.5') !== '')(`Engram.open with an ONNX model${skipReason('bge-small-en-v1.5')}`, () => {
  it('records onnx:<name>:<dim>:<sha8>, reopens with it, and refuses to reopen without the files', async () => {
    const temp = tempDir('engram-onnx-open-');
    const path = join(temp.dir, 'engram.db');
    try {
      const engram = await Engram.open({ path, embedder: 'onnx:bge-small-en-v1.5', cacheDir });
      await engram.remember({ scope: 't/a', content: 'Alice prefers window seats on long flights.', layer: 'semantic' });
      await engram.remember({ scope: 't/a', content: 'The quarterly budget review is on Friday.', layer: 'semantic' });
      await engram.close();

      const reopened = await Engram.open({ path, cacheDir });
      try {
        expect((await reopened.stats({ scopes: ['t/a'] })).embedder).toBe('onnx:bge-small-en-v1.5:384:6c9c6101');
        const { hits } = await reopened.recall('where does alice like to sit on a plane', { scopes: ['t/a'] });
        expect(hits[0]?.content).toContain('window seats');
      } finally {
        await reopened.close();
      }

      const empty = tempDir('engram-no-models-');
      try {
        await expect(Engram.open({ path, cacheDir: empty.dir })).rejects.toMatchObject({
          code: 'EMBEDDING_FAILED',
          message: expect.stringContaining('engram models pull bge-small-en-v1.5'),
        });
      } finally {
        empty.cleanup();
      }
    } finally {
      temp.cleanup();
    }
  });
});

const blendSkip = skipReason('blend-small-en');
describe.skipIf(blendSkip !== '')(`BlendEmbedder blend-small-en (real models)${blendSkip}`, () => {
  it("joins the members' vectors: unit length, summed dimension, cosine = weighted mean of the members' cosines", async () => {
    const blend = BlendEmbedder.create({ model: 'blend-small-en', cacheDir, batchSize: 1 });
    const members = (['bge-small-en-v1.5', 'e5-small-v2', 'all-minilm-l6-v2'] as const).map((model) =>
      OnnxEmbedder.create({ model, cacheDir, batchSize: 1 }),
    );
    try {
      const texts = [
        'Priya adopted a beagle puppy called Biscuit.',
        'what pets does priya have?',
        'The quarterly report is due on Friday.',
      ];
      const [dog, query, report] = await blend.embed(texts.slice(0, 3), { purpose: 'passage' });
      const [asQuery] = await blend.embed([texts[1]!], { purpose: 'query' });
      expect(blend.dimension).toBe(1152);
      expect(blend.name).toMatch(/^onnx:blend-small-en:1152:[0-9a-f]{8}$/);
      for (const vector of [dog, query, report, asQuery]) expect(Math.hypot(...(vector as Float32Array))).toBeCloseTo(1, 4);
      // the e5 member embeds queries with its "query: " prefix, so the query vector differs from the passage one
      expect(maxDifference([asQuery!], [query!])).toBeGreaterThan(1e-3);
      const weights = [1, 4, 1];
      const memberCosines = await Promise.all(
        members.map(async (member) => {
          const [d] = await member.embed([texts[0]!]);
          const [q] = await member.embed([texts[1]!], { purpose: 'query' });
          return cosineSimilarity(d!, q!);
        }),
      );
      const mean = memberCosines.reduce((sum, c, i) => sum + c * weights[i]!, 0) / 6;
      expect(cosineSimilarity(dog!, asQuery!)).toBeCloseTo(mean, 4);
      expect(cosineSimilarity(dog!, asQuery!)).toBeGreaterThan(cosineSimilarity(report!, asQuery!) + 0.05);
    } finally {
      await Promise.all([blend.close(), ...members.map((m) => m.close())]);
    }
  });

  it('is a store model like any other: recorded, recalled by meaning, reopened by its name alone', async () => {
    const temp = tempDir('engram-blend-open-');
    try {
      const path = join(temp.dir, 'engram.db');
      const engram = await Engram.open({ path, embedder: 'blend-small-en' });
      await engram.remember([
        { scope: 's', content: 'Priya adopted a beagle puppy called Biscuit last spring.' },
        { scope: 's', content: 'The quarterly report is due on Friday.' },
        { scope: 's', content: 'The staging cluster is scaled down every weekend.' },
      ]);
      const { hits } = await engram.recall('which animals does Priya own?', { scopes: ['s'], k: 1 });
      expect(hits[0]?.content).toContain('beagle');
      const recorded = engram.embedder.name;
      await engram.close();
      const reopened = await Engram.open({ path });
      expect(reopened.embedder.name).toBe(recorded);
      await reopened.close();
    } finally {
      temp.cleanup();
    }
  });

  it('names the missing member when one is not installed', () => {
    const temp = tempDir('engram-blend-missing-');
    try {
      expect(() => BlendEmbedder.create({ model: 'blend-small-en', cacheDir: temp.dir })).toThrow(/engram models pull bge-small-en-v1\.5/);
      expect(() => BlendEmbedder.create({ model: 'blend-large', cacheDir })).toThrow(/Unknown model blend "blend-large"/);
    } finally {
      temp.cleanup();
    }
  });
});
