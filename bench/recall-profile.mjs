#!/usr/bin/env node
// Where recall time goes: `node bench/recall-profile.mjs [--size 100000] [--queries 200]` (after
// `npx tsc -p tsconfig.build.json` and a cached scale corpus). Opens the scale corpus with default store
// settings, runs engine recalls (static embedder, query embedding included) and prints the time spent in
// each store method per recall. Add `node --cpu-prof` for a CPU profile. `--model bge-small-en-v1.5` runs
// the corpus built with that model's vectors (bench/scale.mjs builds it) with the model embedding queries
// (`--query-workers 0`: in-process; default 1 worker thread, as `engram serve` runs it).
import { parseArgs } from 'node:util';
import { log, makeQueries, percentiles, newEngineCore } from './lib.mjs';
import { MAIN_SCOPE, SCALE_SEED, assertBuilt, corpusPaths, dist } from './scale-corpus.mjs';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '200' },
    repeat: { type: 'string', default: '1' },
    model: { type: 'string' },
    'query-workers': { type: 'string', default: '1' },
  },
});

assertBuilt();
const size = Number(args.size);
const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
const embedder = await queryEmbedder(args.model);
const store = await openSqliteStore({
  path: corpusPaths(size, args.model).path,
  embedding: { name: embedder.name, dimension: embedder.dimension },
  logger: { info: log, warn: log },
});
let started = performance.now();
if (typeof store.prepareLexicalIndex === 'function')
  log(`lexical index ${(await store.prepareLexicalIndex()) ? 'built' : 'not built'} in ${(performance.now() - started).toFixed(0)} ms`);
started = performance.now();
if (typeof store.prepareVectorIndex === 'function') await store.prepareVectorIndex([MAIN_SCOPE]);
log(`vector index ready in ${(performance.now() - started).toFixed(0)} ms`);
const spent = new Map();
const calls = new Map();
const wrap = (target, name, label = name) => {
  const original = target[name].bind(target);
  target[name] = (...a) => {
    const t = performance.now();
    const out = original(...a);
    const done = () => {
      spent.set(label, (spent.get(label) ?? 0) + performance.now() - t);
      calls.set(label, (calls.get(label) ?? 0) + 1);
    };
    if (out && typeof out.then === 'function') return out.finally(done);
    done();
    return out;
  };
};
for (const name of [
  'lexicalSearch',
  'vectorSearch',
  'temporalSearch',
  'getMemories',
  'getNeighbours',
  'getEdges',
  'getConceptRefs',
  'findConceptsByRef',
  'getRelationTypes',
]) {
  if (typeof store[name] === 'function') wrap(store, name);
}
wrap(embedder, 'embed');
const engram = await newEngineCore({ store, embedder });
const texts = makeQueries({ seed: 4242, count: Number(args.queries), corpusSeed: SCALE_SEED, corpusSize: size }).map((q) => q.text);
const warmups = makeQueries({ seed: 4343, count: 10, corpusSeed: SCALE_SEED, corpusSize: size }).map((q) => q.text);
const options = { scopes: [MAIN_SCOPE], k: 10, trackAccess: false };
for (const text of warmups) await engram.recall(text, options);
spent.clear();
calls.clear();
const times = [];
for (let r = 0; r < Number(args.repeat); r++) {
  for (const text of texts) {
    const t = performance.now();
    await engram.recall(text, options);
    times.push(performance.now() - t);
  }
}
const n = times.length;
console.log('recall', percentiles(times));
for (const [name, ms] of [...spent].sort((a, b) => b[1] - a[1]))
  console.log(`${name.padEnd(20)} ${(ms / n).toFixed(2)} ms/recall, ${((calls.get(name) ?? 0) / n).toFixed(2)} calls/recall`);
if (store.lexicalIndexUsage) console.log('lexical index usage', store.lexicalIndexUsage);
if (store.readCacheUsage) console.log('read cache usage', store.readCacheUsage);
await store.close();
await embedder.close?.();

async function queryEmbedder(model) {
  if (model === undefined) {
    const { StaticEmbedder } = await import(dist('embeddings/static/index.js'));
    const embedder = StaticEmbedder.create();
    await embedder.warmUp();
    return embedder;
  }
  // any model name the engine takes (a blend too), its query embedding on a worker thread as `engram serve` runs it
  const { createEmbedder } = await import(dist('index.js'));
  const embedder = await createEmbedder(model, { workers: Number(args['query-workers']) });
  // starts the workers too, as `engram serve` does: a pool's workers start on a batch or warmUp(), and
  // until then queries embed in-process
  await embedder.warmUp();
  return embedder;
}
