#!/usr/bin/env node
// Ingest throughput: `npm run bench:ingest [-- --sizes 10000,100000 --count 2000 --budget 30]`.
//
// `engram.remember` in batches of 64 texts of ~150 characters into a database that already holds 10k or
// 100k memories (a copy of the cached recall corpus, bench/corpus-db.mjs): with the full model
// in-process, with 2 worker threads, and with the static embedder. Inputs are plain texts (the default
// layer, episodic) unless the mode says "mixed": then ~30% are semantic/procedural claims, which go
// through supersession and dedup. Each (size, mode) runs in a child process so RSS is its own, and
// stops submitting batches after `--budget` seconds, so a slow path cannot make the run endless: the
// rate is over the batches that completed.
//
// Where the time goes is measured on the real path: the engine is composed as `Engram.open` composes
// it (`newEngineCore({ store, embedder })` in bench/lib.mjs: `new EngramCore` with the system ports), with the embedder wrapped to time each call and the store's
// `transaction` (and every call made on the transaction object) timed. Then, on the same texts, each
// stage runs alone: the embedder, the record preparation (validation, signals, claim slot) and a plain
// `insertMemories` transaction, which together bound what `remember` could reach without its
// per-record searches. The record preparation is also timed step by step (validation, redaction,
// emotion, entities, importance, buildRecord, claim slot, embedding text), and the transaction split
// into inserts, claim searches, the novelty read and the rest. Beside the wall-clock rate, the rate per
// CPU-second of the case's process (user + system, all threads) is printed with the load average: on a
// shared machine it says what the code costs when the wall clock says mostly how busy the machine was. The store is opened under the embedder name the corpus records (the static
// table's, for the default corpora), whatever embedder is measured: all share the 512-d USE space.
import { copyFileSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeChartOf } from './charts.mjs';
import { MAIN_SCOPE, assertBuilt, ensureCorpus } from './corpus-db.mjs';
import {
  CACHE_DIR,
  fileBytes,
  log,
  mb,
  memoryAt,
  parseSizes,
  peakRss,
  percentiles,
  printTable,
  runCase,
  since,
  writeResult,
  newEngineCore,
  removeDatabaseFiles,
} from './lib.mjs';

const INGEST_SEED = 31_337;
/** The record preparation, step by step (bench table "record preparation"). */
const PREPARE_STEPS = ['validate', 'redact', 'emotion', 'entities', 'importance', 'record', 'claim', 'embedText'];
const lastCases = (vectorIndex) => join(CACHE_DIR, `last-ingest-cases-${vectorIndex}.json`);
const TARGETS = { use: 100, static: 3000 };
const MODES = {
  use0: { label: 'USE in-process', embedder: 'use', workers: 0, inFlight: 1, mixed: false },
  use2: { label: 'USE 2 workers', embedder: 'use', workers: 2, inFlight: 1, mixed: false },
  use2x2: { label: 'USE 2 workers, 2 in flight', embedder: 'use', workers: 2, inFlight: 2, mixed: false },
  static: { label: 'static', embedder: 'static', workers: 0, inFlight: 1, mixed: false },
  staticMixed: { label: 'static, 30% claims', embedder: 'static', workers: 0, inFlight: 1, mixed: true },
};

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    // texts per run; default 2000 with the full model, 20000 with the static embedder
    count: { type: 'string' },
    // seconds of remember per case before no more batches are submitted
    budget: { type: 'string', default: '30' },
    // texts for each stage-alone pass; default 512 with the full model, 2048 with the static embedder
    alone: { type: 'string' },
    batch: { type: 'string', default: '64' },
    modes: { type: 'string', default: 'use0,use2,static,staticMixed' },
    // corpora up to this size get their vectors from the full model (slow to build), larger ones from the static table
    'use-corpus-max': { type: 'string', default: '0' },
    // exact (default) or hnsw: how the store searches a large scope (the write path searches per record)
    'vector-index': { type: 'string', default: 'exact' },
    'report-only': { type: 'boolean', default: false },
    case: { type: 'string' },
  },
});

async function main() {
  if (args['report-only']) return report(JSON.parse(readFileSync(lastCases(args['vector-index']), 'utf8')), { write: false });
  assertBuilt();
  const sizes = parseSizes(args.sizes);
  const modes = args.modes.split(',');
  for (const mode of modes) if (MODES[mode] === undefined) throw new Error(`unknown mode ${mode}: use ${Object.keys(MODES).join(', ')}`);
  const batch = Number(args.batch);
  const budgetMs = Number(args.budget) * 1000;
  if (!['exact', 'hnsw'].includes(args['vector-index'])) throw new Error('--vector-index must be exact or hnsw');
  const cases = [];
  for (const size of sizes) {
    const corpus = await ensureCorpus({ size, vectorSource: size <= Number(args['use-corpus-max']) ? 'use' : 'static' });
    for (const mode of modes) {
      const full = MODES[mode].embedder === 'use';
      const count = args.count !== undefined ? Number(args.count) : full ? 2000 : 20_000;
      const alone = Math.min(count, args.alone !== undefined ? Number(args.alone) : full ? 512 : 2048);
      log(`case: ${size} memories, ${MODES[mode].label}, up to ${count} texts or ${args.budget} s`);
      cases.push(await runChild({ size, mode, corpus, count, batch, alone, budgetMs, vectorIndex: args['vector-index'] }));
    }
  }
  // kept so a report can be re-printed (`--report-only`) without measuring again
  writeFileSync(lastCases(args['vector-index']), JSON.stringify(cases));
  report(cases);
}

function runChild(spec) {
  return runCase(fileURLToPath(import.meta.url), spec, `${spec.size}/${spec.mode}`);
}

function batches(list, size) {
  const out = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

const total = (list) => list.reduce((a, b) => a + b, 0);

/** An Embedder that delegates to `inner` and records how long each call took (the public port). */
function timedEmbedder(inner, times) {
  return {
    name: inner.name,
    dimension: inner.dimension,
    async embed(texts) {
      const t = performance.now();
      try {
        return await inner.embed(texts);
      } finally {
        times.push(since(t));
      }
    },
    close: () => inner.close?.(),
  };
}

/**
 * Times `store.transaction` (wall time, write lock held) and every call made on the transaction object
 * inside it, by method. SqliteStore does a call's work synchronously before returning its promise, so
 * the time to return is the call's own time, even when the engine starts several with Promise.all.
 */
function instrumentStore(store, timing) {
  const transaction = store.transaction.bind(store);
  const timed = (tx) =>
    new Proxy(tx, {
      get(target, property) {
        const value = target[property];
        if (typeof value !== 'function') return value;
        return (...callArgs) => {
          const started = performance.now();
          try {
            return value.apply(target, callArgs);
          } finally {
            const entry = (timing.calls[property] ??= { count: 0, ms: 0 });
            entry.count += 1;
            entry.ms += since(started);
          }
        };
      },
    });
  store.transaction = async (fn) => {
    const t = performance.now();
    try {
      return await transaction((tx) => fn(timed(tx)));
    } finally {
      timing.transactions.push(since(t));
    }
  };
}

/** Texts as a caller would send them: plain (default layer) or with the corpus's layer mix. */
function inputAt(index, mixed) {
  const memory = memoryAt(INGEST_SEED, index);
  return mixed
    ? { scope: MAIN_SCOPE, content: memory.content, layer: memory.layer, tags: memory.tags }
    : { scope: MAIN_SCOPE, content: memory.content };
}

async function measureCase({ size, mode, corpus, count, batch, alone, budgetMs, vectorIndex }) {
  const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
  const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
  const { parseInput, rememberInputSchema } = await import(dist('core/schemas.js'));
  const { embeddingText } = await import(dist('core/write/remember.js'));
  const { buildRecord } = await import(dist('core/write/new-record.js'));
  const { attachClaimSlot } = await import(dist('core/write/resolve-claim.js'));
  const { analyzeEmotion, scoreImportance } = await import(dist('core/write/salience/index.js'));
  const { extractEntities } = await import(dist('core/text/index.js'));
  const { createRedactor } = await import(dist('core/redact/redactor.js'));
  const { redactInputs } = await import(dist('core/redact/index.js'));
  const spec = MODES[mode];
  const path = join(CACHE_DIR, `ingest-${process.pid}.db`);
  copyFileSync(corpus.path, path);
  // a WAL left by an earlier reader of the corpus belongs to the copy too
  if (existsSync(`${corpus.path}-wal`)) copyFileSync(`${corpus.path}-wal`, `${path}-wal`);
  // so is a prepared HNSW index (the copy keeps the database id its manifest names)
  if (vectorIndex === 'hnsw' && existsSync(`${corpus.path}.ann`)) cpSync(`${corpus.path}.ann`, `${path}.ann`, { recursive: true });
  const rss = peakRss();
  try {
    let start = performance.now();
    const embedder =
      spec.embedder === 'use'
        ? (await import(dist('embeddings/use/index.js'))).UseEmbedder.create({ workers: spec.workers })
        : (await import(dist('embeddings/static/index.js'))).StaticEmbedder.create();
    await embedder.warmUp();
    const loadMs = since(start);
    const store = await openSqliteStore({
      path,
      embedding: { name: corpus.manifest.embedderName, dimension: embedder.dimension },
      vectorIndex,
    });
    // the lexical index as a store that has run a while has it (its file beside the database): the write
    // path's claim searches run on it; a fresh copy would be served by FTS5 while a worker builds it
    start = performance.now();
    await store.prepareLexicalIndex();
    const lexicalPrepareMs = since(start);
    let annPrepareMs = null;
    if (vectorIndex === 'hnsw') {
      if (typeof store.prepareVectorIndex !== 'function' || !store.capabilities.annIndex)
        throw new Error('this build of the store has no HNSW index (vectorIndex "hnsw")');
      start = performance.now();
      await store.prepareVectorIndex([MAIN_SCOPE]);
      annPrepareMs = since(start);
    }
    const embedTimes = [];
    const timing = { transactions: [], calls: {} };
    instrumentStore(store, timing);
    const engram = await newEngineCore({ store, embedder: timedEmbedder(embedder, embedTimes) });

    // warm-up: JIT, statements, and (for a large scope) the in-memory vector index the write path searches
    start = performance.now();
    for (const group of batches(
      Array.from({ length: 2 * batch }, (_, i) => inputAt(10_000_000 + i, spec.mixed)),
      batch,
    ))
      await engram.remember(group);
    const warmupMs = since(start);
    embedTimes.length = 0;
    timing.transactions.length = 0;
    timing.calls = {};

    // remember, end to end, until `count` texts or the time budget; with inFlight 2 the next call
    // starts while the previous one is running
    const groups = batches(
      Array.from({ length: count }, (_, i) => inputAt(i, spec.mixed)),
      batch,
    );
    const latencies = [];
    const actions = {};
    const layers = {};
    let done = 0;
    let chars = 0;
    start = performance.now();
    const cpuStart = process.cpuUsage();
    const running = new Set();
    for (const group of groups) {
      if (since(start) > budgetMs) break;
      const t = performance.now();
      const call = engram.remember(group).then((results) => {
        latencies.push(since(t));
        for (const r of results) actions[r.action] = (actions[r.action] ?? 0) + 1;
        running.delete(call);
      });
      running.add(call);
      done += group.length;
      for (const item of group) {
        chars += item.content.length;
        layers[item.layer ?? 'episodic'] = (layers[item.layer ?? 'episodic'] ?? 0) + 1;
      }
      if (running.size >= spec.inFlight) await Promise.race(running);
      rss.sample();
    }
    await Promise.all(running);
    const rememberMs = since(start);
    const cpu = process.cpuUsage(cpuStart);
    // this process's CPU time (all its threads): on a machine other work shares, the rate its own work allows
    const rememberCpuMs = (cpu.user + cpu.system) / 1000;
    const rememberRssMb = rss.peakMb();
    const transactionMs = total(timing.transactions);
    const calls = Object.fromEntries(Object.entries(timing.calls).map(([k, v]) => [k, { count: v.count, ms: Math.round(v.ms) }]));

    // each stage alone on the first `alone` of the same texts, same batch size
    const aloneGroups = batches(groups.flat().slice(0, Math.min(alone, done)), batch);
    const aloneCount = aloneGroups.flat().length;
    const stage = { prepareMs: 0, embedMs: 0, insertMs: 0 };
    const prepared = [];
    const steps = Object.fromEntries(PREPARE_STEPS.map((step) => [step, 0]));
    const timed = (step, fn) => {
      const t = performance.now();
      const value = fn();
      steps[step] += since(t);
      return value;
    };
    // the steps of `prepareWrite` (deriveSignals, buildRecord, attachClaimSlot) one by one, as the engine runs them
    const redactor = createRedactor();
    start = performance.now();
    for (const group of aloneGroups) {
      const parsed = timed('validate', () => group.map((item) => parseInput(rememberInputSchema, item, 'memory')));
      const { inputs } = timed('redact', () => redactInputs(parsed, redactor));
      prepared.push(
        inputs.map((input) => {
          const emotion = timed('emotion', () => analyzeEmotion(input.content));
          const entities = timed('entities', () => extractEntities(input.content));
          const importance = timed('importance', () => scoreImportance(input.content, { emotionIntensity: emotion.intensity, entities }));
          const record = timed('record', () =>
            buildRecord(input, { entities, importance, emotion, salience: importance, surprise: 1 }, Date.now()),
          );
          timed('claim', () => attachClaimSlot(record));
          timed('embedText', () => embeddingText(record));
          return record;
        }),
      );
    }
    stage.prepareMs = since(start);
    stage.steps = steps;
    const vectors = [];
    start = performance.now();
    for (const records of prepared) vectors.push(await embedder.embed(records.map(embeddingText)));
    stage.embedMs = since(start);
    start = performance.now();
    for (const [index, records] of prepared.entries()) {
      await store.transaction((tx) => tx.insertMemories(records.map((record, i) => ({ record, embedding: vectors[index][i] }))));
    }
    stage.insertMs = since(start);

    const stats = await store.stats([MAIN_SCOPE]);
    await engram.close();
    const rate = (n, ms) => (n / ms) * 1000;
    return {
      size,
      mode,
      label: spec.label,
      embedder: embedder.name,
      workers: spec.workers,
      inFlight: spec.inFlight,
      mixed: spec.mixed,
      vectorIndex,
      annPrepareMs,
      lexicalPrepareMs,
      corpusEmbedder: corpus.manifest.embedderName,
      trick:
        embedder.name === corpus.manifest.embedderName
          ? null
          : 'store opened under the corpus embedder name; texts embedded by another embedder of the same space',
      requested: count,
      count: done,
      stoppedByBudget: done < count,
      batch,
      layers,
      actions,
      meanChars: chars / done,
      loadMs,
      warmupMs,
      rememberMs,
      perSecond: rate(done, rememberMs),
      rememberCpuMs,
      perCpuSecond: rate(done, rememberCpuMs),
      loadAverage: os.loadavg()[0],
      batchMs: percentiles(latencies),
      inside: {
        embedMs: total(embedTimes),
        transactionMs,
        calls,
        embedBatchMs: percentiles(embedTimes),
      },
      alone: {
        texts: aloneCount,
        ...stage,
        prepareRate: rate(aloneCount, stage.prepareMs),
        embedRate: rate(aloneCount, stage.embedMs),
        insertRate: rate(aloneCount, stage.insertMs),
        boundRate: rate(aloneCount, stage.prepareMs + stage.embedMs + stage.insertMs),
      },
      finalRecords: stats.total,
      fileMbAfter: mb(fileBytes(path)),
      rememberPeakRssMb: rememberRssMb,
      peakRssMb: rss.stop(),
    };
  } finally {
    removeDatabaseFiles(path);
  }
}

function report(cases, { write = true } = {}) {
  const vectorIndex = cases[0]?.vectorIndex ?? args['vector-index'];
  const targetOf = (c) => TARGETS[c.embedder.startsWith('use') ? 'use' : 'static'];
  printTable(
    `ingest (${vectorIndex} vector search): engram.remember, batches of ${cases[0]?.batch} texts (~${Math.round(cases[0]?.meanChars ?? 0)} chars), into a database already holding N memories`,
    [
      ['memories', 'size', 0],
      ['mode', 'label'],
      ['texts', 'count', 0],
      ['memories/s', 'rate', 0],
      ['per CPU-s', 'cpuRate', 0],
      ['load', 'loadAverage', 1],
      ['batch p50 ms', 'p50'],
      ['p95', 'p95'],
      ['p99', 'p99'],
      ['peak RSS MB', 'rss', 0],
      ['model load ms', 'load', 0],
      ['target', 'target'],
    ],
    cases.map((c) => ({
      size: c.size,
      label: c.label,
      count: `${c.count.toLocaleString('en-US')}${c.stoppedByBudget ? '*' : ''}`,
      rate: c.perSecond,
      cpuRate: c.perCpuSecond,
      loadAverage: c.loadAverage,
      p50: c.batchMs.p50,
      p95: c.batchMs.p95,
      p99: c.batchMs.p99,
      rss: c.rememberPeakRssMb,
      load: c.loadMs,
      target: `${c.perSecond >= targetOf(c) ? 'met' : 'MISSED'} (≥ ${targetOf(c).toLocaleString('en-US')}/s)`,
    })),
  );
  if (cases.some((c) => c.stoppedByBudget))
    process.stdout.write(`* stopped by the time budget (--budget ${args.budget} s) before the requested count\n`);

  printTable(
    'where the time goes inside remember, ms per batch (embed: the embedder call; tx: the write transaction, lock held; outside: validation, signals, claim slots)',
    [
      ['memories', 'size', 0],
      ['mode', 'label'],
      ['remember', 'rb'],
      ['embed', 'emb'],
      ['%', 'embPct', 0],
      ['tx', 'tx'],
      ['%', 'txPct', 0],
      ['tx store calls', 'calls'],
      ['tx other', 'txOther'],
      ['outside', 'out'],
      ['%', 'outPct', 0],
    ],
    cases.map((c) => {
      const n = c.count / c.batch;
      const sequential = c.inFlight === 1;
      const callsMs = total(Object.values(c.inside.calls).map((x) => x.ms));
      const outside = c.rememberMs - c.inside.embedMs - c.inside.transactionMs;
      return {
        size: c.size,
        label: c.label,
        rb: c.rememberMs / n,
        emb: c.inside.embedMs / n,
        embPct: sequential ? (100 * c.inside.embedMs) / c.rememberMs : undefined,
        tx: c.inside.transactionMs / n,
        txPct: sequential ? (100 * c.inside.transactionMs) / c.rememberMs : undefined,
        calls: callsMs / n,
        txOther: (c.inside.transactionMs - callsMs) / n,
        out: sequential ? outside / n : undefined,
        outPct: sequential ? (100 * outside) / c.rememberMs : undefined,
      };
    }),
  );

  const methods = [...new Set(cases.flatMap((c) => Object.keys(c.inside.calls)))].sort();
  const columns = [
    ['memories', 'size', 0],
    ['mode', 'label'],
  ];
  for (const m of methods) columns.push([`${m} n`, `${m}:n`, 1], ['ms', `${m}:ms`, 1]);
  printTable(
    'store calls inside the write transaction, per batch (n = calls, ms = their total time)',
    columns,
    cases.map((c) => {
      const n = c.count / c.batch;
      const row = { size: c.size, label: c.label };
      for (const m of methods) {
        row[`${m}:n`] = (c.inside.calls[m]?.count ?? 0) / n;
        row[`${m}:ms`] = (c.inside.calls[m]?.ms ?? 0) / n;
      }
      return row;
    }),
  );

  printTable(
    'each stage alone on the same texts, memories/s (bound = prepare + embed + one insertMemories transaction per batch, no per-record searches)',
    [
      ['memories', 'size', 0],
      ['mode', 'label'],
      ['texts', 'texts', 0],
      ['prepare /s', 'prep', 0],
      ['embed /s', 'emb', 0],
      ['insert tx /s', 'ins', 0],
      ['bound /s', 'bound', 0],
      ['remember /s', 'rate', 0],
    ],
    cases.map((c) => ({
      size: c.size,
      label: c.label,
      texts: c.alone.texts,
      prep: c.alone.prepareRate,
      emb: c.alone.embedRate,
      ins: c.alone.insertRate,
      bound: c.alone.boundRate,
      rate: c.perSecond,
    })),
  );

  const stepColumns = [
    ['memories', 'size', 0],
    ['mode', 'label'],
  ];
  for (const step of PREPARE_STEPS) stepColumns.push([step, step, 1]);
  stepColumns.push(['prepare', 'prepare', 1], ['per batch ms', 'batchMs', 1]);
  printTable(
    'record preparation, step by step, µs per memory (validate: zod; redact: secret detectors; emotion, entities, importance: signals; record: buildRecord; claim: claim slot; embedText: the text embedded)',
    stepColumns,
    cases
      .filter((c) => c.alone.steps !== undefined)
      .map((c) => {
        const perMemory = (ms) => (1000 * ms) / c.alone.texts;
        const row = {
          size: c.size,
          label: c.label,
          prepare: perMemory(c.alone.prepareMs),
          batchMs: (c.alone.prepareMs * c.batch) / c.alone.texts,
        };
        for (const step of PREPARE_STEPS) row[step] = perMemory(c.alone.steps[step] ?? 0);
        return row;
      }),
  );

  printTable(
    'the write transaction per memory, µs (store calls inside remember; other: the engine between them, BEGIN and COMMIT)',
    [
      ['memories', 'size', 0],
      ['mode', 'label'],
      ['tx', 'tx', 0],
      ['store calls', 'calls', 0],
      ['insert', 'insert', 0],
      ['searches', 'searches', 0],
      ['novelty read', 'novelty', 0],
      ['other', 'other', 0],
    ],
    cases.map((c) => {
      const perMemory = (ms) => (1000 * ms) / c.count;
      const ms = (m) => c.inside.calls[m]?.ms ?? 0;
      const callsMs = total(Object.values(c.inside.calls).map((x) => x.ms));
      const searches = ms('vectorSearch') + ms('lexicalSearch') + ms('findClaims') + ms('getMemories');
      return {
        size: c.size,
        label: c.label,
        tx: perMemory(c.inside.transactionMs),
        calls: perMemory(callsMs),
        insert: perMemory(ms('insertMemories')),
        searches: perMemory(searches),
        novelty: perMemory(ms('recentEmbeddings')),
        other: perMemory(c.inside.transactionMs - callsMs),
      };
    }),
  );

  if (cases.some((c) => c.trick !== null)) {
    process.stdout.write(
      '\nnote: where the embedder differs from the one that made the corpus vectors, the store was opened under the\n' +
        "      corpus embedder's name and EngramCore was given the measured embedder (same 512-d USE space).\n",
    );
  }
  if (!write) return;
  const path = writeResult(vectorIndex === 'exact' ? 'ingest' : `ingest-${vectorIndex}`, {
    options: {
      sizes: args.sizes,
      count: args.count ?? null,
      budgetSeconds: Number(args.budget),
      alone: args.alone ?? null,
      batch: Number(args.batch),
      modes: args.modes,
      useCorpusMax: Number(args['use-corpus-max']),
      vectorIndex,
    },
    targets: { useMemoriesPerSecond: TARGETS.use, staticMemoriesPerSecond: TARGETS.static },
    cases,
  });
  log(`wrote ${path} and ${writeChartOf(path)}`);
}

// last, so every helper above is initialised before a case or the main run starts
if (args.case !== undefined) {
  const result = await measureCase(JSON.parse(args.case));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  await main();
}
