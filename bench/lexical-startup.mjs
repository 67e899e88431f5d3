#!/usr/bin/env node
// Time to the first indexed lexical search of a new process on a scale corpus (bench/scale-corpus.mjs):
// `node bench/lexical-startup.mjs [--size 100000] [--runs 3] [--dist DIR --label before]` (after
// `npx tsc -p tsconfig.build.json`). Each run is a fresh child process that opens the store with the
// default configuration and searches (default limit 10, a new query every 50 ms) until the in-memory
// lexical index answers; it records the first search's latency, the time until the index answered,
// the slowest search meanwhile (the store keeps answering with FTS5 while a build runs) and the index
// file's size. Cases: `cold` (no index file: built in the background), `file` (the file written by the
// cold run is loaded), `file+changes` (the same after 4,000 rows were updated by another process).
// `--dist` runs the children against another build (e.g. the code before the file existed) on a copy
// of the corpus. Writes bench/results/lexical-startup.json (merged by label and size).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CACHE_DIR, RESULTS_DIR, environment, log, makeQueries, mb } from './lib.mjs';
import { MAIN_SCOPE, SCALE_SEED, corpusPaths, dist, ensureScaleCorpus } from './scale-corpus.mjs';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    dist: { type: 'string' },
    label: { type: 'string', default: 'after' },
    child: { type: 'string' },
    path: { type: 'string' },
    mode: { type: 'string' },
  },
});

if (args.child !== undefined) await child();
else await main();

async function main() {
  const size = Number(args.size);
  const runs = Number(args.runs);
  const distDir = args.dist === undefined ? dist('') : resolve(args.dist);
  let path = corpusPaths(size).path;
  if (!existsSync(path)) path = (await ensureScaleCorpus(size)).path;
  if (args.dist !== undefined) {
    // another build may not read a newer schema: it gets its own copy of the corpus
    const copy = join(CACHE_DIR, `lexical-startup-${args.label}-${size}.db`);
    if (!existsSync(copy)) copyFileSync(path, copy);
    path = copy;
  }
  const file = `${path}.lexical`;
  const cases = [];
  for (let run = 0; run < runs; run++) {
    rmSync(file, { force: true });
    const cold = await runChild(distDir, path, 'search');
    cases.push({ case: 'cold', run, ...cold, fileMb: existsSync(file) ? mb(statSync(file).size) : null });
    log(`${args.label} ${size} cold #${run}: ${JSON.stringify(cold)}`);
    if (!existsSync(file)) continue;
    const warm = await runChild(distDir, path, 'search');
    cases.push({ case: 'file', run, ...warm, fileMb: mb(statSync(file).size) });
    log(`${args.label} ${size} file #${run}: ${JSON.stringify(warm)}`);
    await runChild(distDir, path, 'update');
    const behind = await runChild(distDir, path, 'search');
    cases.push({ case: 'file+changes', run, ...behind, fileMb: mb(statSync(file).size) });
    log(`${args.label} ${size} file+changes #${run}: ${JSON.stringify(behind)}`);
  }
  const out = join(RESULTS_DIR, 'lexical-startup.json');
  const previous = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : { results: [] };
  const results = previous.results.filter((r) => !(r.label === args.label && r.size === size));
  results.push({ label: args.label, size, at: new Date().toISOString(), environment: environment(), cases });
  writeFileSync(out, `${JSON.stringify({ results }, null, 2)}\n`);
  log(`wrote ${out}`);
}

function runChild(distDir, path, mode) {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(process.execPath, [process.argv[1], '--child', distDir, '--path', path, '--mode', mode, '--size', args.size], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    proc.stdout.on('data', (chunk) => (stdout += chunk));
    proc.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`child exited with ${code}`));
      resolvePromise(JSON.parse(stdout.trim().split('\n').pop() ?? '{}'));
    });
  });
}

async function child() {
  const started = performance.now();
  const distDir = /** @type {string} */ (args.child);
  const { openSqliteStore } = await import(join(distDir, 'storage/sqlite/index.js'));
  const { contentTerms } = await import(join(distDir, 'core/text/index.js'));
  const Database = (await import('better-sqlite3')).default;
  const path = /** @type {string} */ (args.path);
  const raw = new Database(path, { readonly: true });
  const meta = Object.fromEntries(
    /** @type {{ key: string, value: string }[]} */ (raw.prepare('SELECT key, value FROM meta').all()).map((r) => [r.key, r.value]),
  );
  const recent = /** @type {{ id: string }[]} */ (
    raw.prepare('SELECT id FROM memories WHERE scope = ? ORDER BY rowid DESC LIMIT 4000').all(MAIN_SCOPE)
  ).map((r) => r.id);
  raw.close();
  const embedding = { name: meta['embedding.name'], dimension: Number(meta['embedding.dimension']) };
  const store = await openSqliteStore({ path, embedding, vectorIndex: 'exact', logger: { info: () => undefined, warn: log } });
  const opened = performance.now();
  if (args.mode === 'update') {
    // another process changes 4,000 rows' text: the file's catch-up then has them to apply
    const ids = recent;
    await store.transaction(async (tx) => {
      for (const id of ids) await tx.updateMemory(id, MAIN_SCOPE, { updatedAt: Date.now(), tags: [`refreshed${Date.now().toString(36)}`] });
    });
    await store.close();
    console.log(JSON.stringify({ updated: ids.length }));
    return;
  }
  const texts = makeQueries({ seed: 777, count: 400, corpusSeed: SCALE_SEED, corpusSize: Number(args.size) }).map((q) => q.text);
  const times = [];
  let firstIndexedAt = null;
  let firstMs = null;
  const load = loadavg()[0];
  for (let i = 0; i < texts.length * 20; i++) {
    const terms = contentTerms(texts[i % texts.length]).map((term) => ({ term }));
    if (terms.length === 0) continue;
    const before = store.lexicalIndexUsage?.indexed ?? 0;
    const t = performance.now();
    await store.lexicalSearch({ scopes: [MAIN_SCOPE], now: Date.now(), limit: 10, terms });
    const ms = performance.now() - t;
    times.push(ms);
    firstMs ??= ms;
    if ((store.lexicalIndexUsage?.indexed ?? 0) > before) {
      firstIndexedAt = performance.now();
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const usage = store.lexicalIndexUsage;
  await store.close();
  console.log(
    JSON.stringify({
      openMs: Math.round(opened - started),
      firstSearchMs: Math.round(firstMs ?? 0),
      toFirstIndexedMs: firstIndexedAt === null ? null : Math.round(firstIndexedAt - started),
      searchesBefore: times.length - 1,
      slowestSearchMs: Math.round(Math.max(...times)),
      loads: usage?.loads ?? null,
      builds: usage?.builds ?? null,
      load1: Math.round(load * 100) / 100,
    }),
  );
}
