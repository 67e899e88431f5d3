#!/usr/bin/env node
// Ingest into PostgreSQL: `npm run bench:postgres-ingest [-- --sizes 10000 --batches 40 --modes plain,claims]`.
//
// The SQLite `bench:ingest` for the PostgreSQL server named by $ENGRAM_BENCH_PG_URL (else
// $ENGRAM_TEST_PG_URL): for each (size, mode), a fresh schema gets the MAIN_SCOPE part of the benchmark
// corpus (bench/pg-corpus.mjs, static-table vectors) through the store in transactions of 2,000, then
// `engram.remember` in batches of 64 texts of ~150 characters with the static embedder, plain (the
// default layer) or "claims" (~30% semantic/procedural claims, which go through supersession and dedup,
// as bench:ingest's "static, 30% claims"), for --batches batches after two to warm up. The schema is
// written and read the way a store that was just loaded is: right after the load (the store refreshes
// the planner's statistics itself after bulk inserts). Every statement the store sends is timed at the
// driver: the table shows memories/s, this process's CPU per memory, statements per memory and the
// share of the wall clock spent waiting on the server; the JSON adds the costliest statements.
// Writes bench/results/postgres-ingest.json and .md; each schema is dropped afterwards.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { MAIN_SCOPE, corpusEmbedder } from './corpus-db.mjs';
import { benchPostgresUrl, buildInto, redact, withParams } from './pg-corpus.mjs';
import { RESULTS_DIR, dropSchema, log, memoryAt, newEngineCore, parseSizes, printTable, since, writeResult } from './lib.mjs';

const INGEST_SEED = 31_337;
const BATCH = 64;
const MODES = { plain: { label: 'plain', mixed: false }, claims: { label: '30% claims', mixed: true } };

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000' },
    batches: { type: 'string', default: '40' },
    modes: { type: 'string', default: 'plain,claims' },
  },
});

/** Every statement the store sends while `on`, timed from the call until its result. */
const statements = { on: false, total: 0, ms: 0, byText: new Map() };
/** @type {(this: unknown, ...args: unknown[]) => any} */
const query = /** @type {any} */ (pg.Client.prototype).query;
/** @type {any} */ (pg.Client.prototype).query = function timedQuery(config, values, callback) {
  const result = query.call(this, config, values, callback);
  if (!statements.on || typeof result?.then !== 'function') return result;
  const text = (typeof config === 'string' ? config : (config?.text ?? '')).replace(/\s+/g, ' ').trim();
  const started = performance.now();
  return result.finally(() => {
    const ms = since(started);
    statements.total += 1;
    statements.ms += ms;
    const entry = statements.byText.get(text) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += ms;
    statements.byText.set(text, entry);
  });
};

async function main() {
  const base = benchPostgresUrl();
  if (base === undefined) {
    log('no PostgreSQL server: set ENGRAM_BENCH_PG_URL or ENGRAM_TEST_PG_URL (e.g. postgres://engram:engram@localhost:5432/engram_test)');
    process.exit(1);
  }
  const sizes = parseSizes(args.sizes);
  const batches = Number(args.batches);
  if (!Number.isInteger(batches) || batches < 1) throw new Error('--batches must be a whole number ≥ 1');
  const modes = args.modes.split(',').map((name) => {
    if (!(name in MODES)) throw new Error(`unknown mode ${name}: use ${Object.keys(MODES).join(', ')}`);
    return name;
  });
  const cases = [];
  for (const size of sizes) for (const mode of modes) cases.push(await measureCase(base, size, mode, batches));
  const columns = [
    ['memories', 'size', 0],
    ['mode', 'label'],
    ['load records/s', 'loadPerSecond', 0],
    ['written', 'written', 0],
    ['memories/s', 'perSecond', 0],
    ['CPU ms / memory', 'cpuMsPerMemory', 2],
    ['statements / memory', 'statementsPerMemory', 1],
    ['waiting on server', 'serverShare', 2],
  ];
  printTable('ingest into PostgreSQL (static embedder, batches of 64)', columns, cases);
  const path = writeResult('postgres-ingest', { url: redact(base), batch: BATCH, batches, cases });
  writeFileSync(join(RESULTS_DIR, 'postgres-ingest.md'), markdown(cases, columns));
  log(`wrote ${path}`);
}

async function measureCase(base, size, mode, batches) {
  const { openPostgresStore } = await import('../dist/storage/postgres/index.js');
  const schema = `bench_ingest_${process.pid}_${size}_${mode}`;
  const url = withParams(base, { schema });
  const embedder = await corpusEmbedder('static');
  const store = await openPostgresStore({ url, embedding: { name: embedder.name, dimension: embedder.dimension } });
  try {
    log(`${mode}, ${size}: loading the corpus into ${schema}`);
    let started = performance.now();
    await buildInto(store, size);
    const loadPerSecond = size / (since(started) / 1000);
    const engram = await newEngineCore({ store, embedder });
    const { mixed, label } = MODES[mode];
    const input = (index) => {
      const memory = memoryAt(INGEST_SEED + (mixed ? 1 : 0), index);
      return mixed
        ? { scope: MAIN_SCOPE, content: memory.content, layer: memory.layer, tags: memory.tags }
        : { scope: MAIN_SCOPE, content: memory.content };
    };
    for (let b = 0; b < 2; b++) await engram.remember(Array.from({ length: BATCH }, (_, i) => input(10_000_000 + b * BATCH + i)));
    Object.assign(statements, { on: true, total: 0, ms: 0, byText: new Map() });
    const cpu = process.cpuUsage();
    started = performance.now();
    for (let b = 0; b < batches; b++) await engram.remember(Array.from({ length: BATCH }, (_, i) => input(b * BATCH + i)));
    const wallMs = since(started);
    const used = process.cpuUsage(cpu);
    statements.on = false;
    const written = batches * BATCH;
    const top = [...statements.byText]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 8)
      .map(([text, { count, ms }]) => ({
        statement: text.replaceAll(`"${schema}".`, '').slice(0, 160),
        count,
        msPerMemory: round(ms / written, 3),
      }));
    log(`${mode}, ${size}: ${written} memories in ${Math.round(wallMs)} ms`);
    return {
      size,
      mode,
      label,
      loadPerSecond: Math.round(loadPerSecond),
      written,
      perSecond: round((written / wallMs) * 1000, 1),
      cpuMsPerMemory: round((used.user + used.system) / 1000 / written, 3),
      statementsPerMemory: round(statements.total / written, 2),
      serverShare: round(statements.ms / wallMs, 3),
      top,
    };
  } finally {
    await store.close();
    await embedder.close?.();
    await dropSchema(base, schema);
  }
}

function markdown(cases, columns) {
  const lines = [
    '# Ingest into PostgreSQL',
    '',
    `\`npm run bench:postgres-ingest\`: a fresh schema per row, loaded with the corpus through the store, then \`remember\` in batches of ${BATCH} (static embedder). "waiting on server": the statements' time at the driver ÷ the wall clock.`,
    '',
    `| ${columns.map(([header]) => header).join(' | ')} |`,
    `|${columns.map(() => '---').join('|')}|`,
    ...cases.map((c) => `| ${columns.map(([, key]) => c[key]).join(' | ')} |`),
    '',
  ];
  for (const c of cases) {
    lines.push(`**${c.label}, ${c.size}**: costliest statements (ms per memory written)`, '');
    for (const t of c.top) lines.push(`- ${t.msPerMemory} ms, ${t.count}×: \`${t.statement}\``);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function round(value, digits) {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

await main();
