// Builds the benchmark corpora as SQLite files FAST, by inserting records and their vectors straight
// through the store (no `remember`, no per-record text analysis), and caches them under bench/.cache/,
// keyed by size, vector source, generator version and a hash of the compiled schema migrations.
// Reused by bench/recall.mjs and bench/ingest.mjs (which copies a cached file before writing to it).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CACHE_DIR,
  GENERATOR_VERSION,
  REPO_DIR,
  fileBytes,
  log,
  mb,
  corpusRecord,
  memoryAt,
  mulberry32,
  since,
  removeDatabaseFiles,
} from './lib.mjs';

/** The stream every corpus is drawn from: corpus N is memories 0..N-1 of it. */
export const CORPUS_SEED = 20_240_501;
/** The one large scope the corpus sizes refer to. */
export const MAIN_SCOPE = 'bench/agents/main';
/** Small scopes beside it, to show that a read of a small scope is not slowed by the large one. */
export const SMALL_SCOPES = ['bench/users/u1', 'bench/users/u2', 'bench/users/u3', 'bench/users/u4'];
export const SMALL_SCOPE_SIZE = 250;
const SMALL_SEED = CORPUS_SEED + 1;
/** Records span the year before this instant. */
const CHUNK = 2000;

const dist = (path) => join(REPO_DIR, 'dist', path);

/** Fails with a clear message when `npx tsc -p tsconfig.build.json` has not been run. */
export function assertBuilt() {
  if (!existsSync(dist('index.js'))) {
    throw new Error('dist/ is missing: run `npx tsc -p tsconfig.build.json` (or `npm run build`) first.');
  }
}

function schemaHash() {
  const source = readFileSync(dist('storage/sqlite/sqlite-migrations.js'));
  return createHash('sha256').update(source).digest('hex').slice(0, 8);
}

/** The embedder that gives a corpus its vectors: the static table (any size) or the full model. */
export async function corpusEmbedder(vectorSource) {
  if (vectorSource === 'use') {
    const { UseEmbedder } = await import(dist('embeddings/use/index.js'));
    return UseEmbedder.create({ workers: 2 });
  }
  const { StaticEmbedder } = await import(dist('embeddings/static/index.js'));
  return StaticEmbedder.create({ onProgress: (p) => log(`static table: ${p.phase} ${p.done}/${p.total}`) });
}

/**
 * The cached corpus of `size` memories in MAIN_SCOPE (plus SMALL_SCOPES × SMALL_SCOPE_SIZE), built
 * first when missing. Returns `{ path, manifest }`; the manifest names the embedder the file records.
 */
export async function ensureCorpus({ size, vectorSource }) {
  assertBuilt();
  mkdirSync(CACHE_DIR, { recursive: true });
  const key = `corpus-${size}-${vectorSource}-g${GENERATOR_VERSION}-s${schemaHash()}`;
  const path = join(CACHE_DIR, `${key}.db`);
  const manifestPath = join(CACHE_DIR, `${key}.json`);
  if (existsSync(path) && existsSync(manifestPath)) {
    return { path, manifest: JSON.parse(readFileSync(manifestPath, 'utf8')) };
  }
  const building = join(CACHE_DIR, `${key}.${process.pid}.building.db`);
  removeDatabaseFiles(building);
  log(`building corpus ${key} (${size} + ${SMALL_SCOPES.length}×${SMALL_SCOPE_SIZE} memories, vectors: ${vectorSource})`);
  const start = performance.now();
  const stats = await buildCorpus({ path: building, size, vectorSource });
  await checkpoint(building);
  if (existsSync(`${building}-wal`)) throw new Error(`corpus ${building} still has a WAL after close`);
  renameSync(building, path);
  removeDatabaseFiles(building);
  pruneStale(size, vectorSource, key);
  const manifest = {
    key,
    size,
    mainScope: MAIN_SCOPE,
    smallScopes: SMALL_SCOPES,
    smallScopeSize: SMALL_SCOPE_SIZE,
    vectorSource,
    embedderName: stats.embedderName,
    generatorVersion: GENERATOR_VERSION,
    corpusSeed: CORPUS_SEED,
    records: stats.records,
    inactive: stats.inactive,
    embedSeconds: Math.round(stats.embedMs) / 1000,
    insertSeconds: Math.round(stats.insertMs) / 1000,
    buildSeconds: Math.round(since(start)) / 1000,
    fileBytes: fileBytes(path),
    builtAt: new Date().toISOString(),
  };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  log(`built ${key}: ${manifest.records} records, ${mb(manifest.fileBytes)} MB, ${manifest.buildSeconds} s`);
  return { path, manifest };
}

/**
 * Folds the WAL into the main file so the corpus is one file that can be copied. Needed because the
 * store closes its writer before its read-only connection, and a read-only last connection leaves the WAL.
 */
async function checkpoint(path) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** Removes cached corpora of the same size and vector source built by another generator or schema. */
function pruneStale(size, vectorSource, key) {
  const prefix = `corpus-${size}-${vectorSource}-`;
  for (const name of readdirSync(CACHE_DIR)) {
    if (!name.startsWith(prefix) || name.startsWith(key) || name.includes('.building')) continue;
    if (/\.(db|db-wal|db-shm|db\.ann|db\.lexical|db\.lexical\.seal|json)$/.test(name))
      rmSync(join(CACHE_DIR, name), { force: true, recursive: true });
  }
}

/** The corpus items with index in [from, to) of MAIN_SCOPE, and their share of the small scopes. */
function itemsFor(size, from, to) {
  const smallTotal = SMALL_SCOPES.length * SMALL_SCOPE_SIZE;
  const smallFrom = Math.floor((smallTotal * from) / size);
  const smallTo = Math.floor((smallTotal * to) / size);
  const items = [];
  for (let i = from; i < to; i++) items.push({ scope: MAIN_SCOPE, memory: memoryAt(CORPUS_SEED, i), at: i / size });
  for (let j = smallFrom; j < smallTo; j++) {
    items.push({ scope: SMALL_SCOPES[j % SMALL_SCOPES.length], memory: memoryAt(SMALL_SEED, j), at: j / smallTotal });
  }
  return items;
}

async function buildCorpus({ path, size, vectorSource }) {
  const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
  const { buildRecord } = await import(dist('core/write/new-record.js'));
  const embedder = await corpusEmbedder(vectorSource);
  const rng = mulberry32(CORPUS_SEED);
  const store = await openSqliteStore({ path, embedding: { name: embedder.name, dimension: embedder.dimension } });
  let records = 0;
  let inactive = 0;
  let embedMs = 0;
  let insertMs = 0;
  try {
    for (let from = 0; from < size; from += CHUNK) {
      const items = itemsFor(size, from, Math.min(size, from + CHUNK));
      let start = performance.now();
      const vectors = await embedder.embed(items.map((item) => item.memory.content));
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
      if ((from / CHUNK) % 10 === 0 || from + CHUNK >= size)
        log(`  ${records} records (embed ${(embedMs / 1000).toFixed(1)} s, insert ${(insertMs / 1000).toFixed(1)} s)`);
    }
  } finally {
    await store.close();
    await embedder.close?.();
  }
  return { embedderName: embedder.name, records, inactive, embedMs, insertMs };
}
