// The PostgreSQL benchmark corpus of bench/http.mjs and bench/postgres-scale.mjs: the MAIN_SCOPE part of
// bench/corpus-db.mjs's corpus (same memories, same static-table vectors) written through the store port
// into one schema per size of the server named by $ENGRAM_BENCH_PG_URL (else $ENGRAM_TEST_PG_URL). Built
// once: a marker in the schema's metadata (and a note in bench/.cache) says it is complete, and the
// build's own measurements (seconds, records/s) are kept beside it, since a cached run cannot measure them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_SEED, MAIN_SCOPE, corpusEmbedder } from './corpus-db.mjs';
import { CACHE_DIR, GENERATOR_VERSION, REPO_DIR, fmt, log, corpusRecord, memoryAt, mulberry32, since } from './lib.mjs';

/** Records per transaction while building. */
const CHUNK = 2000;

/** The server URL the benchmarks use, or undefined when none is configured. */
export function benchPostgresUrl() {
  const base = process.env.ENGRAM_BENCH_PG_URL ?? process.env.ENGRAM_TEST_PG_URL;
  return base === undefined || base === '' ? undefined : base;
}

/**
 * The URL of the schema holding the corpus of `size` (built first when missing) and its build record
 * (`{ seconds, recordsPerSecond, builtAt }`, null for corpora built before it was kept), or null when no
 * server is configured. `params` are added to the URL (e.g. `application_name`).
 */
export async function ensurePostgresCorpus(size, params = {}) {
  const base = benchPostgresUrl();
  if (base === undefined) return null;
  const key = `corpus-${size}-static-g${GENERATOR_VERSION}`;
  const url = withParams(base, { schema: `bench_http_${size}_g${GENERATOR_VERSION}`, ...params });
  const { Engram } = await import(join(REPO_DIR, 'dist/index.js'));
  const engram = await Engram.open({ path: url, embedder: 'static' });
  try {
    if ((await engram.store.getMeta('bench.corpus')) === key) {
      const build = await engram.store.getMeta('bench.corpus.build');
      return { url, build: build === null ? null : JSON.parse(build) };
    }
    const stats = await engram.store.stats([MAIN_SCOPE]);
    if (stats.total > 0) throw new Error(`schema of ${redact(url)} holds a partial corpus: drop the schema and run again`);
    log(`building PostgreSQL corpus ${key} in ${redact(url)}`);
    const start = performance.now();
    await buildInto(engram.store, size);
    const seconds = Math.round(since(start)) / 1000;
    const build = { seconds, recordsPerSecond: Math.round(size / seconds), builtAt: new Date().toISOString() };
    await engram.store.setMeta('bench.corpus.build', JSON.stringify(build));
    await engram.store.setMeta('bench.corpus', key);
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(join(CACHE_DIR, `${key}.postgres.json`), `${JSON.stringify({ key, url: redact(url), size, ...build }, null, 2)}\n`);
    return { url, build };
  } finally {
    await engram.close();
  }
}

/** The MAIN_SCOPE part of bench/corpus-db.mjs's corpus (same memories, same vectors), through the store port. */
export async function buildInto(store, size) {
  const { buildRecord } = await import(join(REPO_DIR, 'dist/core/write/new-record.js'));
  const embedder = await corpusEmbedder('static');
  const rng = mulberry32(CORPUS_SEED);
  const start = performance.now();
  try {
    for (let from = 0; from < size; from += CHUNK) {
      const to = Math.min(size, from + CHUNK);
      const memories = [];
      for (let i = from; i < to; i++) memories.push({ memory: memoryAt(CORPUS_SEED, i), at: i / size });
      const vectors = await embedder.embed(memories.map((m) => m.memory.content));
      const batch = memories.map(({ memory, at }, index) => {
        const { record } = corpusRecord(buildRecord, rng, { scope: MAIN_SCOPE, memory, at });
        return { record, embedding: vectors[index] };
      });
      await store.transaction((tx) => tx.insertMemories(batch));
      if ((from / CHUNK) % 10 === 0 || to >= size)
        log(`  ${to} records (${fmt(since(start) / 1000)} s, ${Math.round(to / (since(start) / 1000))}/s)`);
    }
  } finally {
    await embedder.close?.();
  }
}

/** `url` with `params` set as query parameters (Engram reads `schema`; libpq-style ones go to the driver). */
export function withParams(url, params) {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(params)) parsed.searchParams.set(name, value);
  return parsed.toString();
}

/** The URL without its credentials, for logs and results. */
export function redact(url) {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
