#!/usr/bin/env node
// What the part re-score costs a recall on PostgreSQL (after `npx tsc -p tsconfig.build.json`, with
// ENGRAM_TEST_PG_URL naming a server): `--records` memories of three sentences each (all get part
// vectors) written through the engine into a fresh schema, their parts made, then the same questions
// asked of two engines on that schema, one with the default recall and one with `partWeight: 0`,
// interleaved, warm. `--embedder` (default `static`: the cost does not depend on what the vectors say).
// `node bench/pg-parts.mjs [--records 600] [--queries 100] [--embedder static]`; writes
// bench/results/pg-parts.json and drops its schema.
import { parseArgs } from 'node:util';
import { dropSchema, log, memoisedEmbedder, percentiles, printTable, writeResult } from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '600' },
    queries: { type: 'string', default: '100' },
    embedder: { type: 'string', default: 'static' },
  },
});
const RECORDS = Number(args.records);
const QUERIES = Number(args.queries);
const base = process.env.ENGRAM_TEST_PG_URL;
if (base === undefined || base === '') {
  console.error('set ENGRAM_TEST_PG_URL=postgres://engram:engram@localhost:5432/engram_test (a server this may write a schema into)');
  process.exit(2);
}
const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { Engram, createEmbedder } = await import(dist('index.js'));

const schema = `bench_pg_parts_${Date.now().toString(36)}`;
const url = new URL(base);
url.searchParams.set('schema', schema);
const embedder = memoisedEmbedder(await createEmbedder(args.embedder, { workers: 0 }));
const TOPICS = ['hiking', 'painting', 'the new job', 'a puppy', 'cooking pasta', 'the book club', 'a trip to Paris', 'guitar lessons'];
const SCOPE = 'bench/pg-parts';

const engines = [];
try {
  const withParts = await Engram.open({ path: url.toString(), embedder });
  engines.push(withParts);
  log(`writing ${RECORDS} records into ${schema}`);
  for (let i = 0; i < RECORDS; i++) {
    const a = TOPICS[i % TOPICS.length];
    const b = TOPICS[(i * 5 + 3) % TOPICS.length];
    await withParts.remember({
      scope: SCOPE,
      content: `Speaker${i % 2}: Yesterday I spent the whole afternoon on ${a}, number ${i}. Later we talked for hours about ${b} and what comes next. It was a really good day overall.`,
      occurredAt: Date.UTC(2024, 0, 1) + i * 3_600_000,
    });
  }
  await withParts.processJobs();
  const without = await Engram.open({ path: url.toString(), embedder, recall: { partWeight: 0 } });
  engines.push(without);
  const questions = Array.from({ length: QUERIES }, (_, i) => `what did they say about ${TOPICS[i % TOPICS.length]} ${i}?`);
  const options = { scopes: [SCOPE], k: 10, trackAccess: false };
  for (const question of questions) await Promise.all([withParts.recall(question, options), without.recall(question, options)]);
  const times = { parts: [], none: [] };
  for (let round = 0; round < 2; round++)
    for (const question of questions)
      for (const [name, engine] of round % 2 === 0
        ? [
            ['parts', withParts],
            ['none', without],
          ]
        : [
            ['none', without],
            ['parts', withParts],
          ]) {
        const start = performance.now();
        await engine.recall(question, options);
        times[name].push(performance.now() - start);
      }
  const parts = percentiles(times.parts);
  const none = percentiles(times.none);
  const rows = [
    { config: 'default (part vectors)', p50: parts.p50, p95: parts.p95 },
    { config: 'partWeight: 0', p50: none.p50, p95: none.p95 },
  ];
  printTable(
    `PostgreSQL recall, ${RECORDS} records with part vectors (${embedder.name}), ${2 * QUERIES} recalls each, ms`,
    [
      ['configuration', 'config'],
      ['p50', 'p50', 2],
      ['p95', 'p95', 2],
    ],
    rows,
  );
  const path = writeResult('pg-parts', {
    records: RECORDS,
    queries: QUERIES,
    embedder: embedder.name,
    rows,
    extraP50: parts.p50 - none.p50,
  });
  log(`wrote ${path}`);
} finally {
  for (const engine of engines) await engine.close();
  await dropSchema(base, schema);
}
