// The corpora of bench/scale.mjs: N memories in one scope plus a scope holding 1% as many, with the
// synthetic texts of bench/corpus.mjs embedded by the static table (the USE space), inserted straight
// through the store's transaction API. Built once per size and cached under bench/.cache/ with their
// HNSW index directory (`<db>.ann/`); the manifest keeps the build measurements (insert throughput,
// index build time), since a cached run cannot measure them again.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR, GENERATOR_VERSION, REPO_DIR, log, corpusRecord, memoryAt, mulberry32, since, removeDatabaseFiles } from './lib.mjs';

/** Bump when the corpus layout changes: cached scale corpora are keyed by it. */
const SCALE_VERSION = 1;
export const SCALE_SEED = 20_251_129;
export const MAIN_SCOPE = 'bench/scale/main';
/** A scope with 1% of the main scope's rows, in the same file. */
export const SMALL_SCOPE = 'bench/scale/one-percent';
const SMALL_SEED = SCALE_SEED + 1;
/** Records per transaction while building. */
const BATCH = 5000;

export const dist = (path) => join(REPO_DIR, 'dist', path);

/** Fails with a clear message when `npx tsc -p tsconfig.build.json` has not been run. */
export function assertBuilt() {
  if (!existsSync(dist('storage/sqlite/ann/ann-index.js'))) {
    throw new Error('dist/ is missing or predates the HNSW index: run `npx tsc -p tsconfig.build.json` (or `npm run build`) first.');
  }
}

/** The static table's own dimension; `--dimension` may ask for a model's instead (768: the default blend-e5-minilm). */
export const STATIC_DIMENSION = 512;
/** The largest `--dimension` the static vectors are projected to. */
const MAX_DIMENSION = 2048;

/**
 * `model`: the catalogue ONNX model whose vectors the corpus holds; undefined for the static table,
 * whose vectors are projected to `dimension` when that is not the table's own (see `scaleEmbedder`).
 */
export function corpusPaths(size, model, dimension = STATIC_DIMENSION) {
  const projected = model === undefined && dimension !== STATIC_DIMENSION ? `-d${dimension}` : '';
  const key = `scale-${size}-g${GENERATOR_VERSION}-v${SCALE_VERSION}${model === undefined ? '' : `-${model}`}${projected}`;
  return { key, path: join(CACHE_DIR, `${key}.db`), manifestPath: join(CACHE_DIR, `${key}.json`) };
}

export function readManifest(size, model, dimension) {
  const { path, manifestPath } = corpusPaths(size, model, dimension);
  return existsSync(path) && existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : undefined;
}

/** Records extra measurements (e.g. the index build) in the corpus manifest. */
export function updateManifest(size, fields, model, dimension) {
  const { manifestPath } = corpusPaths(size, model, dimension);
  const manifest = { ...JSON.parse(readFileSync(manifestPath, 'utf8')), ...fields };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * The cached corpus of `size`, built first when missing. Returns `{ path, manifest }`. With `model`, the
 * same records carry that model's vectors (embedded once into bench/.cache by bench/model-vectors.mjs).
 */
export async function ensureScaleCorpus(size, model, dimension = STATIC_DIMENSION) {
  assertBuilt();
  mkdirSync(CACHE_DIR, { recursive: true });
  const { key, path, manifestPath } = corpusPaths(size, model, dimension);
  const cached = readManifest(size, model, dimension);
  if (cached !== undefined) return { path, manifest: cached };
  const building = join(CACHE_DIR, `${key}.${process.pid}.building.db`);
  removeDatabaseFiles(building);
  const small = Math.max(1, Math.round(size / 100));
  log(`building scale corpus ${key}: ${size} + ${small} memories`);
  const start = performance.now();
  const stats = await build(
    building,
    size,
    small,
    model === undefined ? await staticVectors(dimension) : await cachedVectors(model, size, small),
  );
  await checkpoint(building);
  removeDatabaseFiles(path);
  renameSync(building, path);
  removeDatabaseFiles(building);
  const manifest = {
    key,
    size,
    smallSize: small,
    mainScope: MAIN_SCOPE,
    smallScope: SMALL_SCOPE,
    embedderName: stats.embedderName,
    records: stats.records,
    inactive: stats.inactive,
    embedSeconds: round(stats.embedMs / 1000),
    insertSeconds: round(stats.insertMs / 1000),
    insertPerSecond: Math.round(stats.records / (stats.insertMs / 1000)),
    buildSeconds: round(since(start) / 1000),
    builtAt: new Date().toISOString(),
  };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  log(`built ${key}: ${manifest.records} records in ${manifest.buildSeconds} s (${manifest.insertPerSecond} inserts/s)`);
  return { path, manifest };
}

const round = (x) => Math.round(x * 1000) / 1000;

/**
 * The static table's embedder, or with another `dimension` the same vectors projected to it: a fixed
 * Gaussian random matrix (seeded, so every process projects alike), each result scaled to unit length.
 * Issue #20 lets the 1M benchmark use static vectors of the default model's dimension (768: blend-e5-minilm),
 * since embedding a million texts with the model takes hours; a random projection keeps the table's
 * neighbourhoods roughly (at 384 dimensions, HNSW recall@10 over 50,000 corpus texts was the table's:
 * 0.9915 against 0.9905) at the dimension the HNSW search and the stored vectors would have. The
 * projection costs ~0.3 ms a query at 384 dimensions, counted in the engine's recall time.
 */
export async function scaleEmbedder(dimension = STATIC_DIMENSION) {
  const { StaticEmbedder } = await import(dist('embeddings/static/index.js'));
  const table = StaticEmbedder.create();
  if (dimension === STATIC_DIMENSION) return table;
  // above 512 (768, the default blend's) the vectors keep the table's 512 degrees of freedom, and a
  // search costs what it would at that dimension: what the timing needs
  if (!Number.isInteger(dimension) || dimension < 8 || dimension > MAX_DIMENSION)
    throw new Error(`--dimension must be a whole number from 8 to ${MAX_DIMENSION}, got ${dimension}`);
  const rng = mulberry32(PROJECTION_SEED + dimension);
  const matrix = new Float32Array(dimension * STATIC_DIMENSION);
  for (let i = 0; i < matrix.length; i++) matrix[i] = Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const project = (vector) => {
    const out = new Float32Array(dimension);
    let norm = 0;
    for (let r = 0; r < dimension; r++) {
      let sum = 0;
      const row = r * STATIC_DIMENSION;
      for (let c = 0; c < STATIC_DIMENSION; c++) sum += matrix[row + c] * vector[c];
      out[r] = sum;
      norm += sum * sum;
    }
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let r = 0; r < dimension; r++) out[r] *= scale;
    return out;
  };
  return {
    name: `static-use-lite-projected:${dimension}:v1`,
    dimension,
    ...(table.cosineScale === undefined ? {} : { cosineScale: table.cosineScale }),
    embed: async (texts, options) => (await table.embed(texts, options)).map(project),
    warmUp: () => table.warmUp(),
    close: async () => table.close?.(),
  };
}
const PROJECTION_SEED = 0x5ca1ab1e;

/** Vectors from the static table (projected to `dimension`, see `scaleEmbedder`), embedded as the corpus is built. */
async function staticVectors(dimension) {
  const embedder = await scaleEmbedder(dimension);
  return {
    name: embedder.name,
    dimension: embedder.dimension,
    embed: (items) => embedder.embed(items.map((item) => item.memory.content)),
    close: () => embedder.close?.(),
  };
}

/** Vectors of a model, from the on-disk cache (filled first when short). */
async function cachedVectors(model, size, small) {
  const { ensureModelVectors } = await import('./model-vectors.mjs');
  const main = await ensureModelVectors({ model, seed: SCALE_SEED, count: size });
  const minor = await ensureModelVectors({ model, seed: SMALL_SEED, count: small });
  const d = main.dimension;
  const at = (item) => (item.scope === MAIN_SCOPE ? main.vectors : minor.vectors).slice(item.index * d, (item.index + 1) * d);
  return { name: main.name, dimension: d, embed: async (items) => items.map(at), close: async () => undefined };
}

async function build(path, size, small, embedder) {
  const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
  const { buildRecord } = await import(dist('core/write/new-record.js'));
  const rng = mulberry32(SCALE_SEED);
  const store = await openSqliteStore({ path, embedding: { name: embedder.name, dimension: embedder.dimension }, vectorIndex: 'exact' });
  let records = 0;
  let inactive = 0;
  let embedMs = 0;
  let insertMs = 0;
  try {
    for (let from = 0; from < size; from += BATCH) {
      const to = Math.min(size, from + BATCH);
      const items = [];
      for (let i = from; i < to; i++) items.push({ scope: MAIN_SCOPE, index: i, memory: memoryAt(SCALE_SEED, i), at: i / size });
      // the small scope grows along, so both have the same mix of ages
      for (let j = Math.floor((small * from) / size); j < Math.floor((small * to) / size); j++) {
        items.push({ scope: SMALL_SCOPE, index: j, memory: memoryAt(SMALL_SEED, j), at: j / small });
      }
      let start = performance.now();
      const vectors = await embedder.embed(items);
      embedMs += since(start);
      const batch = items.map((item, index) => {
        const { record, inactive: out } = corpusRecord(buildRecord, rng, item);
        if (out) inactive++;
        return { record, embedding: vectors[index] };
      });
      start = performance.now();
      await store.transaction((tx) => tx.insertMemories(batch));
      insertMs += since(start);
      records += batch.length;
      if ((from / BATCH) % 20 === 0 || to >= size) {
        log(`  ${records} records (embed ${(embedMs / 1000).toFixed(1)} s, insert ${(insertMs / 1000).toFixed(1)} s)`);
      }
    }
  } finally {
    await store.close();
    await embedder.close();
  }
  return { embedderName: embedder.name, records, inactive, embedMs, insertMs };
}

/** Folds the WAL into the main file so the corpus is one file. */
async function checkpoint(path) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
