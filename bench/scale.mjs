#!/usr/bin/env node
// Scale: `npm run bench:scale [-- --sizes 10000,100000,1000000 --queries 200]`.
//
// For each size N, a corpus of N memories in one scope plus a scope with 1% as many (bench/scale-corpus.mjs,
// built once and cached with its HNSW index under bench/.cache/). Then, each in its own child process
// so RSS is its own:
//   exact       the exact in-memory index: load time, vector search latency, the ground-truth top 10s;
//   sqlite-vec  exact k-NN inside SQLite (sizes up to --sqlite-vec-max);
//   hnsw        the HNSW index: build (first run) or open, search latency, recall@10 against exact for
//               the main scope and, forced through its own index, the 1% scope; then the full engine
//               (EngramCore + StaticEmbedder, default store settings) recall latency, query embedding
//               included;
//   first       a new process's first recall (Engram.open with default settings, one recall), timed from
//               the process's start, three runs;
//   use         the full model's query embedding alone (UseEmbedder), once;
//   model       the default model (--model, default DEFAULT_ONNX_MODEL: blend-e5-minilm) end to end, sizes up to --model-max: the
//               same records with that model's vectors (embedded once, cached under bench/.cache/ by
//               bench/model-vectors.mjs) and their part vectors made with the model first (untimed, kept
//               in the cached store), default store settings, engine recall with the model's own
//               query embedding (on one worker thread by default, as `engram serve` runs it, so the
//               lexical channels run meanwhile; --query-workers 0: in-process), the embedding alone, and
//               recall without it (searchP50). One headline row per size in scale.json:
//               {size, kind, embedder, queryWorkers, p50, p95, embedP50, searchP50, annRecall, measuredAt,
//               gitCommit}, a model-timed row with `vectors` and `sumP50` too.
//               `--only-model` runs just these and merges them into the scale.json of the last full run.
//   model-timed the sizes above --model-max (embedding a million texts with the model takes hours; issue #20
//               allows static vectors there): the static corpus with default store settings, each query
//               embedded by the real model on its worker thread *and* by the static table, recall going on
//               with the static vector once both are done. So the model's query embedding costs what it
//               costs in a real recall (its time, and its CPU beside the lexical channels) while the search
//               runs over the corpus's own vectors (their dimension: --dimension). Paired in one process,
//               query by query, with the same recall on the static vector alone (searchP50), and the
//               model's embedding alone (embedP50); sumP50 = the two added, the issue's upper bound.
//               Headline rows say which kind they are ("model" or "model-timed") and carry the HNSW
//               recall@10 of the same run's hnsw case (null in an --only-model run).
//   Headline rows of sizes and kinds this run did not measure are kept from the last scale.json, each
//   with the time and commit it was measured at; so are the cases (tables, chart points) of sizes it did
//   not measure, when the last run's vectors had the same dimension.
// Prints tables, writes bench/results/scale.json and bench/results/scale.svg.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  CACHE_DIR,
  RESULTS_DIR,
  fileBytes,
  log,
  makeQueries,
  mb,
  parseSizes,
  peakRss,
  percentiles,
  printTable,
  since,
  writeResult,
  newEngineCore,
  defaultModelName,
} from './lib.mjs';
import {
  MAIN_SCOPE,
  SMALL_SCOPE,
  SCALE_SEED,
  assertBuilt,
  dist,
  STATIC_DIMENSION,
  ensureScaleCorpus,
  readManifest,
  scaleEmbedder,
  updateManifest,
} from './scale-corpus.mjs';
import { renderScaleChart } from './scale-chart.mjs';

const QUERY_SEED = 4242;
const WARMUP_SEED = 4343;
/** Targets of the retrieval issue: engine recall with the static embedder, query embedding included. */
const TARGETS = [
  { size: 100_000, p50: 10, p95: 25 },
  { size: 1_000_000, p50: 30 },
];
/** Issue #20: a new process's first recall on a 1M store, from its start. */
const FIRST_RECALL_TARGET = { size: 1_000_000, ms: 2000 };
/**
 * Recall at 100k with the default model, its query embedding included: issue #20's p50 ≤ 12 and
 * p95 ≤ 25 ms (issue #14 asked for no slower than 25 ms at p50).
 */
const MODEL_TARGETS = [
  { size: 100_000, p50: 12, p95: 25 },
  // issue #20: at 1M p50 ≤ 25 ms with ANN recall@10 ≥ 0.98
  { size: 1_000_000, p50: 25, annRecall: 0.98 },
];

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    queries: { type: 'string', default: '200' },
    // the ground truth at 1M: exact search through the SIMD scan, 200 queries in ~1-2 minutes (60
    // queries, the old default, left recall@10 a standard error of ~0.007 wide)
    'exact-queries-1m': { type: 'string', default: '200' },
    'sqlite-vec-max': { type: 'string', default: '100000' },
    k: { type: 'string', default: '10' },
    'skip-use': { type: 'boolean', default: false },
    model: { type: 'string', default: await defaultModelName() },
    'model-max': { type: 'string', default: '100000' },
    // embedding worker threads of the model case: 1 as engram serve opens it; 0 embeds in-process
    'query-workers': { type: 'string', default: '1' },
    // only the model's cases: their headline and cases are merged into the existing scale.json
    'only-model': { type: 'boolean', default: false },
    // the static vectors' dimension: 512 (the table's own) or another, e.g. 768 (the default model's),
    // to which they are projected (bench/scale-corpus.mjs `scaleEmbedder`; its own cached corpus)
    dimension: { type: 'string', default: String(STATIC_DIMENSION) },
    case: { type: 'string' },
  },
});
const dimension = Number(args.dimension);

async function main() {
  assertBuilt();
  const started = performance.now();
  const sizes = parseSizes(args.sizes);
  const queries = Number(args.queries);
  const k = Number(args.k);
  const cases = [];
  if (args['only-model']) return onlyModel(sizes, queries, k, started);
  for (const size of sizes) {
    const corpus = await ensureScaleCorpus(size, undefined, dimension);
    const exactQueries = size >= 1_000_000 ? Math.min(queries, Number(args['exact-queries-1m'])) : queries;
    log(`size ${size}: exact in-memory index (${exactQueries} queries)`);
    const exact = await runChild({ mode: 'exact', size, dimension, path: corpus.path, queries: exactQueries, k });
    let sqliteVec = null;
    if (size <= Number(args['sqlite-vec-max'])) {
      log(`size ${size}: sqlite-vec`);
      sqliteVec = await runChild({ mode: 'sqlite-vec', size, dimension, path: corpus.path, queries: Math.min(queries, 100), k });
    }
    log(`size ${size}: HNSW index`);
    const truthPath = join(CACHE_DIR, `scale-truth-${size}-${process.pid}.json`);
    writeFileSync(truthPath, JSON.stringify(exact.truth));
    const hnsw = await runChild({ mode: 'hnsw', size, dimension, path: corpus.path, queries, k, truthPath });
    rmSync(truthPath, { force: true });
    if (hnsw.build !== null) updateManifest(size, { annBuild: hnsw.build }, undefined, dimension);
    log(`size ${size}: a new process's first recall`);
    const first = [];
    for (let run = 0; run < 3; run++) first.push(await runChild({ mode: 'first', size, dimension, path: corpus.path, k }));
    const model = args.model !== 'none' && size <= Number(args['model-max']) ? await modelCase(size, queries, k) : null;
    const timed = args.model !== 'none' && size > Number(args['model-max']) ? await timedCase(size, corpus.path, queries, k) : null;
    const manifest = readManifest(size, undefined, dimension);
    delete exact.truth;
    cases.push({
      size,
      corpus: manifest,
      dbMb: mb(fileBytes(corpus.path)),
      annMb: mb(directoryBytes(`${corpus.path}.ann`)),
      exact,
      sqliteVec,
      hnsw,
      first,
      model,
      timed,
    });
  }
  let use = null;
  if (!args['skip-use']) {
    log('full model (UseEmbedder): query embedding alone');
    use = await runChild({ mode: 'use', queries: Math.min(queries, 100) });
  }
  const seconds = since(started) / 1000;
  report(cases, use, seconds);
}

async function modelCase(size, queries, k) {
  const corpus = await ensureScaleCorpus(size, args.model);
  log(`size ${size}: engine recall with ${args.model}`);
  const queryWorkers = queryWorkerCount();
  const model = await runChild({ mode: 'model', model: args.model, size, path: corpus.path, queries, k, queryWorkers });
  if (model.annBuildSeconds !== null) updateManifest(size, { annBuild: { seconds: model.annBuildSeconds, threads: 1 } }, args.model);
  return model;
}

function queryWorkerCount() {
  const queryWorkers = Number(args['query-workers']);
  if (!Number.isInteger(queryWorkers) || queryWorkers < 0) throw new Error('--query-workers must be a whole number ≥ 0');
  return queryWorkers;
}

/** The static corpus at `size`, each query's embedding timed by the model (see `model-timed` above). */
async function timedCase(size, path, queries, k) {
  log(`size ${size}: engine recall on the static vectors (${dimension}-d), the query embedded by ${args.model} meanwhile`);
  return runChild({ mode: 'model-timed', model: args.model, size, dimension, path, queries, k, queryWorkers: queryWorkerCount() });
}

/** `--only-model`: the model's cases alone, merged into the scale.json of the last full run. */
async function onlyModel(sizes, queries, k, started) {
  const cases = [];
  for (const size of sizes) {
    if (size <= Number(args['model-max'])) cases.push({ size, model: await modelCase(size, queries, k), timed: null });
    else
      cases.push({
        size,
        model: null,
        timed: await timedCase(size, (await ensureScaleCorpus(size, undefined, dimension)).path, queries, k),
      });
  }
  const headline = mergeHeadline(headlineOf(cases));
  printHeadline(headline);
  const path = join(RESULTS_DIR, 'scale.json');
  const previous = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  const { name: _name, ...kept } = previous;
  const { environment } = await import('./lib.mjs');
  writeResult('scale', {
    ...kept,
    modelTargets: MODEL_TARGETS,
    headline,
    modelRun: {
      ...environment(),
      minutes: Math.round(since(started) / 6000) / 10,
      queries,
      cases: cases.map((c) => c.model ?? c.timed),
    },
  });
  log(`merged the headline into ${path}`);
}

function headlineOf(cases) {
  const measuredAt = new Date().toISOString();
  const rows = [];
  for (const c of cases) {
    const run = c.model ?? c.timed;
    if (run === null || run === undefined) continue;
    rows.push({
      size: c.size,
      kind: run.mode,
      embedder: run.embedder,
      ...(run.mode === 'model-timed' ? { vectors: run.vectors } : {}),
      queryWorkers: run.queryWorkers ?? 0,
      p50: run.recall.p50,
      p95: run.recall.p95,
      embedP50: run.embed.p50,
      searchP50: run.search.p50,
      ...(run.mode === 'model-timed' ? { sumP50: run.embed.p50 + run.search.p50 } : {}),
      // the HNSW recall@10 measured on the corpus the row searched: the static one's, for a timed row
      annRecall: run.mode === 'model-timed' ? (c.hnsw?.recall ?? null) : null,
      measuredAt,
    });
  }
  return rows;
}

/** This run's headline rows, and the last scale.json's rows of the sizes and kinds it did not measure. */
function mergeHeadline(rows) {
  const path = join(RESULTS_DIR, 'scale.json');
  const previous = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  const key = (row) => `${row.size}/${row.kind ?? 'model'}`;
  const measured = new Set(rows.map(key));
  const kept = (previous.headline ?? [])
    .filter((row) => !measured.has(key(row)))
    .map((row) => ({ kind: 'model', measuredAt: previous.modelRun?.timestamp ?? previous.timestamp, ...row }));
  const commit = rows.length > 0 ? { gitCommit: environmentCommit() } : {};
  return [...kept, ...rows.map((row) => ({ ...row, ...commit }))].sort((a, b) => a.size - b.size || a.kind.localeCompare(b.kind));
}

/**
 * This run's cases, and the last scale.json's cases of the sizes it did not measure (same vector
 * dimension), each with when and at which commit it was measured: a run of one size keeps the others'
 * tables and chart points.
 */
function mergeCases(cases, dimension) {
  const path = join(RESULTS_DIR, 'scale.json');
  const previous = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  if ((previous.options?.dimension ?? 512) !== dimension) return cases;
  const measured = new Set(cases.map((c) => c.size));
  const kept = (previous.cases ?? [])
    .filter((c) => typeof c?.size === 'number' && !measured.has(c.size) && c.hnsw !== undefined)
    .map((c) => ({ measuredAt: previous.timestamp, gitCommit: previous.gitCommit ?? null, ...c }));
  return [...kept, ...cases].sort((a, b) => a.size - b.size);
}

function environmentCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

function printHeadline(headline) {
  if (headline.length === 0) return;
  printTable(
    "headline: engine recall with the default model's query embedding included, ms (k=10, default store settings; " +
      "model: the corpus holds the model's vectors; model-timed: the static corpus, each query embedded by the model on its worker thread meanwhile; " +
      'sum = embedding alone + recall without it; recall@10: HNSW against exact, same run)',
    [
      ['memories', 'size', 0],
      ['kind', 'kind'],
      ['vectors', 'vectors'],
      ['p50', 'p50', 2],
      ['p95', 'p95', 2],
      ['embed p50', 'embedP50', 2],
      ['without embedding p50', 'searchP50', 2],
      ['sum p50', 'sumP50', 2],
      ['recall@10', 'annRecall', 4],
      ['measured', 'when'],
      ['target', 'target'],
    ],
    headline.map((h) => ({ ...h, vectors: h.vectors ?? "the model's", when: (h.measuredAt ?? '').slice(0, 16), target: modelVerdict(h) })),
  );
}

function runChild(spec) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--case', JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`case ${spec.mode}/${spec.size} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop() ?? 'null'));
    });
  });
}

function directoryBytes(path) {
  try {
    return readdirSync(path).reduce((sum, name) => sum + statSync(join(path, name)).size, 0);
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------- child

async function measure(spec) {
  if (spec.mode === 'first') return measureFirst(spec);
  const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
  if (spec.mode === 'use') return measureUse(spec);
  if (spec.mode === 'model') return measureModel(spec);
  if (spec.mode === 'model-timed') return measureModelTimed(spec);
  const rss = peakRss();
  const embedder = await scaleEmbedder(spec.dimension);
  await embedder.warmUp();
  const texts = makeQueries({ seed: QUERY_SEED, count: spec.queries, corpusSeed: SCALE_SEED, corpusSize: spec.size }).map((q) => q.text);
  const warmups = makeQueries({ seed: WARMUP_SEED, count: 10, corpusSeed: SCALE_SEED, corpusSize: spec.size }).map((q) => q.text);
  const vectors = await embedder.embed(texts);
  const warmupVectors = await embedder.embed(warmups);
  const embedding = { name: embedder.name, dimension: embedder.dimension };
  const logger = { info: (message) => log(`  store: ${message}`), warn: (message) => log(`  store warning: ${message}`) };
  const now = Date.now();
  const search = (store, vector, scopes = [MAIN_SCOPE]) => store.vectorSearch({ scopes, now, limit: spec.k, vector });
  const time = async (fn, list) => {
    const times = [];
    const results = [];
    for (const item of list) {
      const t = performance.now();
      results.push(await fn(item));
      times.push(since(t));
    }
    rss.sample();
    return { latency: percentiles(times), results };
  };
  const result = { mode: spec.mode, size: spec.size, queries: spec.queries };

  if (spec.mode === 'exact' || spec.mode === 'sqlite-vec') {
    const config =
      spec.mode === 'exact' ? { vectorIndex: 'exact', memoryIndexThreshold: 0, memoryIndexWarmup: 0 } : { memoryIndexThreshold: Infinity };
    const store = await openSqliteStore({ path: spec.path, embedding, logger, ...config });
    let start = performance.now();
    await search(store, warmupVectors[0]);
    result.firstSearchMs = since(start);
    for (const vector of warmupVectors.slice(1)) await search(store, vector);
    const main = await time((vector) => search(store, vector), vectors);
    result.search = main.latency;
    if (spec.mode === 'exact') {
      result.truth = {
        main: main.results.map((hits) => hits.map((h) => h.id)),
        small: (await time((vector) => search(store, vector, [SMALL_SCOPE]), vectors)).results.map((hits) => hits.map((h) => h.id)),
      };
      result.engine = await engineRecall({
        store,
        embedder,
        texts: texts.slice(0, spec.size >= 1_000_000 ? 30 : texts.length),
        warmups,
        k: spec.k,
        time,
      });
    }
    await store.close();
  } else {
    const truth = JSON.parse(readFileSync(spec.truthPath, 'utf8'));
    // threshold 0: the 1% scope gets its own index too, so its recall can be measured
    const store = await openSqliteStore({
      path: spec.path,
      embedding,
      logger,
      vectorIndex: 'hnsw',
      memoryIndexThreshold: 0,
      memoryIndexWarmup: 0,
    });
    const built = !existsSync(`${spec.path}.ann`);
    let start = performance.now();
    await store.prepareVectorIndex([MAIN_SCOPE, SMALL_SCOPE]);
    const prepareSeconds = since(start) / 1000;
    result.build = built ? { seconds: Math.round(prepareSeconds * 10) / 10, threads: 1 } : null;
    await store.close();
    // a fresh store: what opening a persisted index costs (checksum, memory map, catch-up)
    const reopened = await openSqliteStore({
      path: spec.path,
      embedding,
      logger,
      vectorIndex: 'hnsw',
      memoryIndexThreshold: 0,
      memoryIndexWarmup: 0,
    });
    start = performance.now();
    await search(reopened, warmupVectors[0]);
    result.firstSearchMs = since(start);
    for (const vector of warmupVectors.slice(1)) await search(reopened, vector);
    const main = await time((vector) => search(reopened, vector), vectors);
    result.search = main.latency;
    result.recall = recallAt(main.results, truth.main, spec.k);
    const small = await time((vector) => search(reopened, vector, [SMALL_SCOPE]), vectors);
    result.smallSearch = small.latency;
    result.smallRecall = recallAt(small.results, truth.small, spec.k);
    await reopened.close();
    // the engine with default store settings (HNSW above 20k rows, exact sqlite-vec below)
    const store2 = await openSqliteStore({ path: spec.path, embedding, logger });
    // the in-memory lexical index builds in the background after the first search; measure it built
    start = performance.now();
    const lexicalBuilt = typeof store2.prepareLexicalIndex === 'function' && (await store2.prepareLexicalIndex());
    result.lexicalIndex = lexicalBuilt ? { buildSeconds: Math.round(since(start) / 100) / 10, rssMb: mb(process.memoryUsage().rss) } : null;
    result.engine = await engineRecall({ store: store2, embedder, texts, warmups, k: spec.k, time });
    if (lexicalBuilt) result.lexicalIndex.usage = store2.lexicalIndexUsage;
    await store2.close();
  }
  result.peakRssMb = rss.stop();
  return result;
}

/**
 * A new process's first recall, as `engram serve` or the CLI would make it: the store opened with the
 * default settings through `Engram.open` (static embedder), one recall of the main scope, timed from
 * the process's start (module loading included). The files are in the OS page cache (a restart, not a
 * cold boot). Then ten more recalls, for what follows.
 */
async function measureFirst(spec) {
  const { Engram } = await import(dist('index.js'));
  const imported = performance.now();
  const embedder = spec.dimension === undefined || spec.dimension === STATIC_DIMENSION ? 'static' : await scaleEmbedder(spec.dimension);
  const engram = await Engram.open({ path: spec.path, embedder: spec.embedder ?? embedder });
  const opened = performance.now();
  const texts = makeQueries({ seed: QUERY_SEED, count: 11, corpusSeed: SCALE_SEED, corpusSize: spec.size }).map((q) => q.text);
  const options = { scopes: [MAIN_SCOPE], k: spec.k, trackAccess: false };
  const { hits } = await engram.recall(texts[0], options);
  const first = performance.now();
  const next = [];
  for (const text of texts.slice(1)) {
    const t = performance.now();
    await engram.recall(text, options);
    next.push(since(t));
  }
  await engram.close();
  return {
    mode: 'first',
    size: spec.size,
    embedder: engram.embedder.name,
    importMs: Math.round(imported),
    openMs: Math.round(opened - imported),
    firstRecallMs: Math.round(first - opened),
    totalMs: Math.round(first),
    hits: hits.length,
    next: percentiles(next),
  };
}

async function engineRecall({ store, embedder, texts, warmups, k, time }) {
  const engram = await newEngineCore({ store, embedder });
  const options = { scopes: [MAIN_SCOPE], k, trackAccess: false };
  if (typeof store.prepareLexicalIndex === 'function') await store.prepareLexicalIndex();
  for (const text of warmups) await engram.recall(text, options);
  const recall = await time((text) => engram.recall(text, options), texts);
  // where the time goes: the semantic channel alone, and the store's lexical channel alone
  const vectorOnly = await time((text) => engram.recall(text, { ...options, weights: { lexical: 0 } }), texts);
  const { contentTerms } = await import(dist('core/text/index.js'));
  const lexical = await time((text) => {
    const terms = contentTerms(text).map((term) => ({ term }));
    return store.lexicalSearch({ scopes: options.scopes, now: Date.now(), limit: engram.recallConfig.candidates, terms });
  }, texts);
  const embed = await time((text) => embedder.embed([text]), texts);
  return {
    queries: texts.length,
    recall: recall.latency,
    vectorOnly: vectorOnly.latency,
    storeLexical: lexical.latency,
    embed: embed.latency,
    meanHits: recall.results.reduce((a, r) => a + r.hits.length, 0) / texts.length,
  };
}

async function measureUse(spec) {
  const { UseEmbedder } = await import(dist('embeddings/use/index.js'));
  const texts = makeQueries({ seed: QUERY_SEED, count: spec.queries, corpusSeed: SCALE_SEED, corpusSize: 100_000 }).map((q) => q.text);
  let start = performance.now();
  const embedder = UseEmbedder.create({ workers: 0 });
  await embedder.warmUp();
  const loadMs = since(start);
  for (const text of texts.slice(0, 10)) await embedder.embed([text]);
  const times = [];
  for (const text of texts) {
    start = performance.now();
    await embedder.embed([text]);
    times.push(since(start));
  }
  await embedder.close?.();
  return { mode: 'use', embedder: embedder.name, loadMs, embed: percentiles(times) };
}

/** The engine over the model corpus with default store settings, the model embedding each query (on `queryWorkers` threads, else in-process). */
async function measureModel(spec) {
  const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
  const rss = peakRss();
  const queryWorkers = spec.queryWorkers ?? 0;
  const { createEmbedder } = await import(dist('index.js'));
  const embedder = await createEmbedder(spec.model, { workers: queryWorkers });
  await embedder.warmUp();
  const texts = makeQueries({ seed: QUERY_SEED, count: spec.queries, corpusSeed: SCALE_SEED, corpusSize: spec.size }).map((q) => q.text);
  const warmups = makeQueries({ seed: WARMUP_SEED, count: 10, corpusSeed: SCALE_SEED, corpusSize: spec.size }).map((q) => q.text);
  const logger = { info: (message) => log(`  store: ${message}`), warn: (message) => log(`  store warning: ${message}`) };
  const store = await openSqliteStore({ path: spec.path, embedding: { name: embedder.name, dimension: embedder.dimension }, logger });
  const built = !existsSync(`${spec.path}.ann`);
  let start = performance.now();
  if (typeof store.prepareVectorIndex === 'function') await store.prepareVectorIndex([MAIN_SCOPE]);
  const annSeconds = since(start) / 1000;
  if (typeof store.prepareLexicalIndex === 'function') await store.prepareLexicalIndex();
  // part vectors as the background worker makes them (records of two or more sentences; ~2.5% of this
  // corpus): made once with the model and kept in the cached store, so recall re-scores with them
  const parts = await fillParts(store, spec.model);
  const options = { scopes: [MAIN_SCOPE], k: spec.k, trackAccess: false };
  const time = async (fn, list) => {
    const times = [];
    for (const item of list) {
      const t = performance.now();
      await fn(item);
      times.push(since(t));
    }
    rss.sample();
    return percentiles(times);
  };
  const engram = await newEngineCore({ store, embedder });
  for (const text of warmups) await engram.recall(text, options);
  const recall = await time((text) => engram.recall(text, options), texts);
  const embed = await time((text) => embedder.embed([text], { purpose: 'query' }), texts);
  // the same recalls with each query's vector computed beforehand (recall embeds its analysed query
  // text, so an untimed pass fills the cache): what the store and fusion cost
  const known = new Map();
  const precomputed = {
    name: embedder.name,
    dimension: embedder.dimension,
    async embed(list, embedOptions) {
      for (const text of list) if (!known.has(text)) known.set(text, (await embedder.embed([text], embedOptions))[0]);
      return list.map((text) => known.get(text));
    },
  };
  const searchOnly = await newEngineCore({ store, embedder: precomputed });
  for (const text of [...warmups, ...texts]) await searchOnly.recall(text, options);
  const misses = known.size;
  const search = await time((text) => searchOnly.recall(text, options), texts);
  if (known.size !== misses) throw new Error('the timed pass embedded a query: the search-only figure would include embedding');
  await store.close();
  await embedder.close();
  return {
    mode: 'model',
    size: spec.size,
    embedder: embedder.name,
    queryWorkers,
    queries: texts.length,
    annBuildSeconds: built ? Math.round(annSeconds * 10) / 10 : null,
    parts,
    recall,
    embed,
    search,
    peakRssMb: rss.stop(),
  };
}

/**
 * The static corpus with default store settings, each recall's query embedded by the model (on
 * `queryWorkers` threads, else in-process) and by the static table at once; recall goes on with the
 * static vector when both are done. Paired query by query with recall on the static vector alone
 * (which goes first alternates), then the model's query embedding alone.
 */
async function measureModelTimed(spec) {
  const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
  const { createEmbedder } = await import(dist('index.js'));
  const rss = peakRss();
  const queryWorkers = spec.queryWorkers ?? 0;
  const model = await createEmbedder(spec.model, { workers: queryWorkers });
  await model.warmUp?.();
  const vectors = await scaleEmbedder(spec.dimension);
  await vectors.warmUp?.();
  let modelCalls = 0;
  const timed = {
    name: vectors.name,
    dimension: vectors.dimension,
    ...(vectors.cosineScale === undefined ? {} : { cosineScale: vectors.cosineScale }),
    async embed(texts, options) {
      if (options?.purpose !== 'query') return vectors.embed(texts, options);
      modelCalls++;
      const [own] = await Promise.all([vectors.embed(texts, options), model.embed(texts, options)]);
      return own;
    },
  };
  const texts = makeQueries({ seed: QUERY_SEED, count: spec.queries, corpusSeed: SCALE_SEED, corpusSize: spec.size }).map((q) => q.text);
  const warmups = makeQueries({ seed: WARMUP_SEED, count: 10, corpusSeed: SCALE_SEED, corpusSize: spec.size }).map((q) => q.text);
  const logger = { info: (message) => log(`  store: ${message}`), warn: (message) => log(`  store warning: ${message}`) };
  const store = await openSqliteStore({ path: spec.path, embedding: { name: vectors.name, dimension: vectors.dimension }, logger });
  if (typeof store.prepareVectorIndex === 'function') await store.prepareVectorIndex([MAIN_SCOPE]);
  if (typeof store.prepareLexicalIndex === 'function') await store.prepareLexicalIndex();
  const options = { scopes: [MAIN_SCOPE], k: spec.k, trackAccess: false };
  const withModel = await newEngineCore({ store, embedder: timed });
  const alone = await newEngineCore({ store, embedder: vectors });
  for (const text of warmups) {
    await withModel.recall(text, options);
    await alone.recall(text, options);
  }
  const recallTimes = [];
  const searchTimes = [];
  let differ = 0;
  for (const [i, text] of texts.entries()) {
    const run = async (engine, times) => {
      const t = performance.now();
      const { hits } = await engine.recall(text, options);
      times.push(since(t));
      return hits.map((h) => h.id).join();
    };
    // which goes first alternates, so neither always finds the other's reads cached
    const order = i % 2 === 0 ? [withModel, alone] : [alone, withModel];
    const ids = [];
    for (const engine of order) ids.push(await run(engine, engine === withModel ? recallTimes : searchTimes));
    const [a, b] = ids;
    if (a !== b) differ++;
  }
  rss.sample();
  if (modelCalls < warmups.length + texts.length)
    throw new Error(`the model embedded ${modelCalls} queries of ${warmups.length + texts.length}`);
  const embedTimes = [];
  for (const text of texts) {
    const t = performance.now();
    await model.embed([text], { purpose: 'query' });
    embedTimes.push(since(t));
  }
  await store.close();
  await model.close?.();
  return {
    mode: 'model-timed',
    size: spec.size,
    embedder: model.name,
    vectors: vectors.name,
    queryWorkers,
    queries: texts.length,
    // the same hits either way, unless the two recalls' timing changed them (e.g. the read cache)
    hitsDiffer: differ,
    recall: percentiles(recallTimes),
    search: percentiles(searchTimes),
    embed: percentiles(embedTimes),
    peakRssMb: rss.stop(),
  };
}

/**
 * Makes the part vectors the store still waits for, with `model` on two worker threads (untimed);
 * `{ pending, made, seconds }` (made 0 once the cached store has them).
 */
async function fillParts(store, model) {
  const { fillPartVectors } = await import(dist('core/write/fill-parts.js'));
  const scopes = [MAIN_SCOPE, SMALL_SCOPE];
  const pending = await store.countPendingParts(scopes);
  const start = performance.now();
  let made = 0;
  if (pending > 0) {
    log(`  making part vectors: ${pending} records wait`);
    const { createEmbedder } = await import(dist('index.js'));
    const embedder = await createEmbedder(model, { workers: 2 });
    try {
      made = (await fillPartVectors({ store, embedder, stopwatch: { now: () => performance.now() } }, { scopes, batch: 512 })).records;
    } finally {
      await embedder.close();
    }
  }
  const left = await store.countPendingParts(scopes);
  if (left > 0) throw new Error(`${left} records still wait for part vectors: recall would be timed without them`);
  return { pending, made, seconds: Math.round(since(start) / 100) / 10 };
}

function recallAt(results, truth, k) {
  let found = 0;
  let total = 0;
  results.forEach((hits, i) => {
    const expected = new Set(truth[i] ?? []);
    total += Math.min(k, expected.size);
    for (const hit of hits.slice(0, k)) if (expected.has(hit.id)) found++;
  });
  return total === 0 ? null : Math.round((found / total) * 10000) / 10000;
}

// --------------------------------------------------------------------------------------------- report

function report(cases, use, seconds) {
  printTable(
    'corpus (cached after the first run; insert = store transactions of 5000 records, embedding excluded)',
    [
      ['memories', 'size', 0],
      ['1% scope', 'small', 0],
      ['inserts/s', 'ips', 0],
      ['insert s', 'ins', 1],
      ['embed s', 'emb', 1],
      ['HNSW build s', 'build', 1],
      ['db MB', 'db', 0],
      ['ann MB', 'ann', 0],
    ],
    cases.map((c) => ({
      size: c.size,
      small: c.corpus.smallSize,
      ips: c.corpus.insertPerSecond,
      ins: c.corpus.insertSeconds,
      emb: c.corpus.embedSeconds,
      build: c.corpus.annBuild?.seconds,
      db: c.dbMb,
      ann: c.annMb,
    })),
  );

  printTable(
    'vector search of the main scope, ms (store.vectorSearch, k=10, visibility post-filter included)',
    [
      ['memories', 'size', 0],
      ['sqlite-vec p50', 'v50', 2],
      ['p95', 'v95', 2],
      ['exact p50', 'e50', 2],
      ['p95', 'e95', 2],
      ['p99', 'e99', 2],
      ['first', 'efirst', 0],
      ['HNSW p50', 'h50', 2],
      ['p95', 'h95', 2],
      ['p99', 'h99', 2],
      ['first', 'hfirst', 1],
      ['recall@10', 'recall', 4],
      ['1% scope recall@10', 'small', 4],
      ['RSS exact MB', 'erss', 0],
      ['RSS HNSW MB', 'hrss', 0],
    ],
    cases.map((c) => ({
      size: c.size,
      v50: c.sqliteVec?.search.p50,
      v95: c.sqliteVec?.search.p95,
      e50: c.exact.search.p50,
      e95: c.exact.search.p95,
      e99: c.exact.search.p99,
      efirst: c.exact.firstSearchMs,
      h50: c.hnsw.search.p50,
      h95: c.hnsw.search.p95,
      h99: c.hnsw.search.p99,
      hfirst: c.hnsw.firstSearchMs,
      recall: c.hnsw.recall,
      small: c.hnsw.smallRecall,
      erss: c.exact.peakRssMb,
      hrss: c.hnsw.peakRssMb,
    })),
  );

  printTable(
    'engine recall, ms (EngramCore.recall k=10, StaticEmbedder query embedding included; default = HNSW above 20k rows)',
    [
      ['memories', 'size', 0],
      ['default p50', 'd50', 2],
      ['p95', 'd95', 2],
      ['p99', 'd99', 2],
      ['exact idx p50', 'x50', 2],
      ['p95', 'x95', 2],
      ['vector-only p50', 'v50', 2],
      ['p95', 'v95', 2],
      ['store lexical p50', 'l50', 2],
      ['p95', 'l95', 2],
      ['embed p50', 'emb', 3],
      ['lexical index build s', 'lxb', 1],
      ['target', 'target'],
    ],
    cases.map((c) => ({
      size: c.size,
      d50: c.hnsw.engine.recall.p50,
      d95: c.hnsw.engine.recall.p95,
      d99: c.hnsw.engine.recall.p99,
      x50: c.exact.engine.recall.p50,
      x95: c.exact.engine.recall.p95,
      v50: c.hnsw.engine.vectorOnly.p50,
      v95: c.hnsw.engine.vectorOnly.p95,
      l50: c.hnsw.engine.storeLexical.p50,
      l95: c.hnsw.engine.storeLexical.p95,
      emb: c.hnsw.engine.embed.p50,
      lxb: c.hnsw.lexicalIndex?.buildSeconds,
      target: verdict(c),
    })),
  );
  printTable(
    `a new process's first recall (Engram.open with default settings, static embedder, files in the page cache), ms from the process's start; target ≤ ${FIRST_RECALL_TARGET.ms} at ${FIRST_RECALL_TARGET.size}`,
    [
      ['memories', 'size', 0],
      ['run', 'run', 0],
      ['modules', 'importMs', 0],
      ['open', 'openMs', 0],
      ['first recall', 'firstRecallMs', 0],
      ['total', 'totalMs', 0],
      ['next 10 p50', 'next50', 1],
    ],
    cases.flatMap((c) => (c.first ?? []).map((f, run) => ({ ...f, run: run + 1, next50: f.next.p50 }))),
  );
  if (use !== null) {
    process.stdout.write(
      `\nfull model (${use.embedder}) query embedding alone: p50 ${use.embed.p50.toFixed(1)} ms, p95 ${use.embed.p95.toFixed(1)} ms (model load ${Math.round(use.loadMs)} ms)\n`,
    );
  }
  const headline = mergeHeadline(headlineOf(cases));
  printHeadline(headline);
  process.stdout.write(`whole run: ${(seconds / 60).toFixed(1)} min\n`);
  const allCases = mergeCases(cases, dimension);
  const path = writeResult('scale', {
    options: {
      sizes: args.sizes,
      queries: Number(args.queries),
      k: Number(args.k),
      exactQueries1m: Number(args['exact-queries-1m']),
      dimension,
    },
    targets: TARGETS,
    modelTargets: MODEL_TARGETS,
    firstRecallTarget: FIRST_RECALL_TARGET,
    headline,
    runMinutes: Math.round((seconds / 60) * 10) / 10,
    cases: allCases,
    use,
  });
  const svg = renderScaleChart(allCases, TARGETS);
  writeFileSync(join(RESULTS_DIR, 'scale.svg'), svg);
  log(`wrote ${path} and ${join(RESULTS_DIR, 'scale.svg')}`);
}

function verdict(c) {
  const target = TARGETS.find((t) => t.size === c.size);
  if (target === undefined) return '–';
  const { p50, p95 } = c.hnsw.engine.recall;
  const ok = p50 <= target.p50 && (target.p95 === undefined || p95 <= target.p95);
  return `${ok ? 'MET' : 'MISSED'} (p50 ≤ ${target.p50}${target.p95 === undefined ? '' : `, p95 ≤ ${target.p95}`})`;
}

function modelVerdict(h) {
  const target = MODEL_TARGETS.find((t) => t.size === h.size);
  if (target === undefined) return '–';
  const latency = h.p50 <= target.p50 && (target.p95 === undefined || h.p95 <= target.p95);
  const wanted = `p50 ≤ ${target.p50}${target.p95 === undefined ? '' : `, p95 ≤ ${target.p95}`}`;
  if (target.annRecall === undefined) return `${latency ? 'MET' : 'MISSED'} (${wanted})`;
  const recalled = h.annRecall !== null && h.annRecall !== undefined && h.annRecall >= target.annRecall;
  const recallPart =
    h.annRecall === null || h.annRecall === undefined ? 'recall@10 not measured in this run' : `recall@10 ≥ ${target.annRecall}`;
  return `${latency && recalled ? 'MET' : 'MISSED'} (${wanted}; ${recallPart})`;
}

// last, so every helper above is initialised before a case or the main run starts
if (args.case !== undefined) {
  const result = await measure(JSON.parse(args.case));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  await main();
}
