#!/usr/bin/env node
// Recall latency of the engine alone on a cached LoCoMo-shaped store: every question of the set, each
// query's vector computed once in a first pass and memoised, so later passes time only the engine (its
// channels, reads, fusion, neighbourhood and graph); `--live` keeps the query embedding in every pass.
//   node bench/recall-engine.mjs --db bench/.cache/tune-locomo-e5m.db [--embedder blend-e5-minilm]
//        [--data FILE.json] [--passes 3] [--live] [--dist DIR]
// The store is one `bench/locomo.mjs --db` built (same data file). `--dist` runs another build (for
// example a git worktree of an older commit, its `dist/`), so two builds can be timed back to back.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_DIR, memoisedEmbedder, percentiles } from './lib.mjs';
import { prepareLocomo, scopeOf } from './locomo-data.mjs';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    embedder: { type: 'string', default: 'blend-e5-minilm' },
    data: { type: 'string', default: join(REPO_DIR, '../shared/datasets/locomo/locomo10.json') },
    passes: { type: 'string', default: '3' },
    live: { type: 'boolean', default: false },
    dist: { type: 'string', default: join(REPO_DIR, 'dist') },
  },
});
if (args.db === undefined) throw new Error('--db is required: a store bench/locomo.mjs --db built');
const { Engram, createEmbedder } = await import(join(resolve(args.dist), 'index.js'));
const { questions, lastDateOf } = prepareLocomo(JSON.parse(readFileSync(args.data, 'utf8')));
const inner = await createEmbedder(args.embedder, { workers: 2 });
const engram = await Engram.open({ path: args.db, embedder: args.live ? inner : memoisedEmbedder(inner) });
console.log(
  `${questions.length} questions, ${args.live ? 'query embedding in every pass' : 'pass 1 embeds, later passes reuse the vectors'}`,
);
for (let pass = 1; pass <= Number(args.passes); pass++) {
  const times = [];
  for (const q of questions) {
    const started = performance.now();
    await engram.recall(q.question, {
      scopes: [scopeOf(q.sampleId)],
      k: 20,
      trackAccess: false,
      referenceTime: lastDateOf.get(q.sampleId),
    });
    times.push(performance.now() - started);
  }
  const { p50, p95, mean } = percentiles(times);
  console.log(`pass ${pass}: p50 ${p50} ms, p95 ${p95} ms, mean ${mean} ms`);
}
await engram.close();
await inner.close?.();
