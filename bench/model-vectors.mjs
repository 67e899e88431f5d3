// Vectors of the synthetic corpus (bench/corpus.mjs) embedded once by a named model or blend and cached on disk,
// so the scale benchmark can run a real model's store without re-embedding 100k texts each time
// (bge-small at ~100-200 texts/s on 2 cores: 8-15 minutes). One file per model, seed and generator
// version under bench/.cache/, raw little-endian float32, memory i at offset i × dimension; a longer
// file serves every shorter size, and an interrupted run resumes where the file ends.
// `node bench/model-vectors.mjs --model bge-small-en-v1.5 --size 100000` fills the cache on its own.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CACHE_DIR, GENERATOR_VERSION, REPO_DIR, defaultModelName, log, memoryAt } from './lib.mjs';

/** Texts per embed call: large enough to keep both workers busy, small enough to save progress often. */
const CHUNK = 512;

export function vectorCachePath(model, seed) {
  return join(CACHE_DIR, `vectors-${model}-s${seed}-g${GENERATOR_VERSION}.f32`);
}

/**
 * The first `count` memories of stream `seed` embedded by `model` (a catalogue ONNX model), as one
 * Float32Array of `count × dimension`; embeds and appends whatever the cache lacks.
 */
export async function ensureModelVectors({ model, seed, count, workers = 2 }) {
  const { createEmbedder } = await import(join(REPO_DIR, 'dist/index.js'));
  const embedder = await createEmbedder(model, { workers });
  const dimension = embedder.dimension;
  const path = vectorCachePath(model, seed);
  mkdirSync(CACHE_DIR, { recursive: true });
  const have = existsSync(path) ? Math.floor(statSync(path).size / (4 * dimension)) : 0;
  if (have < count) {
    log(`embedding memories ${have}..${count} of seed ${seed} with ${model} (${workers} workers), cached in ${path}`);
    const fd = openSync(path, 'a');
    const started = performance.now();
    try {
      for (let from = have; from < count; from += CHUNK) {
        const to = Math.min(count, from + CHUNK);
        const texts = [];
        for (let i = from; i < to; i++) texts.push(memoryAt(seed, i).content);
        const vectors = await embedder.embed(texts);
        const flat = new Float32Array(vectors.length * dimension);
        vectors.forEach((v, i) => flat.set(v, i * dimension));
        writeSync(fd, new Uint8Array(flat.buffer));
        const rate = (to - have) / ((performance.now() - started) / 1000);
        if (((to - have) / CHUNK) % 10 === 0 || to >= count) log(`  ${to}/${count} (${rate.toFixed(0)} texts/s)`);
      }
    } finally {
      closeSync(fd);
    }
  }
  await embedder.close();
  const bytes = readFileSync(path);
  const all = new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
  return { name: embedder.name, dimension, vectors: all.subarray(0, count * dimension) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      model: { type: 'string', default: await defaultModelName() },
      size: { type: 'string', default: '100000' },
      seed: { type: 'string' },
    },
  });
  const { SCALE_SEED } = await import('./scale-corpus.mjs');
  const size = Number(values.size);
  const seeds =
    values.seed !== undefined
      ? [[Number(values.seed), size]]
      : [
          [SCALE_SEED, size],
          [SCALE_SEED + 1, Math.max(1, Math.round(size / 100))],
        ];
  for (const [seed, count] of seeds) await ensureModelVectors({ model: values.model, seed, count });
}
