#!/usr/bin/env node
// Recall latency at scale: `npm run bench:recall [-- --sizes 10000,100000 --queries 200]`.
//
// Corpora (bench/corpus-db.mjs) are built fast and cached: records and vectors go straight into the
// store. Each (size, query embedder) case then runs in a child process, so RSS is its own, and times
// `engram.recall` (k=10, default weights) over the same queries, plus the query embedding alone,
// vector-only and lexical-only recalls, the raw store channels, cold start and small-scope reads.
//
// The trick: a corpus records the embedder that made its vectors (the static table for large corpora).
// To query it with the full model, the child opens the store under the recorded name and builds
// `newEngineCore({ store, embedder })` (bench/lib.mjs) with a UseEmbedder: corpus vectors come from the static table
// (which shares the USE embedding space), the query is embedded by the full model. Latency is what is
// measured here, not relevance. The child always composes the engine itself, exactly as `Engram.open`
// does (openSqliteStore + new EngramCore), so it can choose the vector index: `--vector-index exact`
// (default, the exact search the target is about) or `hnsw` (the approximate index, where the store
// offers it; built or loaded before measuring by `store.prepareVectorIndex`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CORPUS_SEED, MAIN_SCOPE, SMALL_SCOPES, SMALL_SCOPE_SIZE, assertBuilt, ensureCorpus } from './corpus-db.mjs';
import {
  CACHE_DIR,
  fileBytes,
  log,
  makeQueries,
  mb,
  parseSizes,
  peakRss,
  percentiles,
  printTable,
  rssNow,
  runCase,
  since,
  writeResult,
  newEngineCore,
} from './lib.mjs';

const TARGET_P50_MS = 60;
const lastCases = (vectorIndex) => join(CACHE_DIR, `last-recall-cases-${vectorIndex}.json`);
const QUERY_SEED = 7_777;
const WARMUP_SEED = 8_888;

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    queries: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    k: { type: 'string', default: '10' },
    embedders: { type: 'string', default: 'use,static' },
    'vector-index': { type: 'string', default: 'exact' },
    // queries for each scope-filtering pass
    'scope-queries': { type: 'string', default: '50' },
    // corpora up to this size get their vectors from the full model (2 workers), larger ones from the static table
    'use-corpus-max': { type: 'string', default: '0' },
    'report-only': { type: 'boolean', default: false },
    case: { type: 'string' },
  },
});

async function main() {
  if (args['report-only']) return report(JSON.parse(readFileSync(lastCases(args['vector-index']), 'utf8')), { write: false });
  assertBuilt();
  const sizes = parseSizes(args.sizes);
  const embedders = args.embedders.split(',');
  const useCorpusMax = Number(args['use-corpus-max']);
  if (!['exact', 'hnsw'].includes(args['vector-index'])) throw new Error('--vector-index must be exact or hnsw');
  const cases = [];
  for (const size of sizes) {
    const corpus = await ensureCorpus({ size, vectorSource: size <= useCorpusMax ? 'use' : 'static' });
    for (const queryEmbedder of embedders) {
      log(`case: ${size} memories, query embedder ${queryEmbedder}`);
      const spec = {
        size,
        queryEmbedder,
        corpus,
        queries: Number(args.queries),
        warmup: Number(args.warmup),
        k: Number(args.k),
        vectorIndex: args['vector-index'],
        scopeQueries: Number(args['scope-queries']),
      };
      cases.push(await runChild(spec));
    }
  }
  // kept so a report can be re-printed (`--report-only`) without measuring again
  writeFileSync(lastCases(args['vector-index']), JSON.stringify(cases));
  report(cases);
}

function runChild(spec) {
  return runCase(fileURLToPath(import.meta.url), spec, `${spec.size}/${spec.queryEmbedder}`);
}

async function measureCase({ size, queryEmbedder, corpus, queries: queryCount, warmup, k, vectorIndex, scopeQueries }) {
  const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
  const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
  const { contentTerms } = await import(dist('core/text/index.js'));
  const rss = peakRss();
  const queries = makeQueries({ seed: QUERY_SEED, count: queryCount, corpusSeed: CORPUS_SEED, corpusSize: size });
  const warmups = makeQueries({ seed: WARMUP_SEED, count: warmup + 3, corpusSeed: CORPUS_SEED, corpusSize: size });
  const cold = {};

  let start = performance.now();
  const embedder =
    queryEmbedder === 'use'
      ? (await import(dist('embeddings/use/index.js'))).UseEmbedder.create({ workers: 0 })
      : (await import(dist('embeddings/static/index.js'))).StaticEmbedder.create();
  await embedder.warmUp();
  cold.embedderLoadMs = since(start);

  start = performance.now();
  const sameSpace = embedder.name === corpus.manifest.embedderName;
  const store = await openSqliteStore({
    path: corpus.path,
    embedding: { name: corpus.manifest.embedderName, dimension: embedder.dimension },
    vectorIndex,
  });
  const reads = instrumentReads(store);
  const engram = await newEngineCore({ store, embedder: timedEmbedder(embedder, reads) });
  cold.openMs = since(start);
  if (vectorIndex === 'hnsw') {
    if (typeof store.prepareVectorIndex !== 'function' || !store.capabilities.annIndex)
      throw new Error('this build of the store has no HNSW index (vectorIndex "hnsw")');
    start = performance.now();
    cold.annReadyScopes = await store.prepareVectorIndex([MAIN_SCOPE]);
    cold.annPrepareMs = since(start);
  }
  if (typeof store.prepareLexicalIndex === 'function') {
    // Large stores build the in-memory lexical index in the background after their first search; build it now.
    start = performance.now();
    cold.lexicalIndexBuilt = await store.prepareLexicalIndex();
    cold.lexicalPrepareMs = since(start);
  }
  const main = { scopes: [MAIN_SCOPE], k, trackAccess: false };

  // The first searches of a large scope go to sqlite-vec; the in-memory index loads on the third.
  for (let i = 0; i < 3; i++) {
    start = performance.now();
    await engram.recall(warmups[i].text, main);
    cold[`recall${i + 1}Ms`] = since(start);
    rss.sample();
  }
  for (const q of warmups.slice(3)) await engram.recall(q.text, main);
  const afterLoad = rssNow();

  const timeAll = async (list, fn) => {
    if (fn === undefined) [list, fn] = [queries, list];
    const times = [];
    for (const q of list) {
      const t = performance.now();
      await fn(q);
      times.push(since(t));
    }
    rss.sample();
    return percentiles(times);
  };
  const hitCounts = [];
  const topIds = new Map();
  const phases = {};
  reads.on = true;
  phases.recall = await timeAll(async (q) => {
    const { hits } = await engram.recall(q.text, main);
    hitCounts.push(hits.length);
    topIds.set(
      q,
      hits.map((h) => h.id),
    );
  });
  reads.on = false;
  const embedInRecallMs = reads.embedMs / queries.length;
  const storeCalls = Object.fromEntries(
    Object.entries(reads.calls).map(([m, v]) => [m, { perQuery: v.count / queries.length, msPerQuery: v.ms / queries.length }]),
  );
  phases.embed = await timeAll((q) => embedder.embed([q.text]));
  phases.vectorOnly = await timeAll((q) => engram.recall(q.text, { ...main, weights: { lexical: 0 } }));
  phases.lexicalOnly = await timeAll((q) => engram.recall(q.text, { ...main, weights: { semantic: 0 } }));

  // The store's channels alone, with recall's candidate limit, without embedding.
  const vectors = new Map();
  for (const q of queries) vectors.set(q, (await embedder.embed([q.text]))[0]);
  const limit = engram.recallConfig.candidates;
  const base = { scopes: [MAIN_SCOPE], limit };
  const lexicalHits = [];
  phases.storeVector = await timeAll((q) => store.vectorSearch({ ...base, now: Date.now(), vector: vectors.get(q) }));
  phases.storeLexical = await timeAll(async (q) => {
    const terms = contentTerms(q.text).map((term) => ({ term }));
    if (terms.length > 0) lexicalHits.push((await store.lexicalSearch({ ...base, now: Date.now(), terms })).length);
  });
  phases.storeGet = await timeAll((q) => store.getMemories(topIds.get(q), [MAIN_SCOPE]));

  // Scope filtering: small scopes inside the same (large) file.
  let leaked = 0;
  const scoped = async (scopes) =>
    timeAll(queries.slice(0, scopeQueries), async (q) => {
      const { hits } = await engram.recall(q.text, { scopes, k, trackAccess: false });
      leaked += hits.filter((h) => !scopes.includes(h.scope)).length;
    });
  phases.smallScope = await scoped([SMALL_SCOPES[0]]);
  phases.smallScopes4 = await scoped(SMALL_SCOPES);
  phases.mainPlusSmall = await scoped([MAIN_SCOPE, SMALL_SCOPES[0]]);

  await engram.close();
  const byKind = {};
  for (const q of queries) byKind[q.kind] = (byKind[q.kind] ?? 0) + 1;
  return {
    size,
    queryEmbedder: embedder.name,
    vectorIndex,
    corpusEmbedder: corpus.manifest.embedderName,
    trick: sameSpace ? null : 'store opened under the corpus embedder name; query embedded by another embedder of the same space',
    records: corpus.manifest.records,
    fileMb: mb(fileBytes(corpus.path)),
    queries: queries.length,
    queryKinds: byKind,
    k,
    cold,
    phases,
    storeCalls,
    embedInRecallMs,
    candidateLimit: limit,
    meanHits: hitCounts.reduce((a, b) => a + b, 0) / hitCounts.length,
    meanLexicalCandidates: lexicalHits.reduce((a, b) => a + b, 0) / Math.max(1, lexicalHits.length),
    scopeLeaks: leaked,
    rssAfterWarmupMb: afterLoad.rssMb,
    peakRssMb: rss.stop(),
  };
}

/** The embedder, with each call's wall time added to `state.embedMs` while `state.on`. */
function timedEmbedder(inner, state) {
  return {
    name: inner.name,
    dimension: inner.dimension,
    async embed(texts) {
      const started = performance.now();
      try {
        return await inner.embed(texts);
      } finally {
        if (state.on) state.embedMs += since(started);
      }
    },
    close: () => inner.close?.(),
  };
}

/**
 * Times the store's read methods while `on`: SqliteStore does each call's work synchronously before
 * returning its promise, so the time to return is the call's own, even among concurrent channels.
 */
function instrumentReads(store) {
  const state = { on: false, calls: {}, embedMs: 0 };
  const methods = [
    'vectorSearch',
    'lexicalSearch',
    'getMemories',
    'getEdges',
    'getNeighbours',
    'temporalSearch',
    'listMemories',
    'findClaims',
    'stats',
  ];
  for (const method of methods) {
    const original = store[method];
    if (typeof original !== 'function') continue;
    store[method] = (...callArgs) => {
      if (!state.on) return original.apply(store, callArgs);
      const started = performance.now();
      try {
        return original.apply(store, callArgs);
      } finally {
        const entry = (state.calls[method] ??= { count: 0, ms: 0 });
        entry.count += 1;
        entry.ms += since(started);
      }
    };
  }
  return state;
}

function report(cases, { write = true } = {}) {
  const vectorIndex = cases[0]?.vectorIndex ?? args['vector-index'];
  const short = (name) => (name.startsWith('use-lite') ? 'USE' : name.startsWith('static') ? 'static' : name);
  const rows = cases.map((c) => ({
    size: c.size,
    query: short(c.queryEmbedder),
    vectors: short(c.corpusEmbedder),
    p50: c.phases.recall.p50,
    p95: c.phases.recall.p95,
    p99: c.phases.recall.p99,
    embed50: c.phases.embed.p50,
    embed95: c.phases.embed.p95,
    vec50: c.phases.vectorOnly.p50,
    vec95: c.phases.vectorOnly.p95,
    lex50: c.phases.lexicalOnly.p50,
    lex95: c.phases.lexicalOnly.p95,
    rss: c.peakRssMb,
    file: c.fileMb,
  }));
  const n = cases[0]?.queries ?? 0;
  printTable(
    `recall latency, ms (${vectorIndex} vector search, k=${cases[0]?.k}, ${n} queries after warm-up; vector-only and lexical-only are recalls with the other channel's weight 0)`,
    [
      ['memories', 'size', 0],
      ['query emb', 'query'],
      ['corpus vec', 'vectors'],
      ['p50', 'p50'],
      ['p95', 'p95'],
      ['p99', 'p99'],
      ['embed p50', 'embed50', 2],
      ['embed p95', 'embed95', 2],
      ['vector-only p50', 'vec50'],
      ['p95', 'vec95'],
      ['lexical-only p50', 'lex50'],
      ['p95', 'lex95'],
      ['peak RSS MB', 'rss', 0],
      ['file MB', 'file', 0],
    ],
    rows,
  );

  const methods = [...new Set(cases.flatMap((c) => Object.keys(c.storeCalls)))].sort();
  const breakdown = [
    ['memories', 'size', 0],
    ['query emb', 'query'],
    ['recall mean', 'total'],
    ['embed mean', 'embed'],
  ];
  for (const m of methods) breakdown.push([`${m} n`, `${m}:n`, 1], ['ms', `${m}:ms`]);
  breakdown.push(['engine CPU', 'engine']);
  printTable(
    'where the time goes in recall, ms per query (means; store calls timed inside the recall pass, embedding from its own pass; engine CPU = recall − embed mean − store calls: query analysis, fusion, ranking, GC; the wall time of the embedding inside recall is in the JSON, embedInRecallMs, and overlaps other channels)',
    breakdown,
    cases.map((c) => {
      const row = {
        size: c.size,
        query: short(c.queryEmbedder),
        total: c.phases.recall.mean,
        embed: c.phases.embed.mean,
        embedWall: c.embedInRecallMs,
      };
      let store = 0;
      for (const m of methods) {
        row[`${m}:n`] = c.storeCalls[m]?.perQuery ?? 0;
        row[`${m}:ms`] = c.storeCalls[m]?.msPerQuery ?? 0;
        store += row[`${m}:ms`];
      }
      row.engine = c.phases.recall.mean - c.phases.embed.mean - store;
      return row;
    }),
  );

  const seen = new Set();
  const storeRows = [];
  for (const c of cases) {
    if (seen.has(c.size)) continue;
    seen.add(c.size);
    storeRows.push({
      size: c.size,
      v50: c.phases.storeVector.p50,
      v95: c.phases.storeVector.p95,
      v99: c.phases.storeVector.p99,
      l50: c.phases.storeLexical.p50,
      l95: c.phases.storeLexical.p95,
      l99: c.phases.storeLexical.p99,
      cand: c.meanLexicalCandidates,
      g50: c.phases.storeGet.p50,
      g95: c.phases.storeGet.p95,
    });
  }
  printTable(
    `store channels alone, ms (limit ${cases[0]?.candidateLimit} = recall's candidates per channel; no embedding; query vectors of the first case)`,
    [
      ['memories', 'size', 0],
      ['vectorSearch p50', 'v50', 2],
      ['p95', 'v95', 2],
      ['p99', 'v99', 2],
      ['lexicalSearch p50', 'l50', 2],
      ['p95', 'l95', 2],
      ['p99', 'l99', 2],
      ['lexical hits returned', 'cand', 1],
      ['getMemories(10) p50', 'g50', 2],
      ['p95', 'g95', 2],
    ],
    storeRows,
  );

  printTable(
    'cold start, ms (first three recalls; a large scope is served by sqlite-vec twice, then its in-memory index loads)',
    [
      ['memories', 'size', 0],
      ['query emb', 'query'],
      ['load embedder', 'load', 0],
      ['open', 'open', 0],
      ['HNSW prepare', 'ann', 0],
      ['recall #1', 'r1', 0],
      ['recall #2', 'r2', 0],
      ['recall #3', 'r3', 0],
      ['RSS after warm-up MB', 'rss', 0],
    ],
    cases.map((c) => ({
      size: c.size,
      query: short(c.queryEmbedder),
      load: c.cold.embedderLoadMs,
      open: c.cold.openMs,
      ann: c.cold.annPrepareMs,
      r1: c.cold.recall1Ms,
      r2: c.cold.recall2Ms,
      r3: c.cold.recall3Ms,
      rss: c.rssAfterWarmupMb,
    })),
  );

  printTable(
    `scope filtering, recall ms (${cases[0]?.phases.smallScope.n} queries; small scopes hold ${SMALL_SCOPE_SIZE} memories each, in the same file)`,
    [
      ['memories', 'size', 0],
      ['query emb', 'query'],
      ['1 small p50', 's50'],
      ['p95', 's95'],
      ['4 small p50', 'f50'],
      ['p95', 'f95'],
      ['main+small p50', 'm50'],
      ['p95', 'm95'],
      ['hits outside scopes', 'leaks', 0],
    ],
    cases.map((c) => ({
      size: c.size,
      query: short(c.queryEmbedder),
      s50: c.phases.smallScope.p50,
      s95: c.phases.smallScope.p95,
      f50: c.phases.smallScopes4.p50,
      f95: c.phases.smallScopes4.p95,
      m50: c.phases.mainPlusSmall.p50,
      m95: c.phases.mainPlusSmall.p95,
      leaks: c.scopeLeaks,
    })),
  );

  const target = vectorIndex === 'exact' ? cases.find((c) => c.size === 100_000 && c.queryEmbedder.startsWith('use-lite')) : undefined;
  const verdict =
    target === undefined
      ? `not measured (needs --sizes including 100000, the use embedder and --vector-index exact)`
      : `${target.phases.recall.p50 <= TARGET_P50_MS ? 'MET' : 'MISSED'}: p50 ${target.phases.recall.p50.toFixed(1)} ms`;
  process.stdout.write(
    `\ntarget: recall at 100k memories, exact vector search, full-model query embedding included, p50 ≤ ${TARGET_P50_MS} ms — ${verdict}\n`,
  );
  if (cases.some((c) => c.trick !== null)) {
    process.stdout.write(
      'note: where "corpus vec" differs from "query emb", the store was opened under the corpus embedder\'s name and\n' +
        '      EngramCore was given the query embedder (same 512-d USE space): latency is measured, not relevance.\n',
    );
  }
  if (!write) return;
  const path = writeResult(vectorIndex === 'exact' ? 'recall' : `recall-${vectorIndex}`, {
    options: {
      sizes: args.sizes,
      queries: Number(args.queries),
      scopeQueries: Number(args['scope-queries']),
      warmup: Number(args.warmup),
      k: Number(args.k),
      useCorpusMax: Number(args['use-corpus-max']),
      vectorIndex,
    },
    target: {
      description: `p50 ≤ ${TARGET_P50_MS} ms at 100k, exact vector search, full model's query embedding`,
      met: target ? target.phases.recall.p50 <= TARGET_P50_MS : null,
    },
    cases,
  });
  log(`wrote ${path}`);
}

// last, so every helper above is initialised before a case or the main run starts
if (args.case !== undefined) {
  const result = await measureCase(JSON.parse(args.case));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  await main();
}
