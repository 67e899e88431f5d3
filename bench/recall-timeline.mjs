#!/usr/bin/env node
// Where a small-scope recall's time goes with the default model: from the call to the query's vector
// (its embedding, which the lexical channels overlap) and from the vector to the hits (the serial work
// after it), on the conversations bench:peers uses, in Engram's default configuration (two embedding
// worker threads a blend member). `npm run build` first.
//   --set locomo|burst|tech     which conversations (default locomo; bench/peers.mjs's sets)
//   --conversations N           the first N of them (default 2)
//   --db PATH|URL               a SQLite file (default bench/.cache/timeline-<set>-<N>.db) or a postgres://
//                               URL (its schema is filled when empty); ingested once, reused after
//   --variants a,b              what to compare, run alternately in one process each (default: default):
//                               default: as Engram runs; unprepared (a postgres:// db only): with
//                               ?prepare=off, its reads not prepared
//   --rounds R                  alternations (default 2); --repeat Q: passes over the questions a run (1)
// Prints p50/p95 of the recall, of the time to the vector and of the time after it per variant, checks
// that every variant returned the same hits, and writes bench/results/recall-timeline-<set>[-postgres].json.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, CACHE_DIR, REPO_DIR, log, percentiles, printTable, writeResult } from './lib.mjs';
import { prepareLocomo, scopeOf } from './locomo-data.mjs';

const SETS = {
  locomo: join(REPO_DIR, '../shared/datasets/locomo/locomo10.json'),
  burst: join(BENCH_DIR, 'data/burst-chat.json'),
  tech: join(BENCH_DIR, 'data/tech-chat.json'),
};
const VARIANTS = ['default', 'unprepared'];

const { values: args } = parseArgs({
  options: {
    set: { type: 'string', default: 'locomo' },
    conversations: { type: 'string', default: '2' },
    db: { type: 'string' },
    variants: { type: 'string', default: 'default' },
    rounds: { type: 'string', default: '2' },
    repeat: { type: 'string', default: '1' },
    case: { type: 'string' },
  },
});

if (args.case) await runCase(JSON.parse(args.case));
else await main();

async function main() {
  const file = SETS[args.set];
  if (file === undefined) throw new Error(`--set must be one of ${Object.keys(SETS).join(', ')}, got ${args.set}`);
  const conversations = positive(args.conversations, '--conversations');
  const rounds = positive(args.rounds, '--rounds');
  const repeat = positive(args.repeat, '--repeat');
  const variants = args.variants.split(',').map((v) => v.trim());
  for (const v of variants) if (!VARIANTS.includes(v)) throw new Error(`--variants: ${v} is not one of ${VARIANTS.join(', ')}`);
  const postgres = args.db !== undefined && /^postgres(ql)?:\/\//i.test(args.db);
  if (variants.includes('unprepared') && !postgres) throw new Error('the unprepared variant needs a postgres:// --db');
  if (!existsSync(join(REPO_DIR, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const db = args.db ?? join(CACHE_DIR, `timeline-${args.set}-${conversations}.db`);
  const runs = [];
  for (let round = 0; round < rounds; round++)
    for (const variant of variants) {
      log(`round ${round + 1}: ${variant}…`);
      const spec = { set: args.set, file, conversations, db, variant, repeat };
      const child = spawnSync(process.execPath, [process.argv[1], '--case', JSON.stringify(spec)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 64 * 1024 * 1024,
      });
      if (child.status !== 0) throw new Error(`the ${variant} run exited with ${child.status}`);
      runs.push({ round: round + 1, variant, ...JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') });
    }
  const reference = runs[0].hits;
  for (const run of runs) {
    const differing = run.hits.filter((hits, i) => JSON.stringify(hits) !== JSON.stringify(reference[i])).length;
    run.differing = differing;
    if (differing > 0) throw new Error(`the ${run.variant} run of round ${run.round} returned other hits for ${differing} questions`);
  }
  const rows = runs.map(({ hits: _hits, ...run }) => ({
    variant: `${run.variant} (${run.round})`,
    recall50: run.recall.p50,
    recall95: run.recall.p95,
    vector50: run.toVector.p50,
    after50: run.afterVector.p50,
    after95: run.afterVector.p95,
  }));
  printTable(
    `${args.set}: ${conversations} conversations, ${runs[0].questions} questions × ${repeat}, ${postgres ? 'PostgreSQL' : 'SQLite'} (ms; every run the same hits)`,
    [
      ['variant', 'variant'],
      ['recall p50', 'recall50', 2],
      ['recall p95', 'recall95', 2],
      ['to vector p50', 'vector50', 2],
      ['after p50', 'after50', 2],
      ['after p95', 'after95', 2],
    ],
    rows,
  );
  const path = writeResult(`recall-timeline-${args.set}${postgres ? '-postgres' : ''}`, {
    set: args.set,
    conversations,
    store: postgres ? 'postgres' : 'sqlite',
    sameHits: true,
    runs: runs.map(({ hits: _hits, ...run }) => run),
    command: `npm run bench:recall-timeline -- ${process.argv.slice(2).join(' ')}`.trim(),
  });
  log(`wrote ${path}`);
}

/** One variant in this process: opens (ingesting once), times every question, prints one JSON line. */
async function runCase({ file, conversations, db, variant, repeat }) {
  const { Engram } = await import('../dist/index.js');
  const { PEER_MODEL, warmUpTexts } = await import('./peers/embeddings-server.mjs');
  const samples = JSON.parse(readFileSync(file, 'utf8')).slice(0, conversations);
  const { turnsBySample, questions, lastDateOf } = prepareLocomo(samples, { plain: true });
  const postgres = /^postgres(ql)?:\/\//i.test(db);
  const path = variant === 'unprepared' ? `${db}${db.includes('?') ? '&' : '?'}prepare=off` : db;
  const engram = await Engram.open({ path, embedder: PEER_MODEL, workers: 2 });
  await engram.embedder.embed(warmUpTexts());
  const empty = postgres
    ? (await engram.recall(questions[0].question, { scopes: [scopeOf(questions[0].sampleId)], k: 1 })).hits.length === 0
    : !existsSync(`${db}.ingested`);
  if (empty) {
    log(`ingesting ${[...turnsBySample.values()].reduce((n, t) => n + t.length, 0)} turns into ${postgres ? 'the schema' : db}…`);
    for (const [, turns] of turnsBySample)
      for await (const _ of engram.rememberBatches(
        turns.map((t) => t.input),
        { batchSize: 128 },
      ));
    await engram.processJobs({ scopes: 'all' });
    if (!postgres) (await import('node:fs')).writeFileSync(`${db}.ingested`, '');
  }
  // when the vector came: the embedder's call resolves just before recall's own continuation runs
  const embed = engram.embedder.embed.bind(engram.embedder);
  let vectorAt = 0;
  engram.embedder.embed = (texts, options) =>
    embed(texts, options).then((vectors) => {
      vectorAt = performance.now();
      return vectors;
    });
  const ask = (q) =>
    engram.recall(q.question, { scopes: [scopeOf(q.sampleId)], k: 10, trackAccess: false, referenceTime: lastDateOf.get(q.sampleId) });
  for (const q of questions.slice(0, 10)) await ask(q);
  const recall = [];
  const toVector = [];
  const afterVector = [];
  const hits = [];
  for (let pass = 0; pass < repeat; pass++)
    for (const q of questions) {
      const started = performance.now();
      const result = await ask(q);
      const ended = performance.now();
      recall.push(ended - started);
      toVector.push(vectorAt - started);
      afterVector.push(ended - vectorAt);
      if (pass === 0) hits.push(result.hits.map((h) => h.content));
    }
  await engram.close();
  process.stdout.write(
    `${JSON.stringify({ questions: questions.length, recall: percentiles(recall), toVector: percentiles(toVector), afterVector: percentiles(afterVector), hits })}\n`,
  );
}

function positive(text, flag) {
  const n = Number(text);
  if (!(Number.isInteger(n) && n > 0)) throw new Error(`${flag} must be a positive whole number, got ${text}`);
  return n;
}
