#!/usr/bin/env node
// A recall feature on and off, paired in one process:
//   node bench/recall-ahead-ab.mjs [--feature ahead|mentions] [--size 1000000] [--queries 200] [--rounds 2] [--warmups 150]
// `ahead`: reading ahead while the semantic hits are away (off: the store's `vectorSearchesAway`
// answers false); `mentions`: the stored mentioned times (off: the store's `mentionsOf` hidden, so each
// candidate's dates are read from its text; fill them first with `processJobs`, or the two are alike).
// Opens the `bench:scale` corpus of --size with default store settings (the static embedder, the
// lexical index loaded), recalls --warmups queries, then each of --queries twice in a row, once with the
// feature on and once off, in alternating order so neither setting always runs second (a second run
// finds the dates the first parsed remembered).
// A fixed clock, so both runs of a query must return the same hits; the script fails if they do not.
// Prints p50/p95/mean of each and writes bench/results/recall-<feature>-ab-<size>.json. Needs the corpus and its
// index (`node bench/scale.mjs --sizes <size> --skip-use --model none` first) and `npm run build`.
import { existsSync } from 'node:fs';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { log, makeQueries, percentiles, printTable, since, writeResult } from './lib.mjs';
import { MAIN_SCOPE, SCALE_SEED, assertBuilt, corpusPaths, dist } from './scale-corpus.mjs';

const { values: args } = parseArgs({
  options: {
    feature: { type: 'string', default: 'ahead' },
    size: { type: 'string', default: '1000000' },
    queries: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '2' },
    warmups: { type: 'string', default: '150' },
  },
});

assertBuilt();
const feature = args.feature;
if (feature !== 'ahead' && feature !== 'mentions') throw new Error(`--feature must be ahead or mentions, got ${feature}`);
const size = Number(args.size);
const { path } = corpusPaths(size);
if (!existsSync(path))
  throw new Error(`no ${size} corpus in bench/.cache: run \`node bench/scale.mjs --sizes ${size} --skip-use --model none\` first`);
const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
const { StaticEmbedder } = await import(dist('embeddings/static/index.js'));
const { EngramCore } = await import(dist('core/engine.js'));
const { systemPorts } = await import(dist('system-ports.js'));
const embedder = StaticEmbedder.create();
await embedder.warmUp();
const texts = makeQueries({ seed: 4242, count: Number(args.queries), corpusSeed: SCALE_SEED, corpusSize: size }).map((q) => q.text);
const warmups = makeQueries({ seed: 777, count: Number(args.warmups), corpusSeed: SCALE_SEED, corpusSize: size }).map((q) => q.text);
const store = await openSqliteStore({
  path,
  embedding: { name: embedder.name, dimension: embedder.dimension },
  logger: { info: () => undefined, warn: (message) => log(`  store warning: ${message}`) },
});
await store.prepareLexicalIndex();
const fixed = Date.parse('2025-06-02T00:00:00Z');
const engram = new EngramCore({ clock: { now: () => fixed }, system: systemPorts, store, embedder });
const options = { scopes: [MAIN_SCOPE], k: 10, trackAccess: false };
log(`${size.toLocaleString('en-US')} memories: ${warmups.length} recalls to warm up`);
for (const text of warmups) await engram.recall(text, options);
const away = store.vectorSearchesAway.bind(store);
const kept = store.mentionsOf.bind(store);
const times = { on: [], off: [] };
let readAhead = 0;
/** Turns the feature on or off on this store. */
const set = (on) => {
  if (feature === 'ahead') store.vectorSearchesAway = on ? () => (away() ? (readAhead++, true) : false) : () => false;
  else store.mentionsOf = on ? kept : undefined;
};
let onFaster = 0;
for (let round = 0; round < Number(args.rounds); round++) {
  log(`round ${round + 1}: ${texts.length} queries, each with the read-ahead on and off`);
  for (const [i, text] of texts.entries()) {
    const hits = {};
    const taken = {};
    for (const setting of (i + round) % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
      set(setting === 'on');
      const start = performance.now();
      hits[setting] = (await engram.recall(text, options)).hits;
      taken[setting] = since(start);
      times[setting].push(taken[setting]);
    }
    if (feature === 'ahead' && !isDeepStrictEqual(hits.on, hits.off))
      throw new Error(`query ${i}: the read-ahead changed the hits of "${text}"`);
    if (taken.on < taken.off) onFaster++;
  }
}
await store.close();
const rows = ['on', 'off'].map((setting) => ({ setting, ...percentiles(times[setting]) }));
printTable(
  `engine recall at ${size.toLocaleString('en-US')} memories with ${feature === 'ahead' ? 'the read-ahead' : 'the stored mentioned times'} on and off, ms (k=10, static embedder, paired)`,
  [
    [feature === 'ahead' ? 'read-ahead' : 'stored times', 'setting'],
    ['p50', 'p50', 2],
    ['p95', 'p95', 2],
    ['mean', 'mean', 2],
    ['recalls', 'n', 0],
  ],
  rows,
);
if (feature === 'ahead') process.stdout.write(`read ahead in ${readAhead} of ${times.on.length} recalls\n`);
process.stdout.write(`faster with it in ${onFaster} of ${times.on.length} pairs\n`);
const out = writeResult(`recall-${feature}-ab-${size}`, {
  options: { feature, size, queries: texts.length, rounds: Number(args.rounds) },
  rows,
  ...(feature === 'ahead' ? { readAhead } : {}),
  onFaster,
});
log(`wrote ${out}`);
