#!/usr/bin/env node
// Engine recall on the `bench:scale` corpus with the large scope's HNSW search on the store's search
// thread and without it, alternated, so the two are compared in the same minutes:
//   node bench/scale-thread-ab.mjs [--size 1000000] [--rounds 2] [--queries 200] [--warmups 220]
// Each round runs one child process per setting (`vectorSearchThreadRows` default, then `Infinity`):
// it opens the corpus's store with default settings (the static embedder, the lexical index loaded),
// recalls --warmups queries, then the --queries timed ones (k=10), then the same queries with the
// lexical channel off (the vector-only recall, which has nothing to overlap). Before each child a fixed
// loop calibrates the machine (a CPU loop and random memory writes, ms): this machine's speed changes by
// 2× within an afternoon, and only neighbouring runs compare. Writes bench/results/scale-thread-ab-<size>.json.
// Needs the corpus and its index (run `node bench/scale.mjs --sizes <size>` first) and `npm run build`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { log, makeQueries, newEngineCore, percentiles, printTable, since, writeResult } from './lib.mjs';
import { MAIN_SCOPE, SCALE_SEED, assertBuilt, corpusPaths, dist } from './scale-corpus.mjs';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '2' },
    queries: { type: 'string', default: '200' },
    warmups: { type: 'string', default: '220' },
    child: { type: 'string' },
  },
});

/** A fixed CPU loop and random writes into a 128 MB array, ms: what this machine runs at right now. */
function calibrate() {
  const small = new Float64Array(1 << 20).map((_, i) => i % 7);
  let start = performance.now();
  let sum = 0;
  for (let round = 0; round < 200; round++) for (let i = 0; i < small.length; i++) sum += (small[i] ?? 0) * 1.0001;
  const cpuMs = since(start);
  const big = new Float64Array(1 << 24);
  let seed = 12345;
  const at = new Int32Array(1 << 22).map(() => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed & ((1 << 24) - 1);
  });
  start = performance.now();
  for (let round = 0; round < 5; round++) for (let i = 0; i < at.length; i++) big[at[i] ?? 0] += 1;
  return { cpuMs: Math.round(cpuMs), memoryMs: Math.round(since(start)), checksum: sum > 0 };
}

async function child(spec) {
  const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
  const { StaticEmbedder } = await import(dist('embeddings/static/index.js'));
  const embedder = StaticEmbedder.create();
  await embedder.warmUp();
  const texts = makeQueries({ seed: 4242, count: spec.queries, corpusSeed: SCALE_SEED, corpusSize: spec.size }).map((q) => q.text);
  const warmups = makeQueries({ seed: 777, count: spec.warmups, corpusSeed: SCALE_SEED, corpusSize: spec.size }).map((q) => q.text);
  const store = await openSqliteStore({
    path: spec.path,
    embedding: { name: embedder.name, dimension: embedder.dimension },
    logger: { info: () => undefined, warn: (message) => log(`  store warning: ${message}`) },
    ...(spec.thread ? {} : { vectorSearchThreadRows: Infinity }),
  });
  await store.prepareLexicalIndex();
  const engram = await newEngineCore({ store, embedder });
  const options = { scopes: [MAIN_SCOPE], k: 10, trackAccess: false };
  for (const text of warmups) await engram.recall(text, options);
  const timed = async (extra) => {
    const times = [];
    for (const text of texts) {
      const start = performance.now();
      await engram.recall(text, { ...options, ...extra });
      times.push(since(start));
    }
    return percentiles(times);
  };
  const recall = await timed({});
  const vectorOnly = await timed({ weights: { lexical: 0 } });
  const usage = store.annIndexUsage;
  await store.close();
  return { thread: spec.thread, recall, vectorOnly, threadSearches: usage?.threadSearches ?? 0, searches: usage?.searches ?? 0 };
}

if (args.child !== undefined) {
  process.stdout.write(`${JSON.stringify(await child(JSON.parse(args.child)))}\n`);
} else {
  const size = Number(args.size);
  const { path } = corpusPaths(size);
  assertBuilt();
  if (!existsSync(path) || !existsSync(`${path}.ann`))
    throw new Error(
      `no ${size} corpus with its HNSW index in bench/.cache: run \`node bench/scale.mjs --sizes ${size} --skip-use --model none\` first`,
    );
  const rows = [];
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const thread of [false, true]) {
      const machine = calibrate();
      log(`round ${round}: search thread ${thread ? 'on' : 'off'} (calibration: cpu ${machine.cpuMs} ms, memory ${machine.memoryMs} ms)`);
      const spec = { size, path, thread, queries: Number(args.queries), warmups: Number(args.warmups) };
      const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', JSON.stringify(spec)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 1 << 24,
      });
      if (run.status !== 0) throw new Error(`the child run failed (exit ${run.status})`);
      const result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
      rows.push({ round, ...result, machine: { cpuMs: machine.cpuMs, memoryMs: machine.memoryMs } });
    }
  }
  printTable(
    `engine recall at ${size.toLocaleString('en-US')} memories, ms (k=10, static embedder, ${args.queries} queries after ${args.warmups})`,
    [
      ['round', 'round', 0],
      ['thread', 'thread', 0],
      ['p50', 'p50', 2],
      ['p95', 'p95', 2],
      ['mean', 'mean', 2],
      ['vector-only p50', 'v50', 2],
      ['thread searches', 'searches', 0],
      ['calibration cpu / memory ms', 'machine', 0],
    ],
    rows.map((r) => ({
      round: r.round,
      thread: r.thread ? 'on' : 'off',
      p50: r.recall.p50,
      p95: r.recall.p95,
      mean: r.recall.mean,
      v50: r.vectorOnly.p50,
      searches: r.threadSearches,
      machine: `${r.machine.cpuMs} / ${r.machine.memoryMs}`,
    })),
  );
  writeResult(`scale-thread-ab-${size}`, { options: args, rows });
}
